// `renyi test [PATHS] [--json] [--filter TEXT] [--fuel N] [--max-depth N]
// [--timeout SECONDS] [--max-collection N] [--max-text N] [--max-host-calls N]`
// (spec/testing.md): finds the test blocks of .ry files,
// runs each in a thread of its own under its own needs and limits, a few at a
// time, and reports each as it ends, then a summary line.

import { onCtrlC } from "../running/interrupts.js";
import { availableParallelism } from "node:os";
import { renderText, toJson, type Diagnostic } from "../../compiler/diagnostics.js";
import type { SourceFile } from "../../compiler/source.js";
import { TEST_EXIT } from "../../vocabulary/outcomes.js";
import { Refusal } from "./failure.js";
import { crashSite } from "../../report/outcome-text.js";
import { readProgramMap } from "../cache/cached-program.js";
import { compileTestFile, type FoundTest } from "../testing/compile.js";
import { findTestFiles } from "../testing/files.js";
import { planReplay, recordingPath, strictResult, writeRefreshed } from "../testing/replays.js";
import { countResults, fileLine, jsonReport, resultText, summaryLine } from "../testing/report.js";
import { resultOf, startTest, type RunningTest, type TestLimits, type TestResult } from "../testing/run-test.js";
import type { TraceSpan } from "../tracing/gatherer.cjs";
// Tracing's module loads only under --trace.
import type { TestTrace } from "../tracing/test-trace.js";

export interface TestOptions extends TestLimits {
  readonly json: boolean;
  /** Only the tests whose names hold this text (any case). */
  readonly filter?: string;
  /** Fail a replays test that leaves entries of its recording unused. */
  readonly strict?: boolean;
  /** Narrate each test's run, shown under its line (and as `narration` in --json). */
  readonly explain?: boolean;
  /** The name of the replays test whose recording is made again from a live run of its body. */
  readonly refresh?: string;
  /** Write the tests' runs as OpenTelemetry spans to this file (spec/tracing.md). */
  readonly trace?: string;
}

/** One test to run in a thread of its own. */
type Entry = {
  file: string;
  test: FoundTest;
  bundle: string;
  source: string;
  sources: ReadonlyMap<string, SourceFile>;
  program: string;
  code: () => string;
};

