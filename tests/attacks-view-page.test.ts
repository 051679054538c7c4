// Attacks on what the page of `renyi view` does with what it is given (spec/security.md, "The
// review page: `renyi view`"): markup in every field a view shows, fragments made to inject,
// links that would leave the page, recordings and programs made to hang it, and the playground's
// links, output and panels. One browser for the file; the page must stay responsive and show
// text, never markup, and ask nothing of any other server.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { after, before, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, outsideRequests, startView, type Viewing } from "./browser-support.js";
import { ROOT } from "./golden.js";

const MARK = (n: string) =>
  `<script>window.pwned="${n}"</script><img src="http://evil.example/${n}.png" onerror="window.pwned='${n}'">` +
  `<svg onload="window.pwned='${n}'"></svg><a href="javascript:window.pwned='${n}'">x</a>` +
  `<style>@import url(http://evil.example/${n}.css)</style><link rel=prefetch href=//evil.example/${n}>`;
const EVIL = MARK("e");

let folder: string;
let viewing: Viewing;
let browser: Browser;
let context: BrowserContext;
const requests: string[] = [];

function base(): { [k: string]: unknown } {
  return JSON.parse(readFileSync(join(ROOT, "examples", "fixtures", "weather", "berlin.json"), "utf8"));
}

function recordingText(fields: { [k: string]: unknown }, calls: object[]): string {
  const r = base();
  return JSON.stringify({ ...r, output: { stdout: `sha256:${"0".repeat(64)}`, bytes: 0 }, ...fields, calls });
}

function call(sequence: number, at: number, extra: object = {}): object {
  return {
    sequence,
    capability: 'network.http("api.open-meteo.com")',
    primitive: "std.http.get",
    arguments: { url: `https://api.open-meteo.com/${EVIL}`, headers: { [EVIL]: EVIL } },
    outcome: { success: { status: 200, headers: { [`x-${EVIL}`]: EVIL }, body: EVIL } },
    duration_ms: 3,
    at_ms: at,
    ...extra,
  };
}

