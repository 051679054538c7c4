// The reference printer, @babel/generator, for the tests that hold the compiler's own printer
// to it (tests/printers.test.ts): loaded in Node alone, and never on the path of a bundle the
// commands make, nor of the compiler bundled for a browser (bundle.ts takes it as an option).

import { createRequire } from "node:module";
import type generateModule from "@babel/generator";
import type { ReferencePrinter } from "./bundle.js";

// @babel/generator is CommonJS, required rather than imported for the reason lower/js.ts gives;
// its function is the module's `default`. Loaded on first use.
let babelGenerate: typeof generateModule | undefined;

export const babelPrinter: ReferencePrinter = {
  name: "babel",
  generate: (...args) =>
    (babelGenerate ??= (createRequire(import.meta.url)("@babel/generator") as { default: typeof generateModule })
      .default)(...args),
};
