// A test file, compiled for `renyi test`: its own test blocks (not those of
// the modules it uses, which are run as files of their own) and its program
// compiled as `renyi run` compiles one, through the same compile cache.

import type { Diagnostic } from "../../compiler/diagnostics.js";
import type { SourceFile } from "../../compiler/source.js";
import type { CapabilityRef, TestDef } from "../../compiler/parse/tree.js";
import type { Need } from "../../vocabulary/needs.js";
import type { CallRange } from "./replays.js";
import { testName } from "../../compiler/lower/names.js";
import { compileIntoCache } from "../cache/compile-into-cache.js";
import { sealedOrCompiled } from "../cache/sealed-or-compiled.js";
import { programCode } from "../host/code-hash.js";
import { loadProgram } from "../host/program.js";
import { loadSource } from "../host/files.js";
import { mayHoldTests } from "./files.js";

/** One test block of a file, as written. */
export interface FoundTest {
  readonly name: string;
  /** `file.ry:line:column` of its `test`. */
  readonly site: string;
  /** The recording it replays, resolved against the test's own file; undefined when it replays none. */
  readonly replays?: string;
  /** `calls N to M`: the part of its recording that is the test's. */
  readonly calls?: CallRange;
  /** `unused console, ...`: the capabilities whose recorded calls it may leave unused (--strict). */
  readonly unused?: readonly Need[];
  /** The name of its function in the compiled program. */
  readonly functionName: string;
}

export type CompiledTestFile =
  | { kind: "none" }
  | { kind: "refused"; diagnostics: Diagnostic[]; sources: ReadonlyMap<string, SourceFile> }
  | {
      kind: "compiled";
      bundle: string;
      source: string;
      tests: FoundTest[];
      warnings: Diagnostic[];
      sources: ReadonlyMap<string, SourceFile>;
      program: string;
      code: () => string;
    };

/** A capability of a test's `unused` as the checker accepted it: its path, and its scope if it has one. */
function needOf(ref: CapabilityRef): Need {
  return { path: ref.path.map((p) => p.name), ...(ref.scope === undefined ? {} : { scope: ref.scope.value }) };
}

/** Compiles `file` when it holds tests; a file without a line that begins with `test` is not one (kind "none"). */
/** `narrate`: compile the narrated variant (`renyi test --explain`), cached apart. */
export async function compileTestFile(
  file: string,
  resolveRecording: (testFile: string, path: string) => string,
  narrate = false,
): Promise<CompiledTestFile> {
  const first = loadSource(file);
  if (first.ok && !mayHoldTests(first.source.text)) return { kind: "none" };
  const program = loadProgram(file);
  if (program.problems.length > 0) return { kind: "refused", diagnostics: program.problems, sources: program.sources };
  const entry = program.modules.find((m) => m.name === program.entry);
  const blocks = (entry?.syntax.items ?? []).filter((item): item is TestDef => item.kind === "TestDef");
  const source = program.sources.get(file);
  const tests = blocks.map((block, index): FoundTest => {
    const at = source?.position(block.span.start) ?? { line: 1, column: 1 };
    return {
      name: block.name.value,
      site: `${file}:${at.line}:${at.column}`,
      ...(block.replays === undefined ? {} : { replays: resolveRecording(file, block.replays.value) }),
      ...(block.calls === undefined ? {} : { calls: { first: block.calls.first.value, last: block.calls.last.value } }),
      ...(block.unused === undefined ? {} : { unused: block.unused.items.map(needOf) }),
      functionName: testName(program.entry, index),
    };
  });
  const syntaxProblems = program.modules.flatMap((m) => m.syntaxDiagnostics).filter((d) => d.severity === "error");
  if (tests.length === 0 && syntaxProblems.length === 0) return { kind: "none" };
  const made = await sealedOrCompiled(program, { narrate, compile: compileIntoCache });
  if (!made.ok) return { kind: "refused", diagnostics: made.diagnostics, sources: program.sources };
  return {
    kind: "compiled",
    bundle: made.path,
    source: made.source,
    tests,
    warnings: made.warnings,
    sources: program.sources,
    program: program.entry,
    code: () => programCode(program),
  };
}
