// The playground of `renyi view` in Chromium (spec/view.md, section 7): a program typed in the
// page is checked as it is typed, its diagnostic's suggested edit applied as a quick fix; it
// runs in the worker and prints; an endless loop stops at its fuel, or when Stop is pressed; a program that needs
// network.http runs from a recording chosen in the page and prints what it printed when it was
// recorded; a shared link opens the same text, and a link too large once inflated is refused.
// Through all of it, no request leaves the server and the console shows no error. And the one
// speed check of the playground: a 1,000-line program checked in the page.

import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import type { Page } from "playwright-core";
import { generateRenyi } from "../bench/programs.js";
import { outsideRequests, startView, withBrowser } from "./browser-support.js";
import { ROOT } from "./golden.js";

const TYPO = `public function main()
  purpose: Print a total.
  needs console
  let total be 40 + 2
  console.print("the total is {totl}")
end
`;

const ENDLESS = `public function main()
  purpose: Never end.
  needs console
  var n be 0
  while true
    set n to n + 1
  end
end
`;

/** The editor's text, a line each: the lines CodeMirror has drawn (those in view and a margin around them). */
async function editorText(page: Page): Promise<string> {
  return (await page.locator(".cm-line").allTextContents()).join("\n");
}

/**
 * Replaces the editor's text as pasting it would (the editor reads a paste event's clipboard data;
 * Chromium's own insertion of several lines into the editable element would style them inline,
 * which the page's policy refuses), and waits for the check after it.
 */
