// The checks `renyi run DIR/NAME.mjs` makes on a bundle's files before the
// validator and after it (spec/runtime.md, section 7): the manifest, signed when
// --trust asks for it and read strictly; the bundle's bytes; the bundle's own
// grant against the manifest's; the source map and the sources a crash report
// shows, each against its hash. Every file is read as hostile: bounded, and
// only if it is a regular file.

import { basename } from "node:path";
import type { GrantItem } from "../../vocabulary/needs.js";
import { manifestPathOf } from "../../report/bundle-files.js";
import { readBounded } from "../../report/read-bounded.js";
import { bundleGrant } from "./own-grant.js";
import type { Manifest } from "../../vocabulary/manifest.js";
import { grantText } from "../../vocabulary/needs.js";
import { canonical, MANIFEST_LIMIT, readManifest } from "../../report/manifest.js";
import { readPublicKey, verifyManifest, type TrustedKey } from "./signing.js";

// The source map and the sources are read by report/bundle-files.ts, which a
// bundle run by Node uses too, to show a crash at its .ry place.
export { readBundleMap, readBundleSources } from "../../report/bundle-files.js";

/** A bundle larger than this is refused unread; the largest example's is under 100 KB. */
const BUNDLE_LIMIT = 64 << 20;

type Checked<T> = ({ ok: true } & T) | { ok: false; problem: string };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The manifest beside the bundle, with the grant the run is to have. */
export function checkManifest(
  file: string,
  trust: readonly string[],
): Checked<{ manifest: Manifest; grant: GrantItem[] | null }> {
  const keys: TrustedKey[] = [];
  for (const path of trust) {
    const key = readPublicKey(path);
    if (!key.ok) return key;
    keys.push(key.key);
  }
  const manifestPath = manifestPathOf(file);
  const read = readBounded(manifestPath, MANIFEST_LIMIT);
  if (!read.ok) {
    return {
      ok: false,
      problem: read.missing
        ? `the bundle has no grant manifest at ${manifestPath}; build it with renyic build`
        : `I cannot read the grant manifest ${manifestPath}: ${read.why}`,
    };
  }
  if (keys.length > 0) {
    const signed = verifyManifest(read.bytes, file.replace(/\.mjs$/, ".grant.sig"), keys);
    if (!signed.ok) return signed;
  }
  const manifest = readManifest(read.bytes);
  if (!manifest.ok) return manifest;
  // The name is part of what was signed: a bundle of another program, renamed with its manifest and signature, is not
  // this one.
  const name = basename(file, ".mjs");
  if (manifest.manifest.program !== name)
    return {
      ok: false,
      problem:
        `the manifest is for the program ${JSON.stringify(manifest.manifest.program)}, but the bundle is named ` +
        `${JSON.stringify(`${name}.mjs`)}: a bundle runs under the name it was built (and signed) as, and a ` +
        `renamed one is refused`,
    };
  return { ok: true, manifest: manifest.manifest, grant: manifest.grant };
}

export function readBundleCode(file: string): Checked<{ code: string }> {
  const read = readBounded(file, BUNDLE_LIMIT);
  if (!read.ok) return { ok: false, problem: `I cannot read the bundle ${file}: ${read.why}` };
  try {
    return { ok: true, code: strictUtf8.decode(read.bytes) };
  } catch {
    return { ok: false, problem: `the bundle ${file} is not UTF-8 text` };
  }
}

/**
 * The bundle's own `mainGrant` must be the manifest's grant: what the reviewer reads is what the bundle says it needs.
 */
export function compareGrants(body: readonly object[], grant: GrantItem[] | null): Checked<object> {
  const own = bundleGrant(body);
  if (!own.ok) return { ok: false, problem: `the bundle was refused: ${own.problem}` };
  // A bundle without main declares no grant; its manifest then grants nothing.
  const value = own.declared ? own.value : null;
  if (canonical(value) === canonical(grant)) return { ok: true };
  return {
    ok: false,
    problem:
      `the bundle's own grant differs from its manifest's: the manifest grants ${describe(grant)}, the bundle's ` +
      `mainGrant ${describe(value)}; the bundle or its manifest was changed after it was built`,
  };
}

function describe(grant: unknown): string {
  if (grant === null) return "nothing";
  if (!Array.isArray(grant) || !grant.every(isGrantItem)) return "is in a form the compiler never writes";
  return grant.map((item) => `\`${grantText(item)}\``).join(", ");
}

function isGrantItem(item: unknown): item is GrantItem {
  if (typeof item !== "object" || item === null) return false;
  const { path, scope, budget, guard } = item as Record<string, unknown>;
  const need = (n: unknown) =>
    typeof n === "object" &&
    n !== null &&
    Array.isArray((n as { path?: unknown }).path) &&
    (n as { path: unknown[] }).path.every((p) => typeof p === "string");
  return (
    need(item) &&
    Array.isArray(path) &&
    (scope === undefined || typeof scope === "string" || typeof scope === "number") &&
    (budget === undefined || (typeof budget === "object" && budget !== null)) &&
    (guard === undefined ||
      (typeof guard === "object" &&
        guard !== null &&
        Array.isArray((guard as { sinks?: unknown }).sinks) &&
        (guard as { sinks: unknown[] }).sinks.every(need)))
  );
}
