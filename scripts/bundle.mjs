// Joins what runs on the path of every `renyi run` into one file each, since
// Node loads a module graph file by file (resolve, read, compile, link: about
// half a millisecond a file in a fresh thread):
//
// The runtime (dist/rtlib) as one file: dist/runtime.cjs, a CommonJS
// module, which `renyi run`'s worker and the programs it compiles `require`;
// and dist/runtime.js, the ES module every bundle `renyic build` writes
// imports as `renyi/runtime`, which re-exports the same module, so that a run
// has one instance of each class whichever way its program was loaded.
//
// The runtime's 37 files took about 21 ms to load in the worker against about
// 8 ms for one file. Why CommonJS: a CommonJS program loads without Node's ES
// module loader, about 5 ms more of every run's start-up (bench/RESULTS.md).
// dist/rtlib stays for the tests of its parts.
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { relative as relativePath, resolve as resolvePath } from "node:path";
import { build } from "esbuild";

const dist = new URL("../dist/", import.meta.url).pathname;

// rtlib/host-import.ts, through which the runtime import()s what it loads while
// a program runs, stays a file of its own: the worker compiles the runtime with
// a code cache (cli/cache/code-cache.cts), and code compiled that way has no import().
const hostImportAsItsOwnFile = {
  name: "host-import",
  setup(build) {
    build.onResolve({ filter: /\/host-import\.js$/ }, () => ({ path: "./runtime-import.cjs", external: true }));
  },
};
await build({
  entryPoints: [`${dist}rtlib/index.js`],
  outfile: `${dist}runtime.cjs`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // Loaded on first use, from node_modules, by the modules that need them.
  external: ["undici", "better-sqlite3"],
  plugins: [hostImportAsItsOwnFile],
  // Names of functions and classes stay as written (error messages, stack frames).
  keepNames: true,
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
});
// Node finds the names of a CommonJS module's exports by reading it (esbuild
// writes them where Node looks), so `export *` re-exports every one of them.
// The worker thread's own code (cli/running/worker.cts and the few modules it uses) as
// dist/cli/worker-thread.cjs: about 2 ms of every run's start-up. The runtime is
// not in it: the worker loads that with its code cache (cli/cache/code-cache.cts).
await build({
  entryPoints: [`${dist}cli/running/worker.cjs`],
  outfile: `${dist}cli/worker-thread.cjs`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  keepNames: true,
  // Maps lead back to the sources (for coverage, npm run coverage); Node reads none of them when it runs.
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
});

// The commands other than `run` (`check`, `test`, `explain`...) and what they
// load (the parser, the checker, the lowering, the printer, the validator) as a
// few files beside dist/cli/commands/run.js: dist/cli/commands-bundled.js, and
// the chunks it imports when it needs them. The
// compiler's 100 or so ES modules took about 85 ms to load in a fresh process,
// against about 38 ms as one file. Every file is written to dist/cli itself,
// so that `import.meta.url` names the folder run.ts's own does (it finds the
// runtime from there). The CommonJS modules (.cjs) stay files of their own and
// are shared with the rest of the command: one instance of each (the refusal
// that `instanceof` recognizes, the compile cache), as are the packages in
// node_modules.
const cjsAsTheirOwnFiles = {
  name: "cjs-external",
  setup(build) {
    build.onResolve({ filter: /\.cjs$/ }, (args) => {
      const target = resolvePath(args.resolveDir, args.path);
      const path = relativePath(`${dist}cli`, target);
      return { path: path.startsWith(".") ? path : `./${path}`, external: true };
    });
  },
};
for (const old of readdirSync(`${dist}cli`)) if (old.startsWith("run-chunk-")) rmSync(`${dist}cli/${old}`);
await build({
  // `renyi mcp`'s worker thread (cli/mcp/pool.ts) checks programs with the same chunks, and `renyi view`'s reader
  // (cli/view/reader-process.ts) reads recordings with them.
  entryPoints: {
    "commands-bundled": `${dist}cli/commands/cac-commands.js`,
    "mcp-worker-bundled": `${dist}cli/mcp/worker.js`,
    "view-reader-bundled": `${dist}cli/view/reader.js`,
  },
  outdir: `${dist}cli`,
  chunkNames: "run-chunk-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  plugins: [cjsAsTheirOwnFiles],
  keepNames: true,
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
});