async function typeProgram(page: Page, text: string): Promise<void> {
  const before = Number(await page.locator(".pg-status").getAttribute("data-checks"));
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+a");
  await page.locator(".cm-content").evaluate((node, pasted) => {
    const data = new DataTransfer();
    data.setData("text/plain", pasted);
    node.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
  await page.waitForFunction(
    (n) => Number(document.querySelector(".pg-status")?.getAttribute("data-checks")) > n,
    before,
  );
}

async function open(page: Page, url: string): Promise<void> {
  // A change of the fragment alone shows the view again without loading the page: not ready until it has.
  await page.evaluate(() => {
    if (document.body) document.body.dataset.ready = "false";
  });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true][data-view=playground]");
}

function base64url(bytes: Buffer): string {
  return bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

test("the playground checks, fixes, runs, replays and shares a program in Chromium", async () => {
  const dir = mkdtempSync(join(tmpdir(), "renyi-playground-"));
  mkdirSync(join(dir, "fixtures", "weather"), { recursive: true });
  copyFileSync(join(ROOT, "examples", "weather.ry"), join(dir, "weather.ry"));
  copyFileSync(
    join(ROOT, "examples", "fixtures", "weather", "berlin.json"),
    join(dir, "fixtures", "weather", "berlin.json"),
  );
  const view = await startView(dir, ["."]);
  try {
    await withBrowser(async ({ newPage, requests, errors }) => {
      const page = await newPage();
      const playground = `${view.url}#/playground`;
      await open(page, playground);
      assert.match((await page.locator(".pg-grant-words").textContent()) ?? "", /print to the console/i);

      // A diagnostic as the program is typed, in the page's list and as the editor's lint.
      await typeProgram(page, TYPO);
      await page.locator('.pg-problem[data-code="E-NAME-UNKNOWN"]').waitFor();
      assert.equal(await page.locator(".cm-lint-marker-error").count(), 1);

      // Its suggested edit, applied from the editor's lint panel.
      const checks = Number(await page.locator(".pg-status").getAttribute("data-checks"));
      await page.locator(".cm-content").click();
      await page.keyboard.press("Control+Shift+KeyM");
      await page.locator(".cm-panel-lint .cm-diagnosticAction", { hasText: "Replace `totl` with `total`" }).click();
      await page.waitForFunction(
        (n) => Number(document.querySelector(".pg-status")?.getAttribute("data-checks")) > n,
        checks,
      );
      assert.match(await editorText(page), /the total is \{total\}/);
      assert.equal(await page.locator(".pg-problem").count(), 0);

      // Run: its output as it arrives, its outcome.
      await page.locator(".pg-run").click();
      await page.waitForSelector('.pg-outcome:not([data-outcome="running"])[data-outcome]');
      assert.equal(await page.locator(".pg-outcome").getAttribute("data-outcome"), "finished");
      assert.equal(await page.locator(".pg-printed").textContent(), "the total is 42\n");

      // An endless loop stops at its fuel, with the line it was on.
      await typeProgram(page, ENDLESS);
      await page.locator('.pg-limits input[name="fuel"]').fill("2000000");
      await page.locator(".cm-content").click();
      await page.keyboard.press("Control+Enter");
      await page.waitForSelector('.pg-outcome:not([data-outcome="running"])[data-outcome]');
      assert.equal(await page.locator(".pg-outcome").getAttribute("data-code"), "E-RT-FUEL");
      // With fuel for minutes, Stop ends it.
      await page.locator('.pg-limits input[name="fuel"]').fill("50000000000");
      await page.locator(".pg-run").click();
      await page.waitForSelector('.pg-outcome[data-outcome="running"]');
      await page.locator(".pg-stop").click();
      await page.waitForSelector('.pg-outcome[data-outcome="stopped"]');
      assert.equal(await page.locator(".pg-run").isEnabled(), true);

      // The speed check: a 1,000-line program checked in the page (the bound is generous; the goal is 50 ms).
      const long = generateRenyi(1000);
      await open(page, `${view.url}#/playground?program=${base64url(deflateRawSync(Buffer.from(long)))}`);
      const figures: number[] = [];
      for (let i = 0; i < 5; i++) {
        await page.locator(".cm-content").click();
        const before = Number(await page.locator(".pg-status").getAttribute("data-checks"));
        await page.keyboard.press("Control+End");
        await page.keyboard.type(" ");
        await page.waitForFunction(
          (n) => Number(document.querySelector(".pg-status")?.getAttribute("data-checks")) > n,
          before,
        );
        figures.push(Number(await page.locator(".pg-status").getAttribute("data-check-ms")));
      }
      figures.sort((a, b) => a - b);
      const median = figures[2]!;
      console.log(`checking a 1,000-line program in Chromium: median ${median} ms of ${figures.join(", ")}`);
      assert.ok(median < 400, `a 1,000-line program took ${median} ms to check`);

      // A program that needs network.http, run from its recording chosen in the page.
      await open(page, `${view.url}#/playground?from=${encodeURIComponent("0/weather.ry")}`);
      assert.match((await page.locator(".pg-grant-words").textContent()) ?? "", /api\.open-meteo\.com/);
      await page.locator(".pg-recording").selectOption("0/fixtures/weather/berlin.json");
      await page.locator(".pg-run").click();
      await page.waitForSelector('.pg-outcome:not([data-outcome="running"])[data-outcome]');
      assert.equal(await page.locator(".pg-printed").textContent(), "Berlin: 21.5 degrees, wind 11.9 km/h\n");
      assert.equal(await page.locator(".pg-outcome").getAttribute("data-outcome"), "finished");
      // Without a recording, the network is not there.
      await page.locator(".pg-recording").selectOption("");
      await page.locator(".pg-run").click();
      await page.waitForSelector('.pg-outcome:not([data-outcome="running"])[data-outcome]');
      assert.notEqual(await page.locator(".pg-outcome").getAttribute("data-outcome"), "finished");

      // A shared link opens the same text, in another page.
      // The editor draws the lines in view and a margin around them: the first lines are drawn in both.
      const weather = (await editorText(page)).split("\n").slice(0, 10).join("\n");
      assert.match(weather, /^-- weather\.ry: print today's weather/);
      await page.locator(".pg-copy").click();
      await page.waitForFunction(() => (document.querySelector<HTMLInputElement>(".pg-link")?.value ?? "") !== "");
      const link = await page.locator(".pg-link").inputValue();
      assert.match(link, /#\/playground\?program=[A-Za-z0-9_-]+$/);
      const other = await newPage();
      await open(other, link);
      assert.equal((await editorText(other)).split("\n").slice(0, 10).join("\n"), weather);
      // The whole text, not only the lines drawn: its link again is the same link.
      await other.locator(".pg-copy").click();
      await other.waitForFunction(() => (document.querySelector<HTMLInputElement>(".pg-link")?.value ?? "") !== "");
      assert.equal(await other.locator(".pg-link").inputValue(), link);
      // A link whose program inflates past 1 MiB is refused with a message, and the starter shown.
      const bomb = base64url(deflateRawSync(Buffer.alloc(2 * 1024 * 1024, 0x61)));
      await open(other, `${view.url}#/playground?program=${bomb}`);
      assert.match((await other.locator(".pg-notice").textContent()) ?? "", /over 1 MiB/);
      await open(other, `${view.url}#/playground?program=not*base64`);
      assert.match((await other.locator(".pg-notice").textContent()) ?? "", /not base64url/);

      assert.deepEqual(outsideRequests(requests, view.url), []);
      assert.deepEqual(errors, []);
    });
  } finally {
    await view.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
