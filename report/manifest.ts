// The grant manifest, read as hostile input (spec/security.md, "Bundles and
// their manifests"). The run's grant comes from here, the file a reviewer
// reads, and not from the bundle: every field is checked for its shape, every
// `needs` entry against the capability tree as the checker checks a `needs`
// line, and the `grant` lines must be exactly the texts of the `needs`.

import { capabilityInfo } from "../vocabulary/capabilities.js";
import type { Manifest, ManifestNeed } from "../vocabulary/manifest.js";
import {
  BUDGET_UNITS,
  grantText,
  isBudgetUnit,
  needText,
  type BudgetUnit,
  type GrantItem,
  type Need,
} from "../vocabulary/needs.js";
import { readStrictJson, type Json } from "./strict-json.js";
import { fieldsOf, list, refuse, ShapeRefused, text } from "./json-shape.js";

/** A manifest is a few kilobytes; a megabyte is room for thousands of modules. */
export const MANIFEST_LIMIT = 1 << 20;

export type ReadManifest = { ok: true; manifest: Manifest; grant: GrantItem[] | null } | { ok: false; problem: string };

const HASH = /^sha256:[0-9a-f]{64}$/;
const MAX_ENTRIES = 10_000;

/** Reads a manifest's bytes: the manifest and the run's grant, or why it is refused. */
export function readManifest(bytes: Uint8Array): ReadManifest {
  const json = readStrictJson(bytes);
  if (!json.ok) return { ok: false, problem: `the grant manifest is not valid JSON: ${json.problem}` };
  try {
    const manifest = manifestOf(json.value);
    const items = manifest.needs.map((need, i) => grantItemOf(need, `needs[${i}]`));
    const texts = items.map(grantText);
    if (texts.length !== manifest.grant.length || texts.some((t, i) => t !== manifest.grant[i])) {
      refuse(
        `its \`grant\` lines do not say what its \`needs\` grant: the needs read ${listed(texts)}, the grant ` +
          `lines ${listed(manifest.grant)}`,
      );
    }
    // A main without needs takes no grant: the compiler writes `mainGrant = null`.
    return { ok: true, manifest, grant: items.length === 0 ? null : items };
  } catch (e) {
    if (e instanceof ShapeRefused) return { ok: false, problem: `the grant manifest is refused: ${e.message}` };
    throw e;
  }
}

function listed(texts: readonly string[]): string {
  return texts.length === 0 ? "nothing" : texts.map((t) => `\`${t}\``).join(", ");
}

// ---- the shape ----

const fields = fieldsOf("a manifest");

function manifestOf(value: Json): Manifest {
  const at = fields(
    value,
    "the manifest",
    ["program", "toolchain", "entry", "source", "sources", "code", "bundle", "map", "grant", "needs"],
    ["built_at"],
  );
  if (at["entry"] !== "main") refuse('`entry` must be "main"');
  const manifest: Manifest = {
    program: text(at["program"], "`program`"),
    toolchain: text(at["toolchain"], "`toolchain`"),
    entry: "main",
    source: text(at["source"], "`source`"),
    sources: list(at["sources"], "`sources`", MAX_ENTRIES).map((s, i) => {
      const where = `sources[${i}]`;
      const source = fields(s, where, ["module", "file", "hash"]);
      return {
        module: text(source["module"], `${where}.module`),
        file: text(source["file"], `${where}.file`),
        hash: text(source["hash"], `${where}.hash`, HASH),
      };
    }),
    code: text(at["code"], "`code`", HASH),
    bundle: text(at["bundle"], "`bundle`", HASH),
    map: text(at["map"], "`map`", HASH),
    grant: list(at["grant"], "`grant`", MAX_ENTRIES).map((g, i) => text(g, `grant[${i}]`)),
    needs: list(at["needs"], "`needs`", MAX_ENTRIES).map((n, i) => needOf(n, `needs[${i}]`)),
  };
  if ("built_at" in at)
    manifest.built_at = text(at["built_at"], "`built_at`", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/);
  return manifest;
}

