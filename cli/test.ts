// `renyi test [PATHS] [--json] [--filter TEXT] [--fuel N] [--max-depth N]
// [--timeout SECONDS]` (spec/testing.md): finds the test blocks of .ry files,
// runs each in a thread of its own under its own needs and limits, a few at a
// time, and reports each as it ends, then a summary line.

import { availableParallelism } from "node:os";
import { renderText, toJson, type Diagnostic } from "../compiler/diagnostics.js";
import type { SourceFile } from "../compiler/source.js";
import { TEST_EXIT } from "../vocabulary/outcomes.js";
import { Refusal } from "./failure.js";
import { crashSite } from "./outcome-text.js";
import { readMap } from "./run.js";
import { compileTestFile, type FoundTest } from "./test-compile.js";
import { findTestFiles } from "./test-files.js";
import { planReplay, recordingPath } from "./test-replays.js";
import { countResults, fileLine, jsonReport, resultText, summaryLine } from "./test-report.js";
import { resultOf, startTest, type RunningTest, type TestLimits, type TestResult } from "./test-run.js";

export interface TestOptions extends TestLimits {
  readonly json: boolean;
  /** Only the tests whose names hold this text (any case). */
  readonly filter?: string;
}

/** One test to report: run in a thread, or settled before it starts (skipped). */
type Entry = { file: string; test: FoundTest; bundle: string; sources: ReadonlyMap<string, SourceFile> };

export async function runTests(paths: readonly string[], options: TestOptions): Promise<number> {
  const began = performance.now();
  const found = findTestFiles(paths.length === 0 ? ["."] : paths);
  if (!found.ok) throw new Refusal(found.problem);
  const entries: Entry[] = [];
  const refused: { file: string; diagnostics: Diagnostic[]; sources: ReadonlyMap<string, SourceFile> }[] = [];
  for (const file of found.files) {
    const compiled = await compileTestFile(file, recordingPath);
    if (compiled.kind === "none") continue;
    if (compiled.kind === "refused") {
      refused.push({ file, diagnostics: compiled.diagnostics, sources: compiled.sources });
      if (!options.json) process.stderr.write(renderText(compiled.diagnostics, compiled.sources));
      continue;
    }
    if (compiled.warnings.length > 0 && !options.json) process.stderr.write(renderText(compiled.warnings, compiled.sources));
    const wanted = options.filter === undefined ? compiled.tests : compiled.tests.filter((t) => t.name.toLowerCase().includes(options.filter!.toLowerCase()));
    for (const test of wanted) entries.push({ file, test, bundle: compiled.bundle, sources: compiled.sources });
  }

  const results: (TestResult | undefined)[] = entries.map(() => undefined);
  let printed = 0;
  let lastFile: string | undefined;
  // Results are shown in the order the tests are written, each as soon as those before it are.
  const show = () => {
    while (printed < results.length && results[printed] !== undefined) {
      const r = results[printed]!;
      if (!options.json) {
        if (r.file !== lastFile) process.stdout.write(fileLine(r.file));
        lastFile = r.file;
        process.stdout.write(resultText(r));
      }
      printed++;
    }
  };

  let interrupted = false;
  const running = new Set<RunningTest>();
  const onInterrupt = () => {
    interrupted = true;
    for (const r of running) r.interrupt();
  };
  process.on("SIGINT", onInterrupt);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < entries.length) {
      const index = next++;
      const entry = entries[index]!;
      results[index] = interrupted ? { file: entry.file, name: entry.test.name, status: "cancelled", ms: 0, message: "not run: interrupted" } : await runOne(entry, options, running);
      show();
    }
  };
  const lanes = Math.max(1, Math.min(4, availableParallelism(), entries.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  process.off("SIGINT", onInterrupt);

  const all = results as TestResult[];
  const counts = countResults(all);
  const code =
    refused.length > 0 ? TEST_EXIT.refused
    : counts.cancelled > 0 ? TEST_EXIT.cancelled
    : counts.failed + counts.crashed > 0 ? TEST_EXIT.failed
    : TEST_EXIT.passed;
  const ms = performance.now() - began;
  if (options.json) {
    process.stdout.write(jsonReport(all, refused.map((r) => ({ file: r.file, diagnostics: toJson(r.diagnostics, r.sources).diagnostics })), ms, code));
  } else {
    if (entries.length === 0 && refused.length === 0) process.stdout.write(`no tests found${options.filter === undefined ? "" : ` whose name holds "${options.filter}"`}\n`);
    process.stdout.write(summaryLine(counts, ms, refused.length));
  }
  return code;
}

async function runOne(entry: Entry, limits: TestLimits, running: Set<RunningTest>): Promise<TestResult> {
  const { file, test } = entry;
  if (test.replays !== undefined) {
    const plan = planReplay(test.replays);
    return { file, name: test.name, status: "skipped", ms: 0, site: test.site, reason: plan.skip, recording: test.replays };
  }
  const started = startTest({ file, name: test.name, bundle: entry.bundle, functionName: test.functionName }, limits);
  running.add(started);
  const { outcome, ms, output } = await started.result;
  running.delete(started);
  const located = { path: entry.bundle, map: () => readMap(entry.bundle), sources: () => entry.sources };
  return resultOf({ file, name: test.name, site: test.site }, outcome, ms, output, (o) => (o.outcome === "crashed" ? crashSite(o, located) : undefined), limits.timeoutSeconds);
}
