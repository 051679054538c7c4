// Admitting a bundle built by `renyic build` before it runs (spec/runtime.md,
// section 7), in this order: under --trust, its manifest's signature; the
// manifest, read strictly; the bundle's bytes against the manifest's hash; the
// validator; the bundle's own grant against the manifest's, which is the grant
// it runs with; and its source map. What is admitted is what runs: the code
// that was hashed and validated, never read again.

import type { SourceMapV3 } from "../../report/source-map.js";
import type { Manifest } from "../../vocabulary/manifest.js";
import type { GrantItem } from "../../vocabulary/needs.js";
import { checkManifest, compareGrants, readBundleCode, readBundleMap } from "./bundle-files.js";
import { sha256, validateBundle } from "./validate.js";

export interface AdmittedBundle {
  readonly ok: true;
  readonly manifest: Manifest;
  /** The grant the bundle runs with: its manifest's, which its own matches (null: main needs nothing). */
  readonly grant: GrantItem[] | null;
  readonly code: string;
  /** Where the import of the runtime is in `code`, to point it at this toolchain's runtime. */
  readonly importStart: number;
  readonly importEnd: number;
  readonly map: SourceMapV3;
}

export async function admitBundle(
  file: string,
  trust: readonly string[],
): Promise<AdmittedBundle | { ok: false; problem: string }> {
  const checked = await checkManifest(file, trust);
  if (!checked.ok) return checked;
  const { manifest, grant } = checked;
  const read = readBundleCode(file);
  if (!read.ok) return read;
  const code = read.code;
  if (manifest.bundle !== sha256(code))
    return {
      ok: false,
      problem: `the bundle's hash does not match its manifest: ${file} was changed after it was built`,
    };
  const validation = validateBundle(code);
  if (!validation.ok) return { ok: false, problem: `the bundle was refused: ${validation.problem}` };
  const own = compareGrants(validation.body, grant);
  if (!own.ok) return own;
  const map = readBundleMap(file, manifest);
  if (!map.ok) return map;
  return {
    ok: true,
    manifest,
    grant,
    code,
    importStart: validation.importStart,
    importEnd: validation.importEnd,
    map: map.map,
  };
}