function b64url(bytes: Buffer): string {
  return bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

before(async () => {
  folder = mkdtempSync(join(tmpdir(), "renyi-attack-page-"));
  const root = join(folder, "root");
  const dir = join(root, `<svg onload=window.pwned='d'>`);
  mkdirSync(dir, { recursive: true });
  // A program whose name, comments, purposes, grants (scopes, variables, paths) and errors hold markup.
  writeFileSync(
    join(dir, `<img src=x onerror=window.pwned='f'>.ry`),
    [
      `-- ${EVIL}`,
      `public function main()`,
      `  purpose: ${EVIL}`,
      `  needs console, network.http("<img src=x onerror=window.pwned='g'>"), environment.read("<b onmouseover=window.pwned='v'>"), filesystem.read("/tmp/<img src=x onerror=window.pwned='p'>")`,
      `  console.print("${EVIL.replaceAll('"', "'")}")`,
      `  let x be <script>window.pwned='s'</script>`,
      `  console.print(<img src=x onerror=window.pwned='t'>)`,
      `end`,
      "",
    ].join("\n"),
  );
  // Recordings whose every field holds markup: manifest, capability, primitive, task, bodies, budgets.
  writeFileSync(
    join(dir, `<img src=x onerror=window.pwned='r'>.json`),
    recordingText(
      {
        program: EVIL,
        source: EVIL,
        recorded_at: EVIL,
        toolchain: EVIL,
        grant: [
          "console",
          'network.http("api.open-meteo.com") at most 1 per second',
          `environment.read("${EVIL.replaceAll('"', "'")}")`,
        ],
      },
      [call(1, 0), call(2, 5), call(3, 9, { outcome: { failure: { kind: EVIL } } })],
    ),
  );
  writeFileSync(
    join(dir, "other.json"),
    recordingText({ program: "weather" }, [
      call(1, 0, { arguments: { url: "javascript:window.pwned='c'", headers: {} } }),
      call(2, 7, { outcome: { success: { status: 500, headers: {}, body: MARK("c") } } }),
    ]),
  );
  // 50,000 calls under a budget of a 1 ms window.
  const lanes: object[] = [];
  for (let i = 1; i <= 50_000; i++) lanes.push({ ...(base()["calls"] as object[])[1]!, sequence: i, at_ms: i });
  writeFileSync(join(root, "lanes.json"), recordingText({ grant: ["console at most 1 per second"] }, lanes));
  // One call at a time past 2^53 ms: adding a tick's step to it changes nothing.
  const printed = (base()["calls"] as object[])[1]!;
  writeFileSync(join(root, "late.json"), recordingText({}, [{ ...printed, sequence: 1, at_ms: 1e17, duration_ms: 0 }]));
  // A program of 2,000 functions, each calling the next and all needing something.
  const fns: string[] = [];
  for (let i = 0; i < 2000; i++)
    fns.push(`function f${i}()\n  needs console\n  ${i + 1 < 2000 ? `f${i + 1}()` : 'console.print("end")'}\nend\n`);
  writeFileSync(join(root, "many.ry"), `function main()\n  needs console\n  f0()\nend\n\n${fns.join("\n")}`);
  // A program of 10,000 lines, an error on each.
  writeFileSync(join(root, "errors.ry"), Array.from({ length: 10_000 }, (_, i) => `let x${i} be <${i}>`).join("\n"));
  // One line of 2 MB.
  writeFileSync(join(root, "long.ry"), `-- ${"<img src=x onerror=window.pwned='l'> ".repeat(50_000)}\n`);
  viewing = await startView(folder, ["root"]);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.on("request", (r) => requests.push(r.url()));
});

after(async () => {
  await browser?.close();
  await viewing?.stop();
  if (process.env["RENYI_ATTACK_KEEP"] === undefined) rmSync(folder, { recursive: true, force: true });
  else console.log(folder);
});

const ID = (path: string) => encodeURIComponent(`0/${path}`);
const DIR = `<svg onload=window.pwned='d'>`;

/** Opens the page at `fragment`; "hung" when it is not ready within `ms` (the page is closed then). */
async function open(fragment: string, ms = 8000): Promise<{ page: Page; ms: number } | "hung"> {
  const page = await context.newPage();
  const started = Date.now();
  await page.goto(viewing.url + fragment);
  const ready = await Promise.race([
    page.waitForSelector("body[data-ready=true]", { timeout: ms }).then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms + 500)),
  ]);
  if (!ready) {
    await Promise.race([page.close(), new Promise((r) => setTimeout(r, 3000))]);
    return "hung";
  }
  // Responsive: the page answers a script at once.
  const answered = await Promise.race([
    page.evaluate(() => 1).then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
  if (!answered) {
    await Promise.race([page.close(), new Promise((r) => setTimeout(r, 3000))]);
    return "hung";
  }
  return { page, ms: Date.now() - started };
}

async function opened(fragment: string, ms = 8000): Promise<Page> {
  const got = await open(fragment, ms);
  assert.notEqual(got, "hung", `${fragment} did not answer within ${ms} ms`);
  return (got as { page: Page }).page;
}

/** What got in as markup: pwned, script or image elements, on* attributes, links leaving the page. */
async function injected(page: Page): Promise<string[]> {
  await page.waitForTimeout(150);
  return page.evaluate(() => {
    const found: string[] = [];
    const w = window as unknown as { pwned?: unknown };
    if (w.pwned !== undefined) found.push(`pwned=${String(w.pwned)}`);
    const all: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const e of root.querySelectorAll("*")) {
        all.push(e);
        if (e.shadowRoot) walk(e.shadowRoot);
      }
    };
    walk(document);
    for (const e of all) {
      const tag = e.tagName.toLowerCase();
      if (["img", "iframe", "object", "embed", "b", "i", "style", "image", "foreignobject"].includes(tag))
        found.push(`<${tag}>`);
      if (tag === "script" && !(e as HTMLScriptElement).src.endsWith("/app.js")) found.push("<script>");
      if (tag === "svg" && e.closest(".budget") === null) found.push("<svg> outside a budget");
      for (const a of e.getAttributeNames()) if (/^on/i.test(a)) found.push(`${tag}[${a}]`);
      const href = e.getAttribute("href");
      if (href !== null && !/^(#|style\.css$|data:,$|api\/items$)/.test(href)) found.push(`${tag}[href=${href}]`);
      if (tag === "link" && !["stylesheet", "icon", "preload"].includes((e as HTMLLinkElement).rel))
        found.push(`link rel=${(e as HTMLLinkElement).rel}`);
    }
    return found;
  });
}

async function mainText(page: Page): Promise<string> {
  return page.evaluate(() => document.querySelector("main")!.textContent ?? "");
}

test("the items show file and folder names holding markup as text", async () => {
  const page = await opened("#/");
  assert.deepEqual(await injected(page), []);
  const text = await mainText(page);
  assert.ok(text.includes(DIR), "the folder's name is shown verbatim");
  assert.ok(text.includes("<img src=x onerror=window.pwned='f'>.ry"), "the file's name is shown verbatim");
  await page.close();
});

test("a program's text, purpose, grant words, scopes, variable names, paths and errors stay text", async () => {
  const page = await opened(`#/program/${ID(`${DIR}/<img src=x onerror=window.pwned='f'>.ry`)}`);
  assert.deepEqual(await injected(page), []);
  const text = await mainText(page);
  assert.ok(text.includes(EVIL), "the comment and purpose are shown verbatim");
  assert.ok(text.includes("<script>window.pwned='s'</script>"), "the erring line is shown verbatim");
  assert.ok((await page.locator(".diagnostic").count()) > 0, "the errors are shown");
  await page.close();
});

test("fragments made to inject show a message as text", async () => {
  for (const fragment of [
    "#/program/<svg onload=window.pwned=1>",
    "#/program/%3Csvg%20onload%3Dwindow.pwned%3D1%3E",
    "#/recording/%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E",
    "#/compare/0%2F..%2F..%2Fetc%2Fpasswd/%3Cscript%3Ewindow.pwned%3D1%3C%2Fscript%3E",
    "#/recording/0%2F%2E%2E%2Flanes.json",
    "#/compare/",
    "#/recording/0%2Flanes.json/../../x?y=<b>",
  ]) {
    const page = await opened(fragment);
    assert.deepEqual(await injected(page), [], fragment);
    const text = await mainText(page);
    assert.ok(text.trim().length > 0, `${fragment} shows something`);
    await page.close();
  }
});

test("a fragment with a malformed percent-escape (#/program/%E0%A4%A) shows a message", async () => {
  const page = await opened("#/program/%E0%A4%A", 4000);
  assert.ok((await mainText(page)).trim().length > 0);
  await page.close();
});

test("a fragment naming a property of Object (#/constructor) shows the items, as an unknown view does", async () => {
  for (const fragment of ["#/constructor", "#/valueOf", "#/__proto__", "#/toString"]) {
    const page = await opened(fragment);
    assert.deepEqual(await injected(page), [], fragment);
    assert.equal(await page.evaluate(() => document.body.dataset.view), "items", fragment);
    await page.close();
  }
});

test("50,000 calls under a budget of a 1 ms window: the page answers within seconds and caps the lanes", async () => {
  const got = await open(`#/recording/${ID("lanes.json")}`, 10_000);
  assert.notEqual(got, "hung");
  const { page, ms } = got as { page: Page; ms: number };
  assert.ok(ms < 10_000, `${ms} ms`);
  const lanes = Number(await page.locator("figure.timeline-figure").getAttribute("data-lanes"));
  assert.ok(lanes <= 60, `${lanes} lanes drawn`);
  assert.deepEqual(await injected(page), []);
  // Zooming in and out stays quick.
  await page.locator("canvas.timeline").focus();
  const t0 = Date.now();
  for (const key of ["+", "+", "+", "-", "0", "End", "Home"]) await page.keyboard.press(key);
  await page.evaluate(() => 1);
  assert.ok(Date.now() - t0 < 5000);
  await page.close();
});

test("a call at 1e17 ms (past 2^53) is drawn and the page answers", async () => {
  const got = await open(`#/recording/${ID("late.json")}`, 4000);
  assert.notEqual(got, "hung", "the page hung drawing the timeline");
  await (got as { page: Page }).page.close();
});

test("a program of 2,000 functions in a chain: the reach tree is bounded and the page answers", async () => {
  const got = await open(`#/program/${ID("many.ry")}`, 20_000);
  assert.notEqual(got, "hung");
  const { page, ms } = got as { page: Page; ms: number };
  assert.ok(ms < 20_000, `${ms} ms`);
  const nodes = await page.locator(".reach-tree li").count();
  assert.ok(nodes < 20_000, `${nodes} nodes`);
  await page.close();
});

test("a program with an error on each of 10,000 lines, and a line of 2 MB: the page answers within seconds", async () => {
  for (const file of ["errors.ry", "long.ry"]) {
    const got = await open(`#/program/${ID(file)}`, 10_000);
    assert.notEqual(got, "hung", file);
    const { page, ms } = got as { page: Page; ms: number };
    assert.ok(ms < 10_000, `${file}: ${ms} ms`);
    assert.deepEqual(await injected(page), [], file);
    await page.close();
  }
});

const HOSTILE_PROGRAM = `-- ${EVIL}
function main()
  purpose: ${EVIL}
  needs console
  console.print("${EVIL.replaceAll('"', "'")}\\u{1b}]8;;javascript:x\\u{1b}\\\\link\\u{1b}[31mred")
  console.print(<b onmouseover=window.pwned='q'>)
end
`;

test("a playground link's program, its errors, grant words and output stay text", async () => {
  const link = `#/playground?program=${b64url(deflateRawSync(Buffer.from(HOSTILE_PROGRAM)))}`;
  const page = await opened(link);
  await page.locator(".pg-problems li").first().waitFor({ timeout: 5000 });
  const editorText = await page.evaluate(
    () => document.querySelector(".pg-editor")!.shadowRoot!.querySelector(".cm-content")!.textContent ?? "",
  );
  assert.ok(editorText.includes("<script>window.pwned"), "the editor shows the text");
  assert.deepEqual(await injected(page), []);
  const problems = await page.locator(".pg-problems").textContent();
  assert.ok((problems ?? "").includes("<b onmouseover") || (problems ?? "").length > 0);
  await page.close();
});

test("a playground run whose output holds markup and escapes, and one that floods it, stay text and bounded", async () => {
  const program = `function main()\n  needs console\n  console.print("${EVIL.replaceAll('"', "'")}\\u{1b}[2J\\u{1b}]0;title\\u{7}")\n  while true\n    console.print("${"<img src=x onerror=window.pwned='o'>".repeat(20)}")\n  end\nend\n`;
  const page = await opened(`#/playground?text=${b64url(Buffer.from(program))}`);
  await page.locator(".pg-status[data-checks]").waitFor({ timeout: 5000 });
  await page.locator("input[name=timeMs]").fill("3000");
  await page.locator(".pg-run").click();
  await page.locator(".pg-outcome:not([data-outcome=running])").waitFor({ timeout: 15_000 });
  const out = (await page.locator(".pg-printed").textContent()) ?? "";
  assert.ok(out.startsWith("<script>window.pwned"), `output shown as text: ${out.slice(0, 80)}`);
  assert.ok(out.length <= 1024 * 1024 + 10_000, `${out.length} characters shown`);
  assert.equal(await page.locator(".pg-output *").count(), 0);
  assert.deepEqual(await injected(page), []);
  await page.close();
});

test("playground links that inflate past the bound or run past it are refused with a message, quickly", async () => {
  const bomb = b64url(deflateRawSync(Buffer.alloc(64 * 1024 * 1024, 0x41), { level: 9 }));
  for (const link of [
    `#/playground?program=${bomb}`,
    `#/playground?text=${"A".repeat(1_500_000)}`,
    `#/playground?program=${b64url(Buffer.from("not deflate at all"))}`,
    `#/playground?text=${b64url(Buffer.from([0xff, 0xfe, 0x3c]))}`,
    `#/playground?text=<svg/onload=window.pwned=1>`,
  ]) {
    const got = await open(link, 8000);
    assert.notEqual(got, "hung", link.slice(0, 60));
    const { page } = got as { page: Page };
    const notice = (await page.locator(".pg-notice").textContent()) ?? "";
    assert.match(notice, /not opened|damaged/, link.slice(0, 60));
    assert.deepEqual(await injected(page), []);
    await page.close();
  }
});

test("a 1 MiB playground program made of errors is checked without hanging the page", async () => {
  const text = Array.from({ length: 60_000 }, (_, i) => `let x${i} be <${i}>`)
    .join("\n")
    .slice(0, 1024 * 1024 - 10);
  const got = await open(`#/playground?program=${b64url(deflateRawSync(Buffer.from(text)))}`, 15_000);
  assert.notEqual(got, "hung");
  const { page, ms } = got as { page: Page; ms: number };
  await page.locator(".pg-status[data-check-ms]").waitFor({ timeout: 15_000 });
  const checkMs = Number(await page.locator(".pg-status").getAttribute("data-check-ms"));
  assert.ok(ms + checkMs < 15_000, `opened in ${ms} ms, checked in ${checkMs} ms`);
  assert.ok((await page.locator(".pg-problems li").count()) <= 201);
  await page.close();
});

test("the playground's recording chooser shows recordings' names and programs as text", async () => {
  const page = await opened("#/playground");
  await page.waitForFunction(() => document.querySelectorAll(".pg-recording option").length > 1, undefined, {
    timeout: 5000,
  });
  const labels = await page.locator(".pg-recording option").allTextContents();
  assert.ok(
    labels.some((l) => l.includes("<img src=x onerror=window.pwned='r'>.json")),
    labels.join("\n"),
  );
  assert.deepEqual(await injected(page), []);
  await page.close();
});

test("no view asked anything of another server", () => {
  assert.deepEqual(outsideRequests(requests, viewing.url), []);
});
