// What `renyi run` loads to compile a program it has not compiled before: the
// reading of its modules and the compile into the cache, with the compiler and
// the validator behind them. scripts/bundle.mjs makes this one CommonJS file,
// dist/cli/compile-bundled.cjs, which code-cache.cts loads with a V8 code cache
// made when the project is built (scripts/compile-cache.mjs): a first run then
// neither parses nor compiles the compiler's code again (bench/RESULTS.md).

export { loadProgram } from "../host/program.js";
export { programCode } from "../host/code-hash.js";
export { compileIntoCache } from "./compile-into-cache.js";
