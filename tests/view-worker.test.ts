// The playground's worker (dist/view/worker.js) in Debian's chromium, under the worker's own
// Content-Security-Policy, driven through runInWorker (view/playground/run-in-worker.ts) as the
// page drives it: a program compiled and run in the browser prints; the runtime's limits stop it
// with their own codes; a program that needs network.http runs from a recording and prints what
// the recorded run printed, is refused without one, and fails as a replay does at a call the
// recording does not hold; hostile recordings are refused with a clear message.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import type { FromWorker, PlaygroundLimits, ToWorker } from "../view/api.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { outsideRequests, startView, withBrowser } from "./browser-support.js";
import { ROOT } from "./golden.js";

type Ended = Extract<FromWorker, { kind: "ended" }>;

interface Ran {
  readonly ended: Ended;
  /** The output messages, each a batch. */
  readonly batches: readonly string[];
}

const LIMITS: PlaygroundLimits = { fuel: 5_000_000, depth: 200, outputBytes: 1 << 20, timeMs: 10_000 };

/**
 * What the test gives the page (evaluated through the browser's devtools, which its policy does not govern): runInWorker
 * on a fresh worker of the page's own worker.js, as `window.run(message)`.
 */
async function testScript(): Promise<string> {
  const built = await build({
    stdin: {
      contents:
        'import { runInWorker } from "./view/playground/run-in-worker.ts";\n' +
        "window.run = async (message) => { const batches = [];\n" +
        '  const ended = await runInWorker(new Worker("worker.js"), message, (text) => batches.push(text));\n' +
        "  return { ended, batches }; };\n" +
        "window.runStopped = (message) => { const stop = new AbortController();\n" +
        '  const worker = new Worker("worker.js");\n' +
        "  const ended = runInWorker(worker, message, () => stop.abort(), stop.signal);\n" +
        "  return ended; };\n" +
        // A worker that never answers (a run stuck where no step is counted): the page terminates it past its grace.
        "window.runSilent = async (message) => { let terminated = false;\n" +
        "  const silent = { postMessage() {}, terminate() { terminated = true; } };\n" +
        "  const ended = await runInWorker(silent, message, () => {});\n" +
        "  return { ended, terminated }; };\n",
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "browser",
    format: "iife",
    write: false,
    logLevel: "silent",
  });
  return built.outputFiles[0]!.text;
}

function example(name: string): string {
  return readFileSync(join(ROOT, "examples", name), "utf8");
}

function run(page: Page, source: string, more: Partial<ToWorker> = {}): Promise<Ran> {
  const message: ToWorker = { kind: "run", file: "main.ry", source, limits: LIMITS, ...more };
  return page.evaluate((m) => (window as unknown as { run: (m: ToWorker) => Promise<Ran> }).run(m), message);
}

const output = (ran: Ran) => ran.batches.join("");

test("the playground's worker compiles and runs programs in chromium under the runtime's limits", async () => {
  const folder = mkdtempSync(join(tmpdir(), "renyi-view-worker-"));
  const viewing = await startView(folder, []);
  const script = await testScript();
  try {
    await withBrowser(async ({ newPage, requests, errors }) => {
      const page = await newPage();
      await page.goto(viewing.url);
      await page.evaluate(script);

      // hello prints, and the run finishes.
      const hello = await run(page, example("hello.ry"));
      assert.equal(output(hello), "Hello, world!\n");
      assert.equal(hello.ended.outcome, "finished");
      assert.equal(hello.ended.exit, 0);

      // console, time and random are live: the browser's clock, timer and generator.
      const live = await run(
        page,
        "function main()\n  needs console, time, random\n  let n be random.integer(1, 6)\n  let id be random.uuid()\n" +
          "  time.sleep(time.milliseconds(20))\n  let year be time.now().to_iso().slice(0, 2)\n" +
          '  console.print("{n >= 1 and n <= 6} {id.length()} {year}")\nend\n',
      );
      assert.equal(output(live), "true 36 20\n", JSON.stringify(live.ended));

      // A program with an error is refused with the first error's code and place.
      const broken = await run(page, "function main()\n  needs console\n  console.print(1 +)\nend\n");
      assert.equal(broken.ended.outcome, "refused");
      assert.match(broken.ended.code ?? "", /^E-/);
      assert.equal(broken.ended.line, 3);

      // The language names no global: a program that tries is refused by the checker, and nothing of it runs.
      for (const attempt of ["globalThis", 'eval("1")', 'Function("return this")()', "self.postMessage(1)"]) {
        const tried = await run(page, `function main()\n  needs console\n  console.print("{${attempt}}")\nend\n`);
        assert.equal(tried.ended.outcome, "refused", `${attempt}: ${JSON.stringify(tried.ended)}`);
        assert.match(tried.ended.code ?? "", /^E-/);
        assert.equal(output(tried), "");
      }

      // An endless loop stops at its fuel with E-RT-FUEL, at its line.
      const endless = await run(
        page,
        "function main()\n  needs console\n  var n be 0\n  while true\n    set n to n + 1\n  end\nend\n",
        { limits: { ...LIMITS, fuel: 200_000 } },
      );
      assert.equal(endless.ended.outcome, "crashed");
      assert.equal(endless.ended.code, "E-RT-FUEL");
      assert.match(endless.ended.message ?? "", /200,000/);

      // Deep recursion: E-RT-DEPTH at the depth limit.
      const deep = await run(
        page,
        'function down(n: Int) returns Int\n  return down(n + 1) + 1\nend\n\nfunction main()\n  needs console\n  console.print("{down(0)}")\nend\n',
        { limits: { ...LIMITS, depth: 50 } },
      );
      assert.equal(deep.ended.code, "E-RT-DEPTH");
      assert.equal(deep.ended.line, 1, "at the function entered too deep, as renyi run shows it");

      // Output past its bound: the runtime's one truncation line and the rest dropped, as `renyi run` does (the output
      // limit stops the output, not the run), and the endless printer stopped at the host-call limit; the output came
      // in a few batches, not a message a line.
      const printer = await run(
        page,
        'function main()\n  needs console\n  while true\n    console.print("a line of the endless printer")\n  end\nend\n',
        { limits: { ...LIMITS, fuel: 2_000_000, outputBytes: 10_000 } },
      );
      assert.equal(printer.ended.code, "E-RT-LIMIT-HOST-CALLS");
      assert.ok(output(printer).length < 11_000, `${output(printer).length} characters came through`);
      assert.match(output(printer), /\[output truncated: the program printed more than [\d,]+ lines or 10,000 bytes/);
      assert.ok(printer.batches.length < 20, `${printer.batches.length} output messages`);

      // Time: a loop under enough fuel stops at its time limit with E-RT-TIMEOUT.
      const slow = await run(
        page,
        "function main()\n  needs console\n  var n be 0\n  while true\n    set n to n + 1\n  end\nend\n",
        {
          limits: { ...LIMITS, fuel: 1_000_000_000_000, timeMs: 300 },
        },
      );
      assert.equal(slow.ended.code, "E-RT-TIMEOUT");

      // A run the page stops (through its signal, here at its first output) ends at once, its worker terminated.
      const stopped = await page.evaluate(
        (m) => (window as unknown as { runStopped: (m: ToWorker) => Promise<Ended> }).runStopped(m),
        {
          kind: "run",
          file: "main.ry",
          source:
            'function main()\n  needs console\n  console.print("on")\n  var n be 0\n  while true\n    set n to n + 1\n  end\nend\n',
          limits: { ...LIMITS, fuel: 1_000_000_000_000, timeMs: 60_000 },
        } satisfies ToWorker,
      );
      assert.equal(stopped.code, "E-RT-TIMEOUT");
      assert.match(stopped.message ?? "", /stopped/);

      // A worker stuck past its time limit and the grace is terminated, and the run ends with E-RT-TIMEOUT.
      const silent = await page.evaluate(
        (m) =>
          (
            window as unknown as { runSilent: (m: ToWorker) => Promise<{ ended: Ended; terminated: boolean }> }
          ).runSilent(m),
        { kind: "run", file: "main.ry", source: "", limits: { ...LIMITS, timeMs: 100 } } satisfies ToWorker,
      );
      assert.equal(silent.terminated, true);
      assert.equal(silent.ended.code, "E-RT-TIMEOUT");
      assert.match(silent.ended.message ?? "", /longer than its 100 ms and was stopped by force 1,000 ms later/);

      // A program that needs network.http runs from a recording, and prints what the recorded run printed.
      const recording = readFileSync(join(ROOT, "examples/fixtures/pagination/bsky_app.json"), "utf8");
      const replayed = await run(page, example("pagination.ry"), { file: "pagination.ry", recording });
      assert.equal(replayed.ended.outcome, "finished", JSON.stringify(replayed.ended));
      assert.match(output(replayed), /7 posts on 3 pages/);
      // What it printed is what the recorded run printed: the recording's hash of its output.
      for (const [program, fixture] of [
        ["pagination.ry", "pagination/bsky_app.json"],
        ["currency_tool.ry", "currency_tool/eur_to_usd.json"],
      ] as const) {
        const text = readFileSync(join(ROOT, "examples/fixtures", fixture), "utf8");
        const again = await run(page, example(program), { file: program, recording: text });
        const recorded = (JSON.parse(text) as { output: { stdout: string; bytes: number } }).output;
        assert.equal(again.ended.outcome, "finished", `${fixture}: ${JSON.stringify(again.ended)}`);
        assert.equal(`sha256:${createHash("sha256").update(output(again)).digest("hex")}`, recorded.stdout, fixture);
        assert.equal(Buffer.byteLength(output(again)), recorded.bytes, fixture);
      }

      // Without a recording it is refused, naming the capability and saying to choose a recording.
      const unrecorded = await run(page, example("pagination.ry"), { file: "pagination.ry" });
      assert.equal(unrecorded.ended.outcome, "refused");
      assert.match(unrecorded.ended.message ?? "", /network\.http/);
      assert.match(unrecorded.ended.message ?? "", /recording/);

      // A call the recording does not hold fails as a replay does, with the difference.
      const edited = example("pagination.ry").replace("limit={size}", "limit={size}&edited=1");
      const differs = await run(page, edited, { file: "pagination.ry", recording });
      assert.equal(differs.ended.outcome, "crashed");
      assert.equal(differs.ended.code, "E-RT-REPLAY-MISMATCH");
      assert.match(differs.ended.message ?? "", /edited=1/);

      // Hostile recordings: invalid JSON, prototype keys, deep nesting: refused with E-RT-RECORDING and what is wrong.
      for (const [hostile, why] of [
        ["{not json", /JSON|json/],
        [
          recording.replace('"program": "pagination",', '"__proto__": {"polluted": 1}, "program": "pagination",'),
          /__proto__/,
        ],
        [`${"[".repeat(5000)}${"]".repeat(5000)}`, /deep|nest/],
      ] as const) {
        const refused = await run(page, example("pagination.ry"), { file: "pagination.ry", recording: hostile });
        assert.equal(refused.ended.outcome, "refused", JSON.stringify(refused.ended));
        assert.equal(refused.ended.code, "E-RT-RECORDING");
        assert.match(refused.ended.message ?? "", why);
      }
      assert.equal(await page.evaluate(() => ({}) as Record<string, unknown>).then((o) => o["polluted"]), undefined);

      assert.deepEqual(outsideRequests(requests, viewing.url), []);
      // Every request but the browser's own for /favicon.ico (refused) was the page's, under its token.
      assert.ok(requests.filter((r) => !r.startsWith(viewing.url)).every((r) => r.endsWith("/favicon.ico")));
      assert.ok(requests.includes(`${viewing.url}worker.js`), "the page's own worker.js ran the programs");
      assert.deepEqual(
        errors.filter((e) => !/40[34]/.test(e)),
        [],
      );
    });
  } finally {
    await viewing.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});
