// The types of dist/runtime.js, the runtime joined into one file at build time
// (scripts/bundle-runtime.mjs): the same module as rtlib/index.ts.
export * from "./rtlib/index.js";
