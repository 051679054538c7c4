// The narration of a run in the page of `renyi view` (spec/view.md, sections 5 and 8): the
// recording view replays the recording's program narrated in the playground's worker, and its
// lines are the lines `renyi run --explain --replay REC PROGRAM` prints on stderr; a recording
// whose program is not found says so; markup a program narrates stays text. The playground's
// Narrate checkbox narrates a run in a panel of its own. One browser for the file.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "./golden.js";
import { outsideRequests, startView, withBrowser, type Viewing } from "./browser-support.js";

const RENYI = join(ROOT, "dist", "cli", "renyi.cjs");
const MARKUP = "<script>window.pwned=1</script><img src=x onerror=window.pwned=1>";

/** What `renyi run --explain --replay` prints on stderr for the pair, run in `cwd`. */
function narratedByCli(cwd: string, recording: string, program: string): string {
  const run = spawnSync(process.execPath, [RENYI, "run", "--explain", "--replay", recording, program], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(mkdtempSync(join(tmpdir(), "renyi-narration-")), "cache") },
  });
  assert.equal(run.status, 0, `renyi run --explain --replay ${recording}: ${run.stderr}`);
  return run.stderr;
}

/** A folder with a program that narrates markup, its recording, and a recording whose program is nowhere. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "renyi-view-narration-"));
  writeFileSync(
    join(dir, "shout.ry"),
    `public function loud(text: Text) returns Text\n  purpose: Make ${MARKUP} loud.\n  return "{text}!"\nend\n\n` +
      `public function main()\n  purpose: Print markup.\n  needs console\n  console.print(loud(text: "${MARKUP.replaceAll('"', "'")}"))\nend\n`,
  );
  const recorded = spawnSync(process.execPath, [RENYI, "record", "--to", "shout.json", "shout.ry"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, RENYI_CACHE_DIR: join(dir, ".renyi-cache") },
  });
  assert.equal(recorded.status, 0, `renyi record shout.ry: ${recorded.stderr}`);
  mkdirSync(join(dir, "lost"));
  const berlin = JSON.parse(readFileSync(join(ROOT, "examples/fixtures/weather/berlin.json"), "utf8")) as Record<
    string,
    unknown
  >;
  writeFileSync(join(dir, "lost", "orphan.json"), JSON.stringify({ ...berlin, program: "nowhere" }));
  return dir;
}

async function ready(page: Page, url: string): Promise<void> {
  await page.evaluate(() => {
    if (document.body !== null) document.body.dataset.ready = "false";
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20_000 });
}

/** Clicks "Narrate this run" and gives back the narration's text and the run's outcome. */
async function narrated(page: Page): Promise<{ text: string; outcome: string; code: string | undefined; ms: number }> {
  await page.waitForSelector("button.narrate", { timeout: 10_000 });
  const started = performance.now();
  await page.click("button.narrate");
  await page.waitForSelector(".narration-outcome:not([data-outcome=running])", { timeout: 20_000 });
  const ms = performance.now() - started;
  return await page.evaluate((ms) => {
    const outcome = document.querySelector<HTMLElement>(".narration-outcome")!;
    return {
      text: document.querySelector(".narration-text")!.textContent ?? "",
      outcome: outcome.dataset["outcome"] ?? "",
      code: outcome.dataset["code"],
      ms,
    };
  }, ms);
}

test("the narration's views put their text in as text", () => {
  for (const source of ["views/narration.ts", "playground/page.ts", "playground/run-in-worker.ts"]) {
    const text = readFileSync(join(ROOT, "view", source), "utf8");
    assert.doesNotMatch(text, /\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write/, source);
  }
});

test("a recording narrated in the page reads as renyi run --explain --replay", { timeout: 120_000 }, async (t) => {
  const dir = folder();
  const views: Viewing[] = [];
  try {
    await withBrowser(async ({ newPage, requests, errors }) => {
      const page = await newPage();
      const view = await startView(ROOT, ["examples", dir]);
      views.push(view);
      const recordingUrl = (id: string) => `${view.url}#/recording/${encodeURIComponent(id)}`;

      await t.test("weather.ry replayed from its fixture: the same lines as the command line's", async () => {
        const expected = narratedByCli(ROOT, "examples/fixtures/weather/berlin.json", "examples/weather.ry");
        await ready(page, recordingUrl("0/fixtures/weather/berlin.json"));
        const program = await page.getAttribute(".narration-part", "data-program");
        assert.equal(program, "0/weather.ry");
        const shown = await narrated(page);
        assert.equal(shown.outcome, "finished");
        assert.equal(shown.text, expected);
        // The recorded duration, not the replay's own: the narration is the same every time.
        assert.match(shown.text, /-> 200, 184 ms\n/);
        assert.match(
          shown.text,
          /^Print today's weather for a city\. \(main, city: "Berlin"\)\n {2}Fetch the forecast/,
        );
        // Narrated again, it reads the same.
        const again = await narrated(page);
        assert.equal(again.text, shown.text);
        console.log(
          `weather.ry narrated in the page: ${shown.ms.toFixed(0)} ms from the click (the worker loaded), ${again.ms.toFixed(0)} ms again`,
        );
      });

      await t.test("a program that narrates markup: the same lines, as text", async () => {
        const expected = narratedByCli(dir, "shout.json", "shout.ry");
        assert.ok(expected.includes(MARKUP), expected);
        await ready(page, recordingUrl("1/shout.json"));
        const shown = await narrated(page);
        assert.equal(shown.outcome, "finished");
        assert.equal(shown.text, expected);
        const inert = await page.evaluate(() => ({
          pwned: (window as unknown as { pwned?: unknown }).pwned,
          elements: document.querySelectorAll("main script, main img, main [onerror]").length,
        }));
        assert.deepEqual(inert, { pwned: undefined, elements: 0 });
      });

      await t.test("a recording whose program is not found says so", async () => {
        await ready(page, recordingUrl("1/lost/orphan.json"));
        await page.waitForSelector(".narration-none", { timeout: 10_000 });
        const sentence = await page.textContent(".narration-none");
        assert.match(sentence ?? "", /No program nowhere\.ry was found/);
        assert.equal(await page.$("button.narrate"), null);
      });

      await t.test("the playground's Narrate checkbox narrates a run in its panel", async () => {
        await ready(page, `${view.url}#/playground?from=${encodeURIComponent("1/shout.ry")}`);
        assert.equal(await page.isVisible(".pg-narration"), false);
        await page.check(".pg-narrate");
        assert.equal(await page.isVisible(".pg-narration"), true);
        await page.click(".pg-run");
        await page.waitForSelector(".pg-outcome[data-outcome=finished]", { timeout: 20_000 });
        const shown = await page.evaluate(() => ({
          narration: document.querySelector(".pg-narration")!.textContent,
          output: document.querySelector(".pg-printed")!.textContent,
        }));
        assert.equal(shown.narration, narratedByCli(dir, "shout.json", "shout.ry"));
        assert.ok(shown.output?.includes(`${MARKUP.replaceAll('"', "'")}!`), shown.output ?? "");
        // Unchecked, the next run is not narrated.
        await page.uncheck(".pg-narrate");
        await page.click(".pg-run");
        await page.waitForSelector(".pg-outcome[data-outcome=finished]", { timeout: 20_000 });
        assert.equal(await page.textContent(".pg-narration"), "");
      });

      assert.deepEqual(outsideRequests(requests, view.url), []);
      assert.deepEqual(errors, []);
    });
  } finally {
    for (const v of views) await v.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
