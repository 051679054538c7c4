// Source files and spans live in report/source.ts, which the runtime and the
// command line import too (a crash is shown at its .ry line); the compiler's
// phases keep importing them from here.
export * from "../report/source.js";
