// The files beside a bundle that show where a run failed or crashed: its
// manifest, its source map and its sources, read by `renyi run DIR/NAME.mjs`
// (cli/bundles/bundle-files.ts, which also checks the manifest's signature) and by the
// bundle run as `node DIR/NAME.mjs` (report/bundle-outcome.ts). Every file is
// read as hostile: bounded, only if it is a regular file, and each against the
// hash its manifest gives.

import { dirname, join } from "node:path";
import type { Manifest } from "../vocabulary/manifest.js";
import { MANIFEST_LIMIT, readManifest } from "./manifest.js";
import { MAX_SOURCE_BYTES, readBounded } from "./read-bounded.js";
import { sha256 } from "./sha256.js";
import type { SourceMapV3 } from "./source-map.js";
import { SourceFile } from "./source.js";

const MAP_LIMIT = 128 << 20;

type Checked<T> = ({ ok: true } & T) | { ok: false; problem: string };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The grant manifest beside a bundle: `DIR/NAME.grant.json` for `DIR/NAME.mjs`. */
export function manifestPathOf(file: string): string {
  return file.replace(/\.mjs$/, ".grant.json");
}

/**
 * The manifest beside the bundle, read strictly, its signature unchecked (it only says which map and sources to show).
 */
export function readBundleManifest(file: string): Manifest | undefined {
  const read = readBounded(manifestPathOf(file), MANIFEST_LIMIT);
  if (!read.ok) return undefined;
  const manifest = readManifest(read.bytes);
  return manifest.ok ? manifest.manifest : undefined;
}

const EMPTY_MAP: SourceMapV3 = { version: 3, sources: [], names: [], mappings: "" };

/**
 * The bundle's source map, if it is there, and only the one the manifest names. Without it a crash has no .ry position.
 */
export function readBundleMap(file: string, manifest: Manifest): Checked<{ map: SourceMapV3 }> {
  const read = readBounded(`${file}.map`, MAP_LIMIT);
  if (!read.ok)
    return read.missing
      ? { ok: true, map: EMPTY_MAP }
      : { ok: false, problem: `I cannot read the source map ${file}.map: ${read.why}` };
  if (sha256(read.bytes) !== manifest.map)
    return {
      ok: false,
      problem: `the source map's hash does not match its manifest: ${file}.map was changed after it was built`,
    };
  try {
    const map = JSON.parse(read.bytes.toString("utf8")) as SourceMapV3;
    if (
      map.version === 3 &&
      Array.isArray(map.sources) &&
      map.sources.every((s) => typeof s === "string") &&
      typeof map.mappings === "string" &&
      /^[A-Za-z0-9+/,;]*$/.test(map.mappings)
    ) {
      return { ok: true, map: { version: 3, sources: map.sources, names: [], mappings: map.mappings } };
    }
  } catch {
    // Refused below.
  }
  return { ok: false, problem: `the source map ${file}.map is not a source map` };
}

/**
 * The program's sources, to show the line of a failure or a crash: each only if
 * it is the file the bundle was built from (its hash is the manifest's).
 */
export function readBundleSources(file: string, manifest: Manifest): Map<string, SourceFile> {
  const sources = new Map<string, SourceFile>();
  for (const source of manifest.sources) {
    const read = readBounded(join(dirname(file), source.file), MAX_SOURCE_BYTES);
    if (!read.ok) continue;
    let text: string;
    try {
      text = strictUtf8.decode(read.bytes);
    } catch {
      continue;
    }
    if (sha256(text) === source.hash) sources.set(source.file, new SourceFile(source.file, text));
  }
  return sources;
}
