// Running a bundle directly (`node DIR/NAME.mjs --city Paris`): the bundle ends
// with `await $runIfMain(import.meta.url, main, mainParameters)`, which runs
// main when the bundle is the program node was started with, and does nothing
// when the bundle is imported (as `renyi run` does, in its worker).

import { EXIT } from "../vocabulary/outcomes.js";
import { pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";
import { convertArguments, type MainParameter } from "./arguments.js";
import { Cancelled, Crash, engineLimit, Failure } from "./errors.js";
import { configureLimits } from "./limits.js";
import { rootGrant, type GrantItem } from "./grants.js";
import { NONE, some } from "./prelude.js";
import { toText } from "./text.js";
import { hostImport } from "./host-import.js";
import { stopChildren } from "./children.js";

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

export async function runIfMain(url: string, main: ((...args: unknown[]) => unknown) | undefined, parameters: readonly MainParameter[] | undefined, mainGrant: readonly GrantItem[] | null = null): Promise<void> {
  if (main === undefined || !(await isMainModule(url))) return;
  configureLimits({});
  const args = convertArguments(parameters ?? [], process.argv.slice(2), { none: NONE, some });
  if (!args.ok) {
    process.stderr.write(`error: ${args.message}\n`);
    process.exitCode = EXIT.refused;
    return;
  }
  try {
    await main(...(mainGrant === null ? [] : [rootGrant(mainGrant, "main")]), ...args.values);
    process.exitCode = EXIT.finished;
  } catch (thrown) {
    const e = engineLimit(thrown) ?? thrown;
    if (e instanceof Failure) {
      process.stderr.write(`error[E-RT-FAILED]: main failed with ${toText(e.value)}${e.site ? `\n  --> ${e.site}` : ""}\n`);
      process.exitCode = EXIT.failed;
    } else if (e instanceof Crash) {
      process.stderr.write(`error[${e.code}]: ${e.message}${e.site ? `\n  --> ${e.site}` : ""}\n`);
      process.exitCode = EXIT.crashed;
    } else if (e instanceof Cancelled) {
      process.exitCode = EXIT.cancelled;
    } else {
      process.stderr.write(`error[E-RT-INTERNAL]: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = EXIT.crashed;
    }
  } finally {
    stopChildren();
  }
}
