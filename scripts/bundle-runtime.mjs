// Writes dist/runtime.js: the runtime (dist/rtlib) as one ES module, the file
// every compiled program imports as `renyi/runtime` and the worker loads.
//
// Why one file: Node loads an ES module graph file by file (resolve, read,
// compile, link), about half a millisecond a file; the runtime's 37 files took
// about 21 ms to load and the bundle about 7, on the path of every `renyi run`
// (bench/RESULTS.md, start-up). dist/rtlib stays for the tests of its parts;
// a running program sees only this file, so it has one instance of each class.
import { build } from "esbuild";

const dist = new URL("../dist/", import.meta.url).pathname;
await build({
  entryPoints: [`${dist}rtlib/index.js`],
  outfile: `${dist}runtime.js`,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Loaded on first use, from node_modules, by the modules that need them.
  external: ["undici", "better-sqlite3"],
  // Names of functions and classes stay as written (error messages, stack frames).
  keepNames: true,
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
});
