// Running a bundle directly (`node DIR/NAME.mjs --city Paris`): the bundle ends
// with `await $runIfMain(import.meta.url, main, mainParameters, mainGrant[, mainPurpose[, origins]])`,
// which runs main when the bundle is the program node was started with, and
// does nothing when the bundle is imported (as `renyi run` does, in its worker).
// The run is runMain's, as `renyi run`'s is, with the default limits, or
// those the environment sets: `RENYI_FUEL`, `RENYI_MAX_HOST_CALLS` and the
// rest, one for each of `renyi run`'s limit options (spec/runtime.md,
// "Limits"). They are read here, by the runtime, before the program is
// loaded: the program has no access to the environment, and cannot change them.

import { EXIT } from "../vocabulary/outcomes.js";
import { pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";
import type { MainParameter } from "./arguments.js";
import type { GrantItem } from "./grants.js";
import { hostImport } from "./host-import.js";
import { stopChildren } from "./children.js";
import { runMain, type Outcome, type RunConfig } from "./run-main.js";
import { ENVIRONMENT_LIMITS, environmentName, HIGHEST_LIMITS } from "../vocabulary/limits.js";

type Limits = NonNullable<RunConfig["limits"]>;

/** The limits the environment sets, or why one of them cannot be used. */
export function limitsFromEnvironment(
  env: NodeJS.ProcessEnv,
): { limits: Limits & { timeoutMs?: number } } | { problem: string } {
  const limits: Record<string, number> = {};
  const read = (option: string, highest?: number): number | string | undefined => {
    const name = environmentName(option);
    const value = env[name];
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
      return `${name} (the limit ${option} sets) takes a whole number above 0, not ${JSON.stringify(value.slice(0, 40))}`;
    if (highest !== undefined && Number(value) > highest)
      return `${name} (the limit ${option} sets) may lower the limit, not raise it: at most ${highest.toLocaleString("en")}`;
    return Number(value);
  };
  for (const { option, key } of ENVIRONMENT_LIMITS) {
    const value = read(option, HIGHEST_LIMITS[key]);
    if (typeof value === "string") return { problem: value };
    if (value !== undefined) limits[key] = value;
  }
  const requestTimeout = read("--request-timeout");
  if (typeof requestTimeout === "string") return { problem: requestTimeout };
  const timeout = read("--timeout");
  if (typeof timeout === "string") return { problem: timeout };
  return {
    limits: {
      ...limits,
      ...(requestTimeout !== undefined ? { requestTimeoutMs: requestTimeout * 1000 } : {}),
      // As under `renyi run` a program that serves is stopped only by a timeout given, a bundle run directly has a
      // deadline only when RENYI_TIMEOUT gives one.
      ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    },
  };
}

/**
 * The run's deadline: a thread of its own sets the cancellation flag when the
 * time is up (the program's thread may be in a loop that never yields to a
 * timer), and the program stops at its next check, as under `renyi run`.
 */
async function deadline(cancel: SharedArrayBuffer, ms: number): Promise<{ stop(): void }> {
  const { Worker } = await hostImport<typeof import("node:worker_threads")>("node:worker_threads");
  const timer = new Worker(
    `const { workerData } = require("node:worker_threads");
const flag = new Int32Array(workerData.cancel);
if (Atomics.wait(flag, 0, 0, workerData.ms) === "timed-out") Atomics.store(flag, 0, 2);`,
    { eval: true, workerData: { cancel, ms } },
  );
  timer.unref();
  return { stop: () => void timer.terminate() };
}

/**
 * Whether the bundle is the script node was started with (node runs a
 * symlink's target, so the path is resolved). A bundle imported by `renyi
 * run`'s worker thread never is, and is told apart without loading node:fs.
 */
async function isMainModule(url: string): Promise<boolean> {
  const script = process.argv[1];
  if (!isMainThread || script === undefined) return false;
  if (pathToFileURL(script).href === url) return true;
  try {
    const { realpathSync } = await hostImport<typeof import("node:fs")>("node:fs");
    return pathToFileURL(realpathSync(script)).href === url;
  } catch {
    return false;
  }
}

export async function runIfMain(
  url: string,
  main: ((...args: unknown[]) => unknown) | undefined,
  parameters: readonly MainParameter[] | undefined,
  mainGrant: readonly GrantItem[] | null = null,
  mainPurpose?: string,
  origins = false,
): Promise<void> {
  if (main === undefined || !(await isMainModule(url))) return;
  const fromEnvironment = limitsFromEnvironment(process.env);
  if ("problem" in fromEnvironment) {
    process.exitCode = await ended({ outcome: "refused", message: fromEnvironment.problem }, url);
    return;
  }
  const { limits } = fromEnvironment;
  const { timeoutMs } = limits;
  const cancel = new SharedArrayBuffer(4);
  const timer = timeoutMs === undefined ? undefined : await deadline(cancel, timeoutMs);
  const outcome = await runMain(
    {
      main,
      mainParameters: parameters ?? [],
      mainGrant,
      origins,
      ...(mainPurpose !== undefined ? { mainPurpose } : {}),
    },
    { argv: process.argv.slice(2), limits: { ...limits, cancel } },
  );
  timer?.stop();
  stopChildren();
  process.exitCode = outcome.outcome === "finished" ? EXIT.finished : await ended(outcome, url);
}

/**
 * Shows the outcome as `renyi run` does, with the module that renders it for
 * both (report/bundle-outcome.ts, which imports nothing of the compiler or the
 * command line): resolved beside the runtime's one file
 * (dist/runtime-import.cjs), which is what a bundle's `renyi/runtime` loads.
 */
async function ended(outcome: Outcome, url: string): Promise<number> {
  const { endBundleRun } = await hostImport<{ endBundleRun: (outcome: Outcome, url: string) => number }>(
    "./report/bundle-outcome.js",
  );
  return endBundleRun(outcome, url);
}
