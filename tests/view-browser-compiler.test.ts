// The compiler's program API in a browser (spec/view.md, section 8): compiler/build.ts and
// the code hash bundled by esbuild for a browser with nothing in place of any Node module (a
// Node module on the path fails the bundle), run in Debian's chromium, must give byte for byte
// the JavaScript, the source map, the diagnostics and the code hash Node gives, for every
// example and the fixtures of emit/, run/ and check/. The code hash is the pure SHA-256 there
// (report/sha256-pure.ts) and node:crypto's here, so the two are compared on real programs too.

import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { test } from "node:test";
import { build } from "esbuild";
import { goldenFiles, readSections, ROOT } from "./golden.js";
import { startView, withBrowser } from "./browser-support.js";
import { compileForComparison, type Compared, type Program } from "./view-browser-compile.js";

function programs(): Program[] {
  const out: Program[] = [];
  for (const file of readdirSync(join(ROOT, "examples"))
    .filter((f) => f.endsWith(".ry"))
    .sort())
    out.push({ file, text: readFileSync(join(ROOT, "examples", file), "utf8") });
  for (const folder of ["emit", "run", "check"])
    for (const path of goldenFiles(join(ROOT, "fixtures", folder))) {
      const text = readSections(path).get("source");
      if (text !== undefined)
        out.push({ file: `${basename(path, ".golden").replace(/[^A-Za-z0-9_]/g, "_")}.ry`, text });
    }
  return out;
}

test("the compiler bundled for a browser compiles in chromium what it compiles in Node, byte for byte", async () => {
  const bundled = await build({
    stdin: {
      contents:
        'import { compileForComparison } from "./tests/view-browser-compile.ts";\n' +
        "window.compileAll = (programs) => programs.map(compileForComparison);\n",
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "browser",
    format: "iife",
    write: false,
    logLevel: "silent",
  });
  const script = bundled.outputFiles[0]!.text;
  assert.ok(!/\brequire\(["']node:/.test(script), "the bundle requires no Node module");
  const all = programs();
  const inNode = all.map(compileForComparison);
  const folder = mkdtempSync(join(tmpdir(), "renyi-view-compiler-"));
  const viewing = await startView(folder, []);
  try {
    await withBrowser(async ({ newPage, errors }) => {
      const page = await newPage();
      // The page of renyi view, and the bundle evaluated in it through the browser's devtools.
      await page.goto(viewing.url);
      await page.evaluate(script);
      const inBrowser = await page.evaluate(
        (p) => (window as unknown as { compileAll: (p: Program[]) => Compared[] }).compileAll(p),
        all,
      );
      assert.equal(inBrowser.length, all.length);
      let compiled = 0;
      let refused = 0;
      for (let i = 0; i < all.length; i++) {
        const name = all[i]!.file;
        const node = inNode[i]!;
        const browser = inBrowser[i]!;
        assert.equal(browser.code, node.code, `${name}: the JavaScript differs`);
        assert.equal(browser.map, node.map, `${name}: the source map differs`);
        assert.equal(browser.diagnostics, node.diagnostics, `${name}: the diagnostics differ`);
        assert.equal(browser.codeHash, node.codeHash, `${name}: the code hash differs`);
        if (node.code !== undefined) compiled++;
        else refused++;
      }
      console.log(
        `browser compiler: ${all.length} programs, ${compiled} compiled and ${refused} refused, the same in chromium ` +
          "as in Node",
      );
      assert.ok(compiled >= 40 && refused >= 20, `${compiled} compiled and ${refused} refused: too few to say much`);
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
