// The page of `renyi view` in a real browser: Debian's chromium (/usr/bin/chromium, which
// .ci/run installs), driven by playwright-core, headless, with a fresh profile each launch and
// Chromium's own background traffic turned off, so that every request the browser makes is
// one the page made (playwright gives each launch a new empty profile of its own). And `renyi
// view` itself as a child process.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { RENYI } from "./support.js";

const CHROMIUM = process.env["RENYI_CHROMIUM"] ?? "/usr/bin/chromium";

export interface Opened {
  readonly browser: Browser;
  readonly context: BrowserContext;
  /** Every URL the browser asked for, in order, from every page and worker of the context. */
  readonly requests: string[];
  /** Errors the pages printed to their consoles or threw. */
  readonly errors: string[];
  newPage(): Promise<Page>;
}

/** Chromium, headless, with its own background traffic turned off (for a file whose tests share one browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Calls `use` with a launched browser and a fresh context; closes both, however `use` ends. */
export async function withBrowser<T>(use: (opened: Opened) => Promise<T>): Promise<T> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const requests: string[] = [];
    const errors: string[] = [];
    context.on("request", (request) => requests.push(request.url()));
    const watch = (page: Page) => {
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(String(error)));
    };
    context.on("page", watch);
    return await use({ browser, context, requests, errors, newPage: () => context.newPage() });
  } finally {
    await browser.close();
  }
}

export interface Viewing {
  readonly child: ChildProcessWithoutNullStreams;
  /** The address `renyi view` printed: `http://127.0.0.1:PORT/TOKEN/`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Milliseconds from the spawn to the address printed. */
  readonly startedMs: number;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `renyi view [args...]` in `cwd` and waits for the address it prints on its first line. */
export async function startView(cwd: string, args: readonly string[]): Promise<Viewing> {
  const started = performance.now();
  const child = spawn(process.execPath, [RENYI, "view", "--port", "0", ...args], {
    cwd,
    // A cache folder of its own, never one in the folder served (which may be the repository).
    env: { ...process.env, RENYI_CACHE_DIR: join(mkdtempSync(join(tmpdir(), "renyi-view-")), "cache") },
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const line = /^(http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/)\s*$/m.exec(stdout);
      if (line !== null) resolve(line[1]!);
    });
    void exited.then((code) => reject(new Error(`renyi view exited (${code}) before printing its address: ${stderr}`)));
  });
  const startedMs = performance.now() - started;
  const address = new URL(url);
  return {
    child,
    url,
    port: Number(address.port),
    token: address.pathname.split("/")[1]!,
    startedMs,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      await exited;
    },
  };
}

/** Whether every request went to `url`'s own origin (or stayed inside the page: blob:, data:). */
export function outsideRequests(requests: readonly string[], url: string): string[] {
  const origin = new URL(url).origin;
  return requests.filter((r) => !r.startsWith(`${origin}/`) && !r.startsWith("blob:") && !r.startsWith("data:"));
}
