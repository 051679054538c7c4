// The end of a bundle run as `node DIR/NAME.mjs` when it did not finish
// (rtlib/entry.ts loads this module then, and only then): the outcome shown as
// `renyi run DIR/NAME.mjs` shows it, with the source map and the sources the
// manifest beside the bundle names, and the exit code of the same table.

import { fileURLToPath } from "node:url";
import type { Manifest } from "../vocabulary/manifest.js";
import { readBundleManifest, readBundleMap, readBundleSources } from "./bundle-files.js";
import { exitCodeOf, outcomeText, type Located, type ShownOutcome } from "./outcome-text.js";
import type { SourceFile } from "./source.js";

/** Writes what the outcome shows to standard error and gives back the exit code. */
export function endBundleRun(outcome: ShownOutcome, bundleUrl: string): number {
  process.stderr.write(outcomeText(outcome, located(fileURLToPath(bundleUrl))));
  return exitCodeOf(outcome);
}

/** The bundle's map and sources, through its manifest; a place without them is shown as a bare position. */
function located(path: string): Located {
  const manifest: Manifest | undefined = readBundleManifest(path);
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
