// `renyi view [--port P] [PATHS]`: serves the page that reviews programs and recordings
// (cli/view/server.ts, spec/view.md) until Ctrl-C. Prints its address first, on a line of its own.

import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXIT } from "../../vocabulary/outcomes.js";
import { PACKAGE_ROOT } from "../host/places.cjs";
import { startViewServer } from "../view/server.js";
import { Refusal } from "./failure.js";

export async function runView(paths: readonly string[], options: { readonly port: number }): Promise<number> {
  const roots = (paths.length === 0 ? ["."] : paths).map((path) => resolve(path));
  for (const root of roots) if (!existsSync(root)) throw new Refusal(`no file or folder ${root}`);
  const server = await startViewServer({
    roots,
    port: options.port,
    assets: join(PACKAGE_ROOT, "dist", "view"),
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE" || error.code === "EACCES")
      throw new Refusal(`port ${options.port} cannot be used (${error.code}): \`--port 0\` lets the system choose one`);
    throw error;
  });
  try {
    process.stdout.write(`${server.url}\n`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
  } finally {
    await server.close();
  }
  return EXIT.finished;
}
