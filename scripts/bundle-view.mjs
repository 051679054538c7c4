// Builds the page of `renyi view` into dist/view: the page's script (view/app.ts), the
// playground's worker (view/playground/worker.ts) with the compiler and the runtime inside,
// the document and its style. Bundled for a browser from the TypeScript sources: a Node
// module anywhere on their paths (node:crypto, node:fs...) fails the build, which is how the
// compiler's program API is kept usable in a browser. Everything the page loads is here:
// it fetches nothing from outside (its Content-Security-Policy says so too).
import { copyFileSync, mkdirSync } from "node:fs";
import { build } from "esbuild";
import { browserSeams } from "./browser-seams.mjs";

const root = new URL("../", import.meta.url).pathname;
const out = `${root}dist/view/`;
mkdirSync(out, { recursive: true });

const common = {
  bundle: true,
  platform: "browser",
  target: "chrome120",
  // Names of functions and classes stay as written (the runtime's errors name them).
  keepNames: true,
  minify: true,
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  // The compiler reads `process.env` nowhere on the program path; anything that does is a mistake here.
  define: { "process.env.NODE_ENV": '"production"' },
};
await build({ ...common, entryPoints: [`${root}view/app.ts`], outfile: `${out}app.js`, format: "esm" });
// The worker holds the runtime, whose few Node modules have a browser's stand-ins (browser-seams.mjs).
await build({
  ...common,
  ...browserSeams,
  entryPoints: [`${root}view/playground/worker.ts`],
  outfile: `${out}worker.js`,
  format: "iife",
});
for (const file of ["index.html", "style.css"]) copyFileSync(`${root}view/${file}`, `${out}${file}`);
// The playground's page, loaded by app.js when the playground is opened (view/app.ts).
await build({
  ...common,
  entryPoints: [`${root}view/playground/page.ts`],
  outfile: `${out}playground.js`,
  format: "esm",
});
