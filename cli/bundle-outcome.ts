// The end of a bundle run as `node DIR/NAME.mjs` when it did not finish
// (rtlib/entry.ts loads this module then, and only then): the outcome shown as
// `renyi run DIR/NAME.mjs` shows it, with the source map and the sources the
// manifest beside the bundle names, and the exit code of the same table.

import { fileURLToPath } from "node:url";
import type { SourceFile } from "../compiler/source.js";
import type { Outcome } from "../rtlib/run-main.js";
import { checkManifest, readBundleMap, readBundleSources } from "./bundle-check.js";
import { exitCodeOf, outcomeText, type Located } from "./outcome-text.js";

/** Writes what the outcome shows to standard error and gives back the exit code. */
export function endBundleRun(outcome: Outcome, bundleUrl: string): number {
  process.stderr.write(outcomeText(outcome, located(fileURLToPath(bundleUrl))));
  return exitCodeOf(outcome);
}

/** The bundle's map and sources, through its manifest; a place without them is shown as a bare position. */
function located(path: string): Located {
  const checked = checkManifest(path, []);
  const manifest = checked.ok ? checked.manifest : undefined;
  let sources: ReadonlyMap<string, SourceFile> | undefined;
  return {
    path,
    map: () => {
      if (manifest === undefined) return undefined;
      const map = readBundleMap(path, manifest);
      return map.ok ? map.map : undefined;
    },
    sources: () => (sources ??= manifest === undefined ? new Map() : readBundleSources(path, manifest)),
  };
}
