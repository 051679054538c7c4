// What the tests of recorded runs share: running `renyi` with any command in a
// folder, and a local HTTP server whose answers a recording can hold.

import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { RENYI } from "./support.js";

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `renyi ARGS...` in `work`, with the compile cache in `work/cache`; `onStdout` sees the output as it comes. */
export function renyi(
  work: string,
  args: readonly string[],
  options: { env?: Record<string, string>; onStarted?: (child: ReturnType<typeof spawn>) => void } = {},
): Promise<Ran> {
  const child = spawn(process.execPath, [RENYI, ...args], {
    cwd: work,
    env: { ...process.env, ...options.env, RENYI_CACHE_DIR: join(work, "cache") },
  });
  options.onStarted?.(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (status) => resolve({ status, stdout, stderr })));
}

/**
 * A server on 127.0.0.1: `/item/N` answers `{"id": N}` after (5 - N) × 60 ms,
 * so that concurrent requests complete in the reverse of the order they were
 * made; `/same` counts; `/bin` is bytes that are not UTF-8; `/echo` answers
 * `{"id": 7, "auth": …}` with the Authorization header it was sent; `/hang`
 * never answers.
 */
export async function startServer(): Promise<{ base: string; server: Server; close: () => Promise<void> }> {
  let count = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const url = req.url ?? "";
      const item = /^\/item\/(\d+)$/.exec(url);
      if (item !== null) {
        setTimeout(() => res.end(JSON.stringify({ id: Number(item[1]) })), Math.max(0, 5 - Number(item[1])) * 60);
        return;
      }
      if (url === "/same") return void res.end(String(++count));
      if (url === "/bin") {
        res.setHeader("content-type", "application/octet-stream");
        return void res.end(Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28, 0x80, 1]));
      }
      if (url === "/echo")
        return void res.end(JSON.stringify({ id: 7, auth: req.headers["authorization"] ?? "", got: body }));
      if (url === "/hang") return;
      res.statusCode = 404;
      res.end("not here");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    base,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
