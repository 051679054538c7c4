// Running a bundle directly (`node DIR/NAME.mjs --city Paris`): the bundle ends
// with `await $runIfMain(import.meta.url, main, mainParameters, mainGrant[, mainPurpose])`,
// which runs main when the bundle is the program node was started with, and
// does nothing when the bundle is imported (as `renyi run` does, in its worker).
// The run is runMain's, as `renyi run`'s is, with the default limits.

import { EXIT } from "../vocabulary/outcomes.js";
import { pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";
import type { MainParameter } from "./arguments.js";
import type { GrantItem } from "./grants.js";
import { hostImport } from "./host-import.js";
import { stopChildren } from "./children.js";
import { runMain, type Outcome } from "./run-main.js";

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

export async function runIfMain(url: string, main: ((...args: unknown[]) => unknown) | undefined, parameters: readonly MainParameter[] | undefined, mainGrant: readonly GrantItem[] | null = null, mainPurpose?: string): Promise<void> {
  if (main === undefined || !(await isMainModule(url))) return;
  const outcome = await runMain({ main, mainParameters: parameters ?? [], mainGrant, ...(mainPurpose !== undefined ? { mainPurpose } : {}) }, { argv: process.argv.slice(2) });
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
  const { endBundleRun } = await hostImport<{ endBundleRun: (outcome: Outcome, url: string) => number }>("./report/bundle-outcome.js");
  return endBundleRun(outcome, url);
}
