// What the compiler and the runtime need to be bundled for a browser (spec/view.md, section 8),
// as esbuild options for the playground's worker (scripts/bundle-view.mjs) and the tests that
// bundle it: each Node module the runtime names is put in place by one of rtlib/browser/ (a
// posix path, Buffer, modules a browser run never needs), the runtime's hostImport by the
// browser's, and the globals `Buffer` and `process` by rtlib/browser/globals.ts. A Node module
// not listed here fails the build, as any on the page's own path does.

const root = new URL("../", import.meta.url).pathname;
const browser = `${root}rtlib/browser/`;

/** The Node modules the runtime names, and what stands in for each in a browser. */
const NODE_MODULES = {
  "node:path": `${browser}posix-path.ts`,
  "node:buffer": `${browser}buffer.ts`,
  "node:url": `${browser}node-refused.ts`,
  "node:worker_threads": `${browser}node-refused.ts`,
  "node:v8": `${browser}node-refused.ts`,
  "node:vm": `${browser}node-refused.ts`,
};

/** @type {import("esbuild").Plugin} */
const seams = {
  name: "browser-seams",
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => {
      const path = NODE_MODULES[args.path];
      return path === undefined ? undefined : { path };
    });
    build.onResolve({ filter: /\/host-import\.js$/ }, (args) =>
      args.importer.startsWith(`${root}rtlib/`) && !args.importer.startsWith(browser)
        ? { path: `${browser}host-import.ts` }
        : undefined,
    );
  },
};

/** esbuild's options for a bundle of the compiler and the runtime that runs in a browser. */
export const browserSeams = {
  plugins: [seams],
  inject: [`${browser}globals.ts`],
};
