// The page of `renyi view` in a real browser (spec/view.md, sections 4, 5, 6, 9 and 10): the items
// of the examples, a program's grants in words, purposes and reach, a recording's timeline, budgets,
// least grant and calls, two recordings compared; hostile recordings and programs shown as text and
// never run; a 50,000-call timeline drawn within a second; a 64 MiB body cut; a file that is not
// JSON refused with a message; no request outside the page's server; the first paint's time. One
// browser for the file.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "./golden.js";
import { outsideRequests, startView, withBrowser, type Viewing } from "./browser-support.js";

const HOSTILE = [
  "<script>window.pwned=1</script>",
  '<a href="javascript:window.pwned=1">javascript:alert(1)</a>',
  "<svg onload=window.pwned=1></svg>",
  "<img src=x onerror=window.pwned=1>",
].join(" ");

const SCREENSHOTS = process.env["RENYI_SCREENSHOTS"];

/** A recording as `renyi run --record` writes one: its manifest first, then its calls. */
function recording(program: string, grant: string[], calls: object[], outcome = "finished"): string {
  return JSON.stringify({
    program,
    revision: "0000000",
    toolchain: "renyi 0.1.0",
    source: `${program}.ry`,
    code: `sha256:${"0".repeat(64)}`,
    arguments: [],
    recorded_at: "2026-12-01T07:09:03Z",
    grant,
    outcome,
    output: { stdout: `sha256:${"1".repeat(64)}`, bytes: 0 },
    calls,
  });
}

function httpCall(sequence: number, atMs: number, args: object, outcome: object, host = "api.example.com"): object {
  return {
    sequence,
    capability: `network.http("${host}")`,
    primitive: "std.http.get",
    arguments: args,
    outcome,
    duration_ms: 5 + (sequence % 7),
    at_ms: atMs,
  };
}

/** The folder of hostile files: names, bodies, headers and a program's text holding markup. */
function hostileFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "renyi-view-pages-"));
  const grant = ['network.http("api.example.com") at most 20 per minute'];
  const evil = (n: number) =>
    httpCall(
      n,
      n * 10,
      { url: "javascript:alert(1)", headers: { "x-evil": HOSTILE, Authorization: "<redacted>" } },
      { success: { status: 200, headers: { "content-type": HOSTILE }, body: HOSTILE } },
    );
  writeFileSync(join(dir, "<img src=x onerror=window.pwned=1>.json"), recording(HOSTILE, grant, [evil(1), evil(2)]));
  writeFileSync(
    join(dir, "javascript:alert(1).json"),
    recording("plain", grant, [evil(1), evil(2), evil(3)], "crashed"),
  );
  writeFileSync(
    join(dir, "<svg onload=window.pwned=1>.ry"),
    `-- ${HOSTILE}\n\npublic function shout(text: Text) returns Text\n  purpose: ${HOSTILE}\n  return "${HOSTILE.replaceAll('"', "'")}"\nend\n\nfunction main()\n  needs console\n  console.print(shout("hi"))\nend\n`,
  );
  // 50,000 calls in five lanes, a failure every 97th, under a budget.
  const many: object[] = [];
  for (let i = 1; i <= 50_000; i++)
    many.push(
      httpCall(
        i,
        i * 2,
        { url: `https://h${i % 5}.example.com/${i}` },
        i % 97 === 0
          ? { failure: { Unreachable: { url: `https://h${i % 5}.example.com/${i}`, reason: "ECONNREFUSED" } } }
          : { success: { status: 200, headers: {}, body: "ok" } },
        `h${i % 5}.example.com`,
      ),
    );
  const manyGrant = [0, 1, 2, 3, 4].map((h) => `network.http("h${h}.example.com") at most 100 per minute`);
  writeFileSync(join(dir, "many.json"), recording("many", manyGrant, many));
  // One call whose body is 64 MiB.
  const big = httpCall(
    1,
    0,
    { url: "https://api.example.com/big" },
    { success: { status: 200, headers: {}, body: "x".repeat(64 * 1024 * 1024) } },
  );
  writeFileSync(join(dir, "big-body.json"), recording("big", grant, [big]));
  // A recording's head, then not JSON.
  writeFileSync(join(dir, "broken.json"), `{"program": "broken", "toolchain": "renyi 0.1.0", "calls": [ {"sequence": `);
  // A program with two errors, one with a suggested edit.
  mkdirSync(join(dir, "deeper"));
  writeFileSync(
    join(dir, "deeper", "typo.ry"),
    'function main()\n  needs console\n  let total be 1 + "a"\n  console.print(totl)\nend\n',
  );
  return dir;
}

