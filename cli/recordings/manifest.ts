// The run manifest (spec/recording.md, "The manifest"): the header of a
// recording, and what `renyi run --manifest` prints. Built here and nowhere
// else, from what the run was and what it did.

import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sha256 } from "../../report/sha256.js";
import { VERSION } from "../host/version.cjs";
import type { OutcomeKind } from "../../vocabulary/outcomes.js";
import { readGrantText } from "../../vocabulary/grant-text.js";
import { MANIFEST_FIELDS, REDACTED, SEALED, type RecordedCall, type RunManifest } from "../../vocabulary/recording.js";

export const TOOLCHAIN = `renyi ${VERSION}`;

export interface ManifestInputs {
  readonly program: string;
  /** The program's file, as the command line named it. */
  readonly source: string;
  readonly code: string;
  /** The program's own words, already redacted. */
  readonly argv: readonly string[];
  /** main's grant, as its needs line writes each item. */
  readonly grant: readonly string[];
  readonly outcome: OutcomeKind;
  readonly output?: { readonly stdout: string; readonly bytes: number };
  /** The run's calls, already redacted: the environment variables it read are found among them. */
  readonly calls: readonly RecordedCall[];
  /**
   * The calls (by sequence) a sealed recording seals, with what of each was guarded: a variable read through a guard is
   * `sealed`, and one whose very name was guarded is left out.
   */
  readonly sealed?: ReadonlyMap<number, "arguments" | "result">;
  readonly recordedAt?: Date;
  /** The names the recording is redacted under (--redact), in lower case. */
  readonly redacted?: readonly string[];
}

export function runManifest(inputs: ManifestInputs): RunManifest {
  const environment: { [name: string]: string | null } = {};
  for (const call of inputs.calls) {
    const name = call.arguments["name"];
    if (call.primitive !== "std.environment.get" || typeof name !== "string" || !("success" in call.outcome)) continue;
    const value = call.outcome.success;
    const sealed = inputs.sealed?.get(call.sequence);
    if (sealed === "arguments") continue;
    environment[name] =
      sealed !== undefined ? SEALED : value === null ? null : value === REDACTED ? REDACTED : sha256(String(value));
  }
  const revision = gitRevision(dirname(resolve(inputs.source)));
  const extensions = extensionsOf(inputs.grant);
  const manifest: RunManifest = {
    program: inputs.program,
    ...(revision !== undefined ? { revision } : {}),
    toolchain: TOOLCHAIN,
    ...(extensions.length > 0 ? { extensions } : {}),
    source: inputs.source,
    code: inputs.code,
    ...(inputs.argv.length > 0 ? { arguments: [...inputs.argv] } : {}),
    ...(Object.keys(environment).length > 0 ? { environment } : {}),
    ...(inputs.redacted !== undefined && inputs.redacted.length > 0 ? { redacted: [...inputs.redacted] } : {}),
    recorded_at: (inputs.recordedAt ?? new Date()).toISOString().replace(/\.\d+Z$/, "Z"),
    grant: [...inputs.grant],
    outcome: inputs.outcome,
    ...(inputs.output !== undefined ? { output: { stdout: inputs.output.stdout, bytes: inputs.output.bytes } } : {}),
  };
  // The fields in the order the format lists them.
  const ordered: Record<string, unknown> = {};
  for (const field of MANIFEST_FIELDS) if (field in manifest) ordered[field] = manifest[field];
  return ordered as unknown as RunManifest;
}

/**
 * What runs beyond the standard library: each foreign module main's grant
 * names, with the hash of the file as it is now (`foreign("rates.mjs")
 * sha256:…`, or `missing`), so that a reproduction can tell whether it changed.
 */
export function extensionsOf(grant: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of grant) {
    const item = readGrantText(text);
    if (typeof item === "string" || item.path[0] !== "foreign" || typeof item.scope !== "string") continue;
    let hash = "missing";
    try {
      hash = sha256(readFileSync(resolve(item.scope)));
    } catch {
      // The module is not there: the extension says so.
    }
    out.push(`foreign(${JSON.stringify(item.scope)}) ${hash}`);
  }
  return out;
}

/** The commit checked out in the git repository around `folder`, shortened as git does; undefined outside one. */
function gitRevision(folder: string): string | undefined {
  try {
    for (let dir = folder; ; dir = dirname(dir)) {
      const dotGit = join(dir, ".git");
      if (existsSync(dotGit))
        return headOf(
          statSync(dotGit).isDirectory()
            ? dotGit
            : resolve(dir, /^gitdir: (.*)$/m.exec(readFileSync(dotGit, "utf8"))![1]!.trim()),
        );
      if (dirname(dir) === dir) return undefined;
    }
  } catch {
    return undefined;
  }
}

function headOf(gitDir: string): string | undefined {
  const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
  const ref = /^ref: (.*)$/.exec(head)?.[1];
  if (ref === undefined) return /^[0-9a-f]{40}$/.test(head) ? head.slice(0, 7) : undefined;
  // A worktree keeps its refs in the repository's common folder.
  const common = existsSync(join(gitDir, "commondir"))
    ? resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim())
    : gitDir;
  for (const base of [gitDir, common]) {
    const file = join(base, ref);
    if (existsSync(file)) return readFileSync(file, "utf8").trim().slice(0, 7);
    const packed = join(base, "packed-refs");
    if (existsSync(packed)) {
      const line = readFileSync(packed, "utf8")
        .split("\n")
        .find((l) => l.endsWith(` ${ref}`));
      if (line !== undefined) return line.slice(0, 7);
    }
  }
  return undefined;
}