// `renyi run`'s own code on the main thread as one CommonJS file,
// dist/cli/run-bundled.cjs, which the `renyi` command requires for `run`: with
// no ES module on the path, the main thread does without Node's ES module
// loader (its resolving, its reads through fs/promises, the lexer that finds a
// CommonJS module's names): about half of the time it took to load `run` as
// ES module chunks, and CPU time the booting worker thread would otherwise
// share two cores with (bench/RESULTS.md, start-up). What only some runs
// need (a replay, a trace, --json) is in the file too, evaluated only when
// imported. The .cjs modules stay shared, as above; the packages stay in node_modules.
for (const old of ["run-bundled.js", "run-bundled.js.map"]) rmSync(`${dist}cli/${old}`, { force: true });
const runBundled = await build({
  entryPoints: [`${dist}cli/commands/run.js`],
  outfile: `${dist}cli/run-bundled.cjs`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  packages: "external",
  plugins: [cjsAsTheirOwnFiles],
  // Loaded with a code cache (code-cache.cts), whose code cannot import(): the packages a
  // trace sends with are required (each has a CommonJS build).
  supported: { "dynamic-import": false },
  define: { "import.meta.url": "__runBundledUrl" },
  banner: { js: 'const __runBundledUrl = require("node:url").pathToFileURL(__filename).href;' },
  keepNames: true,
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
});
// So every package it reaches must have a CommonJS entry: one that has none is refused here, not at a run.
const requireFromRunBundled = createRequire(`${dist}cli/run-bundled.cjs`);
for (const { path } of Object.values(runBundled.metafile.outputs).flatMap((o) => o.imports)) {
  if (path.startsWith("node:") || path.startsWith(".")) continue;
  try {
    requireFromRunBundled.resolve(path);
  } catch (e) {
    throw new Error(`run-bundled.cjs requires ${path}, which has no CommonJS entry: ${e.message}`);
  }
}

// `renyi run`'s compile path (cli/cache/compile-path.ts: reading a program's modules,
// the compiler, the validator and acorn) as one CommonJS file, which
// cli/cache/code-cache.cts loads with the V8 code cache scripts/compile-cache.mjs makes
// for it: a program's first run neither parses nor compiles the compiler's code.
// Code compiled that way cannot import(): every module it reaches is bundled in
// (the check below refuses a build that left one), the .cjs modules shared as above.
const compilePath = await build({
  entryPoints: [`${dist}cli/cache/compile-path.js`],
  outfile: `${dist}cli/compile-bundled.cjs`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  plugins: [cjsAsTheirOwnFiles],
  external: ["@babel/generator"],
  // compiler/emit/bundle.ts finds Babel's printer (for the tests alone) from its own URL.
  define: { "import.meta.url": "__compilePathUrl" },
  banner: { js: 'const __compilePathUrl = require("node:url").pathToFileURL(__filename).href;' },
  keepNames: true,
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
});
const leftImports = Object.values(compilePath.metafile.outputs).flatMap((o) =>
  o.imports.filter((i) => i.kind === "dynamic-import"),
);
if (leftImports.length > 0)
  throw new Error(
    `the compile path imports ${leftImports.map((i) => i.path).join(", ")} at run time, which code with a code ` +
      `cache cannot`,
  );

writeFileSync(
  `${dist}runtime-import.cjs`,
  '"use strict";\n// rtlib/host-import.ts for the runtime as one file (scripts/bundle.mjs).\n' +
    "exports.hostImport = (specifier) => import(specifier);\n",
);
writeFileSync(
  `${dist}runtime.js`,
  '// The runtime as an ES module: the same module as runtime.cjs.\nexport * from "./runtime.cjs";\n',
);