function needOf(value: Json, where: string): ManifestNeed {
  const at = fields(value, where, ["capability"], ["scope", "budget", "guard"]);
  const need: ManifestNeed = { capability: text(at["capability"], `${where}.capability`) };
  if ("scope" in at) {
    const scope = at["scope"];
    if (typeof scope !== "string" && typeof scope !== "number") refuse(`${where}.scope must be a text or a number`);
    need.scope = scope;
  }
  if ("budget" in at) {
    const budget = fields(at["budget"], `${where}.budget`, ["count", "unit"]);
    const count = budget["count"];
    if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 1)
      refuse(`${where}.budget.count must be a whole number above 0`);
    const unit = budget["unit"];
    if (typeof unit !== "string" || !isBudgetUnit(unit))
      refuse(`${where}.budget.unit must be one of ${BUDGET_UNITS.join(", ")}`);
    need.budget = { count, unit };
  }
  if ("guard" in at) {
    const guard = fields(at["guard"], `${where}.guard`, ["sinks"]);
    need.guard = {
      sinks: list(guard["sinks"], `${where}.guard.sinks`, MAX_ENTRIES).map((s, i) =>
        text(s, `${where}.guard.sinks[${i}]`),
      ),
    };
  }
  return need;
}

// ---- the meaning: the checker's rules for a `needs` line of main ----

function capability(path: readonly string[], scope: string | number | undefined, where: string): Need {
  const info = capabilityInfo(path);
  if (info === undefined) refuse(`${where}: \`${path.join(".")}\` is not a capability`);
  if (scope === undefined) return { path };
  const fits =
    info.scope === "none"
      ? false
      : info.scope === "port"
        ? typeof scope === "number" && Number.isSafeInteger(scope) && scope >= 0
        : typeof scope === "string" && scope !== "";
  if (!fits)
    refuse(
      `${where}: ${JSON.stringify(scope)} is not a scope of ` +
        `\`${path.join(".")}\`${info.scope === "none" ? ", which takes none" : ` (a ${info.scope === "port" ? "port number" : `${info.scope} in a text`})`}`,
    );
  return { path, scope };
}

function grantItemOf(need: ManifestNeed, where: string): GrantItem {
  if (!/^[a-z]+(?:\.[a-z]+)*$/.test(need.capability))
    refuse(`${where}.capability ${JSON.stringify(need.capability)} is not a capability's name`);
  const item: { path: string[]; scope?: string | number; budget?: GrantItem["budget"]; guard?: GrantItem["guard"] } = {
    ...capability(need.capability.split("."), need.scope, where),
  } as { path: string[] };
  if (need.budget !== undefined) {
    if (!capabilityInfo(item.path)!.budgets) refuse(`${where}: \`${need.capability}\` takes no budget`);
    item.budget = { count: need.budget.count, unit: need.budget.unit as BudgetUnit };
  }
  if (need.guard !== undefined)
    item.guard = { sinks: need.guard.sinks.map((s, i) => sinkOf(s, `${where}.guard.sinks[${i}]`)) };
  return item;
}

/** A guard's sink as the manifest writes it: `network.http("api.example.com")`, read back exactly. */
function sinkOf(sink: string, where: string): Need {
  const m = /^([a-z]+(?:\.[a-z]+)*)(?:\((.*)\))?$/s.exec(sink);
  if (m === null) refuse(`${where}: ${JSON.stringify(sink)} is not a capability`);
  let scope: Json | undefined;
  if (m[2] !== undefined) {
    const read = readStrictJson(Buffer.from(m[2], "utf8"));
    if (!read.ok || (typeof read.value !== "string" && typeof read.value !== "number"))
      refuse(`${where}: ${JSON.stringify(sink)} has a scope that is not a text or a number`);
    scope = read.value;
  }
  const need = capability(m[1]!.split("."), scope as string | number | undefined, where);
  if (needText(need) !== sink)
    refuse(`${where}: ${JSON.stringify(sink)} is not written as the compiler writes it (${needText(need)})`);
  return need;
}

// ---- texts and canonical forms ----

/**
 * One text for a value, whatever the order of its objects' keys: two grants
 * are the same grant when their canonical forms are equal.
 */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}