async function ready(page: Page, url: string): Promise<void> {
  // A new fragment on the same page is no new document: the view shown before is not the one waited for.
  await page.evaluate(() => {
    if (document.body !== null) document.body.dataset.ready = "false";
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20_000 });
}

async function shot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS !== undefined)
    await page.screenshot({
      path: join(SCREENSHOTS, `${name}.png`),
      fullPage: name !== "recording" && !name.startsWith("many"),
    });
}

/** What no page should ever hold: the hostile markup as elements, or a script that ran. */
async function assertInert(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => ({
    pwned: (window as unknown as { pwned?: unknown }).pwned,
    script: document.querySelectorAll("main script").length,
    img: document.querySelectorAll("main img").length,
    svgOnload: document.querySelectorAll("main svg[onload], main [onerror], main [onload]").length,
    javascript: document.querySelectorAll("a[href^='javascript' i]").length,
    hrefs: [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")!),
  }));
  assert.equal(found.pwned, undefined, `${where}: a hostile script ran`);
  assert.equal(found.script, 0, `${where}: a script element`);
  assert.equal(found.img, 0, `${where}: an img element`);
  assert.equal(found.svgOnload, 0, `${where}: an element with a handler`);
  assert.equal(found.javascript, 0, `${where}: a javascript: link`);
  for (const href of found.hrefs) assert.match(href, /^#\//, `${where}: a link not to the page's own routes: ${href}`);
}

test("no view of the page sets markup: every text is put in as text", () => {
  const sources = [
    "views/items.ts",
    "views/program.ts",
    "views/recording.ts",
    "views/compare.ts",
    "views/code.ts",
    "views/parts.ts",
    "timeline.ts",
    "budget-plot.ts",
    "dom.ts",
  ];
  for (const source of sources) {
    const text = readFileSync(join(ROOT, "view", source), "utf8");
    assert.doesNotMatch(
      text,
      /\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|createContextualFragment/,
      source,
    );
  }
});

test("the page's views on the examples and on hostile files, in chromium", { timeout: 120_000 }, async (t) => {
  const hostile = hostileFolder();
  const views: Viewing[] = [];
  try {
    await withBrowser(async ({ newPage, requests, errors }) => {
      const page = await newPage();
      // Chromium is up and the page open: the first paint is the server's start plus the page's.
      await page.goto("about:blank");
      const spawned = performance.now();
      const examples = await startView(ROOT, ["examples"]);
      views.push(examples);
      const asked = performance.now();
      await ready(page, examples.url);
      await page.waitForSelector("main li.recording", { timeout: 5_000 });
      // The page marks when its items are in the DOM; its clock starts at the navigation.
      const shown = await page.evaluate(() => performance.getEntriesByName("renyi-items-shown")[0]?.startTime ?? -1);
      assert.ok(shown > 0, "the items view marks when it has shown the items");
      const firstPaint = asked - spawned + shown;
      console.log(
        `first paint of #/ on examples/: ${firstPaint.toFixed(0)} ms from the spawn: the server printed its address at ${examples.startedMs.toFixed(0)} ms, the page showed the items ${shown.toFixed(0)} ms after it was asked for`,
      );
      // The page's part, from its address asked for to its items shown (the server's start is its own).
      assert.ok(shown < 300, `the page took ${shown.toFixed(0)} ms`);

      await t.test("the items list the examples' programs and recordings, grouped by folder", async () => {
        const items = await page.evaluate(() => ({
          programs: [...document.querySelectorAll("li.program a")].map((a) => a.textContent),
          recordings: [...document.querySelectorAll("li.recording a")].map((a) => a.textContent),
          folders: [...document.querySelectorAll("section.folder h2")].map((h) => h.textContent),
          outcomes: [...document.querySelectorAll("li.recording .outcome")].map((o) => o.textContent),
        }));
        for (const name of ["hello.ry", "assistant.ry", "weather.ry", "bookmarks.ry"])
          assert.ok(items.programs.includes(name), name);
        for (const name of ["capital.json", "berlin.json", "three_requests.json"])
          assert.ok(items.recordings.includes(name), name);
        assert.ok(
          items.folders.some((f) => f?.endsWith("fixtures/assistant")),
          items.folders.join(", "),
        );
        assert.ok(items.outcomes.includes("finished"));
        await shot(page, "items");
        // Two recordings picked, then compared.
        await page.check('input[data-id="0/fixtures/currency_tool/eur_to_usd.json"]');
        assert.equal(await page.isDisabled("button.compare-button"), true);
        await page.check('input[data-id="0/fixtures/currency_tool/unknown_currency.json"]');
        await page.click("button.compare-button");
        await page.waitForSelector("body[data-view=compare][data-ready=true]");
        assert.equal(await page.locator(".side").count(), 2);
      });

      await t.test("a program shows its highlighted text, grants in words, purposes and reach", async () => {
        await ready(page, `${examples.url}#/program/${encodeURIComponent("0/assistant.ry")}`);
        const program = await page.evaluate(() => ({
          keywords: document.querySelectorAll(".code .t-keyword").length,
          lines: document.querySelectorAll(".code .line").length,
          text: document.querySelector(".code")?.textContent ?? "",
          mainWords: [...document.querySelectorAll('.grant[data-grant="main"] .grant-words li')].map(
            (li) => li.textContent ?? "",
          ),
          purposes: [...document.querySelectorAll("table.definitions td.purpose")].map((td) => td.textContent ?? ""),
          reachHttp: [...document.querySelectorAll("ul.reach-tree li.fn")]
            .filter((li) =>
              [...li.children].some(
                (c) => c.tagName === "UL" && c.querySelector(':scope > li.capability[data-capability^="network.http"]'),
              ),
            )
            .map((li) => li.getAttribute("data-function")),
        }));
        assert.ok(program.keywords > 10, `keywords highlighted: ${program.keywords}`);
        assert.ok(program.lines >= 90, `lines: ${program.lines}`);
        assert.match(program.text, /public function ask\(/);
        assert.ok(program.mainWords.length >= 3, program.mainWords.join(" | "));
        assert.ok(
          program.mainWords.some((w) => /api\.openai\.com/.test(w) && /20/.test(w)),
          program.mainWords.join(" | "),
        );
        assert.ok(
          program.purposes.some((p) => /chat-completion/.test(p)),
          program.purposes.join(" | "),
        );
        assert.ok(program.reachHttp.length > 0, "a function of the tree reaches network.http");
        await shot(page, "program");
      });

      await t.test(
        "a recording shows its calls on the timeline, lanes, budgets, least grant, and a call on selection",
        async () => {
          await ready(page, `${examples.url}#/recording/${encodeURIComponent("0/fixtures/assistant/capital.json")}`);
          const file = JSON.parse(readFileSync(join(ROOT, "examples/fixtures/assistant/capital.json"), "utf8")) as {
            calls: unknown[];
          };
          const seen = await page.evaluate(() => {
            const figure = document.querySelector<HTMLElement>("figure.timeline-figure")!;
            return {
              callsDrawn: figure.dataset["callsDrawn"],
              lanes: figure.dataset["lanes"],
              laneRows: [...document.querySelectorAll("table.lanes tbody tr")].map((tr) =>
                tr.getAttribute("data-lane"),
              ),
              budgets: [...document.querySelectorAll("figure.budget")].map((f) => [
                f.getAttribute("data-limit"),
                f.querySelector("line.limit") !== null,
              ]),
              declared: document.querySelector("pre.declared")?.textContent ?? "",
              least: document.querySelector("pre.least")?.textContent ?? "",
            };
          });
          assert.equal(Number(seen.callsDrawn), file.calls.length);
          assert.equal(Number(seen.lanes), seen.laneRows.length);
          assert.ok(seen.laneRows.length >= 2, `lanes: ${seen.laneRows.join(", ")}`);
          assert.ok(
            seen.budgets.some(([limit, line]) => limit === "20" && line === true),
            JSON.stringify(seen.budgets),
          );
          assert.match(seen.declared, /at most 20 per minute/);
          assert.ok(seen.least.length > 0);
          // The first call, by the keyboard; then the lanes below it.
          await page.focus("canvas.timeline");
          await page.keyboard.press("ArrowRight");
          await page.waitForSelector(".call-detail pre.arguments");
          const detail = await page.textContent(".call-detail");
          assert.match(detail ?? "", /Arguments/);
          const first = await page.getAttribute(".call-detail", "data-index");
          // The lanes below, one by one, until the call with the redacted header.
          let redacted = false;
          for (let lane = 0; lane < seen.laneRows.length && !redacted; lane++) {
            await page.keyboard.press("ArrowDown");
            await page.waitForFunction(
              () => !document.querySelector(".call-detail")?.textContent?.includes("reading the call"),
            );
            redacted = (await page.locator(".call-detail .redacted").count()) > 0;
          }
          assert.ok(redacted, "a call's <redacted> header marked as such");
          assert.notEqual(await page.getAttribute(".call-detail", "data-index"), first);

          // A recording with a failure: marked, listed, and picked from the list.
          await ready(
            page,
            `${examples.url}#/recording/${encodeURIComponent("0/fixtures/concurrent_fetch/board.json")}`,
          );
          assert.equal(await page.getAttribute("figure.timeline-figure", "data-failures"), "1");
          await page.click("ol.failed li:first-child button");
          await page.waitForSelector(".call-detail pre.outcome-text");
          assert.match((await page.textContent(".call-detail pre.outcome-text")) ?? "", /Unreachable/);
          await shot(page, "recording");
          await shot(page, "recording-full");
        },
      );

      await t.test("two recordings compared show the calls that differ", async () => {
        const a = encodeURIComponent("0/fixtures/currency_tool/eur_to_usd.json");
        const b = encodeURIComponent("0/fixtures/currency_tool/unknown_currency.json");
        await ready(page, `${examples.url}#/compare/${a}/${b}`);
        const compared = await page.evaluate(() => ({
          same: document.querySelector("main")!.dataset.same,
          rows: document.querySelectorAll("table.differences tbody tr").length,
          sides: document.querySelectorAll(".side").length,
        }));
        assert.equal(compared.same, "false");
        assert.ok(compared.rows > 0);
        assert.equal(compared.sides, 2);
        await ready(page, `${examples.url}#/compare/${a}/${a}`);
        assert.match((await page.textContent("main")) ?? "", /The same calls/);
        await ready(page, `${examples.url}#/compare/${a}/${b}`);
        await shot(page, "compare");
      });

      const evil = await startView(ROOT, [hostile]);
      views.push(evil);
      const id = (name: string) => encodeURIComponent(`0/${name}`);

      await t.test("hostile names, bodies, headers and program text show as text and run nothing", async () => {
        await ready(page, evil.url);
        await assertInert(page, "items");
        const text = (await page.textContent("main")) ?? "";
        assert.ok(text.includes("<img src=x onerror=window.pwned=1>.json"), "the file's name as text");
        assert.ok(text.includes(HOSTILE), "the program's name as text");
        await shot(page, "hostile-items");

        await ready(page, `${evil.url}#/recording/${id("<img src=x onerror=window.pwned=1>.json")}`);
        await page.click("ol.near li:first-child button");
        await page.waitForSelector(".call-detail pre.outcome-text");
        const detail = (await page.textContent(".call-detail")) ?? "";
        assert.ok(detail.includes("javascript:alert(1)"));
        assert.ok(detail.includes("<script>window.pwned=1</script>"));
        assert.ok((await page.locator(".call-detail .redacted").count()) >= 1, "<redacted> marked");
        await assertInert(page, "recording");
        await shot(page, "hostile-recording");

        await ready(page, `${evil.url}#/program/${id("<svg onload=window.pwned=1>.ry")}`);
        assert.ok(((await page.textContent("main")) ?? "").includes("<svg onload=window.pwned=1></svg>"));
        await assertInert(page, "program");
        await shot(page, "hostile-program");

        await ready(
          page,
          `${evil.url}#/compare/${id("<img src=x onerror=window.pwned=1>.json")}/${id("javascript:alert(1).json")}`,
        );
        await assertInert(page, "compare");
      });

      await t.test("a program's diagnostics are in place, with their suggested edits in words", async () => {
        await ready(page, `${evil.url}#/program/${id("deeper/typo.ry")}`);
        const found = await page.evaluate(() => ({
          marked: [...document.querySelectorAll(".line .mark-error")].map((m) => [
            m.closest(".line")!.getAttribute("data-line"),
            m.textContent,
          ]),
          codes: [...document.querySelectorAll(".diagnostic")].map((d) => d.getAttribute("data-code")),
          edit: document.querySelector('.diagnostic[data-code="E-NAME-UNKNOWN"] .edit')?.textContent ?? "",
          after: document
            .querySelector('.diagnostic[data-code="E-NAME-UNKNOWN"]')
            ?.previousElementSibling?.getAttribute("data-line"),
        }));
        assert.deepEqual(found.codes, ["E-TYPE-OPERATOR", "E-NAME-UNKNOWN"]);
        assert.ok(
          found.marked.some(([line, text]) => line === "4" && text === "totl"),
          JSON.stringify(found.marked),
        );
        assert.match(found.edit, /Replace `totl` with `total`/);
        assert.match(found.edit, /replace line 4, columns 17-21 with\s*total/);
        assert.equal(found.after, "4", "the diagnostic is shown under its line");
        await shot(page, "diagnostics");
      });

      await t.test("50,000 calls are drawn within a second of their arrival", async () => {
        await ready(page, `${evil.url}#/recording/${id("many.json")}`);
        const drawn = await page.evaluate(
          () =>
            ({ ...document.querySelector<HTMLElement>("figure.timeline-figure")!.dataset }) as Record<string, string>,
        );
        console.log(`50,000 calls: laid out and drawn in ${drawn.totalMs} ms (the drawing alone ${drawn.renderMs} ms)`);
        assert.equal(drawn.callsDrawn, "50000");
        assert.equal(drawn.lanes, "5");
        assert.equal(drawn.failures, String(Math.floor(50_000 / 97)));
        assert.ok(Number(drawn.totalMs) < 1000, `${drawn.totalMs} ms`);
        assert.ok((await page.locator("figure.budget line.limit").count()) >= 1);
        // A click on the canvas picks a call near it, found by a binary search in its lane.
        const box = (await page.locator("canvas.timeline").boundingBox())!;
        await page.mouse.click(box.x + box.width / 2, box.y + 22 + 10);
        await page.waitForSelector(".call-detail pre.arguments");
        assert.match((await page.textContent(".call-detail")) ?? "", /h\d\.example\.com/);
        // Zoomed in around the call picked (its bar stays in view), then all of it again.
        await page.keyboard.press("+");
        await page.keyboard.press("+");
        await page.keyboard.press("+");
        const zoomed = await page.evaluate(
          () =>
            ({ ...document.querySelector<HTMLElement>("figure.timeline-figure")!.dataset }) as Record<string, string>,
        );
        assert.equal(zoomed.zoomed, "true");
        assert.ok(Number(zoomed.callsDrawn) < 50_000 && Number(zoomed.callsDrawn) > 0, zoomed.callsDrawn);
        await shot(page, "many-zoomed");
        await page.keyboard.press("0");
        assert.equal(await page.getAttribute("figure.timeline-figure", "data-calls-drawn"), "50000");
        await shot(page, "many");
      });

      await t.test("a 64 MiB body is cut in the call's detail", async () => {
        await ready(page, `${evil.url}#/recording/${id("big-body.json")}`);
        await page.click("ol.near li:first-child button");
        await page.waitForSelector(".call-detail pre.outcome-text", { timeout: 20_000 });
        assert.equal(await page.locator(".call-detail [data-cut=true]").count(), 1);
        const length = await page.evaluate(
          () => document.querySelector(".call-detail pre.outcome-text")!.textContent!.length,
        );
        assert.ok(length < 1024 * 1024, `${length} characters shown`);
        await shot(page, "big-body");
      });

      await t.test("a recording that is not JSON is refused with a message", async () => {
        await ready(page, `${evil.url}#/recording/${id("broken.json")}`);
        const alert = (await page.textContent("main [role=alert]")) ?? "";
        assert.match(alert, /\S/);
        assert.doesNotMatch(alert, /at .*\.js:\d+/, "no stack trace");
      });

      await t.test("the page asked nothing of any server but its own", () => {
        assert.deepEqual(outsideRequests(outsideRequests(requests, examples.url), evil.url), []);
        assert.deepEqual(
          errors.filter((e) => !/Failed to load resource/.test(e)),
          [],
        );
      });
    });
  } finally {
    for (const view of views) await view.stop();
    rmSync(hostile, { recursive: true, force: true });
  }
});