export async function runTests(paths: readonly string[], options: TestOptions): Promise<number> {
  const began = performance.now();
  const trace = options.trace === undefined ? undefined : await testTrace(options.trace);
  const found = findTestFiles(paths.length === 0 ? ["."] : paths);
  if (!found.ok) throw new Refusal(found.problem);
  const entries: Entry[] = [];
  const refused: { file: string; diagnostics: Diagnostic[]; sources: ReadonlyMap<string, SourceFile> }[] = [];
  for (const file of found.files) {
    // A traced test hears of its definitions' calls through the narration's hook (rtlib/narration.ts).
    const compiled = await compileTestFile(file, recordingPath, options.explain === true || trace !== undefined);
    if (compiled.kind === "none") continue;
    if (compiled.kind === "refused") {
      refused.push({ file, diagnostics: compiled.diagnostics, sources: compiled.sources });
      if (!options.json) process.stderr.write(renderText(compiled.diagnostics, compiled.sources));
      continue;
    }
    if (compiled.warnings.length > 0 && !options.json)
      process.stderr.write(renderText(compiled.warnings, compiled.sources));
    const wanted =
      options.filter === undefined
        ? compiled.tests
        : compiled.tests.filter((t) => t.name.toLowerCase().includes(options.filter!.toLowerCase()));
    for (const test of wanted)
      entries.push({
        file,
        test,
        bundle: compiled.bundle,
        source: compiled.source,
        sources: compiled.sources,
        program: compiled.program,
        code: compiled.code,
      });
  }
  if (
    options.refresh !== undefined &&
    refused.length === 0 &&
    !entries.some((e) => e.test.name === options.refresh && e.test.replays !== undefined)
  ) {
    throw new Refusal(
      `--refresh: no replays test is named "${options.refresh}"${entries.some((e) => e.test.name === options.refresh) ? " (a test of that name replays no recording)" : ""}`,
    );
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
  const ctrlC = onCtrlC(
    () => {
      interrupted = true;
      for (const r of running) r.interrupt();
    },
    () => {
      for (const r of running) r.halt();
    },
  );
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < entries.length) {
      const index = next++;
      const entry = entries[index]!;
      results[index] = interrupted
        ? { file: entry.file, name: entry.test.name, status: "cancelled", ms: 0, message: "not run: interrupted" }
        : await runOne(entry, options, running, trace);
      show();
    }
  };
  const lanes = Math.max(1, Math.min(4, availableParallelism(), entries.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  ctrlC.off();

  const all = results as TestResult[];
  const counts = countResults(all);
  const code =
    refused.length > 0
      ? TEST_EXIT.refused
      : counts.cancelled > 0
        ? TEST_EXIT.cancelled
        : counts.failed + counts.crashed > 0
          ? TEST_EXIT.failed
          : counts.refreshed > 0
            ? TEST_EXIT.refreshed
            : TEST_EXIT.passed;
  const ms = performance.now() - began;
  trace?.finish(code);
  if (options.json) {
    process.stdout.write(
      jsonReport(
        all,
        refused.map((r) => ({ file: r.file, diagnostics: toJson(r.diagnostics, r.sources).diagnostics })),
        ms,
        code,
      ),
    );
  } else {
    if (entries.length === 0 && refused.length === 0)
      process.stdout.write(
        `no tests found${options.filter === undefined ? "" : ` whose name holds "${options.filter}"`}\n`,
      );
    process.stdout.write(summaryLine(counts, ms, refused.length));
  }
  return code;
}

/** The trace --trace writes, refused before any test runs when its file cannot be written. */
async function testTrace(file: string): Promise<TestTrace> {
  const { TestTrace, traceRefusal } = await import("../tracing/test-trace.js");
  const problem = traceRefusal({ trace: file, log: false });
  if (problem !== undefined) throw new Refusal(problem);
  return new TestTrace(file);
}

async function runOne(
  entry: Entry,
  options: TestOptions,
  running: Set<RunningTest>,
  trace: TestTrace | undefined,
): Promise<TestResult> {
  const begun = trace?.begin();
  const gathered: { spans?: readonly TraceSpan[] } = {};
  const result = await runTraced(entry, options, running, begun?.spanId, gathered);
  trace?.add(
    begun!,
    { file: entry.file, name: entry.test.name, status: result.status, code: result.code },
    gathered.spans ?? [],
  );
  return result;
}

async function runTraced(
  entry: Entry,
  options: TestOptions,
  running: Set<RunningTest>,
  spanId: string | undefined,
  gathered: { spans?: readonly TraceSpan[] },
): Promise<TestResult> {
  const { file, test } = entry;
  const refresh = test.replays !== undefined && test.name === options.refresh;
  // A refresh reads the whole recording (its redacted names are kept), whatever part of it the test names.
  const plan =
    test.replays === undefined ? undefined : planReplay(file, test.replays, refresh ? undefined : test.calls);
  const recording = test.replays === undefined ? {} : { recording: test.replays };
  // A recording that cannot be read fails its test, unless the test is refreshed: then it is written anew.
  // One outside the test's folder is neither read nor written.
  if (plan !== undefined && !plan.ok && (!refresh || plan.code === "E-CAP-REPLAYS-PATH"))
    return {
      file,
      name: test.name,
      status: "failed",
      ms: 0,
      site: test.site,
      code: plan.code,
      message: plan.message,
      ...recording,
    };
  const replay = plan?.ok && !refresh ? { replay: plan.replay } : {};
  const started = startTest(
    {
      file,
      name: test.name,
      bundle: entry.bundle,
      source: entry.source,
      functionName: test.functionName,
      ...replay,
      ...(refresh ? { record: true } : {}),
      ...(options.explain === true ? { explain: true } : {}),
      ...(spanId !== undefined ? { trace: { runSpanId: spanId } } : {}),
    },
    options,
  );
  running.add(started);
  const end = await started.result;
  gathered.spans = end.spans;
  running.delete(started);
  const located = { path: entry.bundle, map: () => readProgramMap(entry.bundle), sources: () => entry.sources };
  const result = {
    ...resultOf({ file, name: test.name, site: test.site }, end.outcome, end.ms, end.output, (o) =>
      o.outcome === "crashed" ? crashSite(o, located) : undefined,
    ),
    ...recording,
    ...(end.narration !== undefined ? { narration: end.narration } : {}),
  };
  if (refresh) {
    // Only a body that ended is recorded: a recording of a failed live run would make a fixture of the failure.
    if (result.status !== "passed")
      return { ...result, note: "the recording was not written: the live run of the test did not pass" };
    const problem = writeRefreshed(test.replays!, {
      file,
      program: entry.program,
      code: entry.code(),
      grant: end.grant ?? [],
      outcome: end.outcome.outcome,
      calls: end.recorded,
      ...(plan?.ok ? { previous: plan.recording } : {}),
    });
    if (problem !== undefined) return { ...result, status: "crashed", code: problem.code, message: problem.message };
    return {
      ...result,
      status: "refreshed",
      message: `recorded ${end.recorded.length.toLocaleString("en")} call${end.recorded.length === 1 ? "" : "s"} to ${test.replays}`,
      ...(test.calls === undefined
        ? {}
        : {
            note:
              `the test names calls ${test.calls.first} to ${test.calls.last} of its recording, which now holds ` +
              "only the test's own calls, numbered from 1: check the range",
          }),
    };
  }
  return options.strict === true && plan?.ok
    ? strictResult(result, plan.recording, end.unreached, test.unused, test.site)
    : result;
}
