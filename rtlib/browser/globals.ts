// The globals `Buffer` and `process` as the runtime bundled for a browser sees them
// (spec/view.md, section 8): scripts/browser-seams.mjs injects these in that bundle alone, in
// place of Node's. `process` has what a run in the playground's worker reaches: its standard
// output and error, which go where the worker says (writeTo), no environment, no input, no
// signals and no working folder but `/`.

export { Buffer } from "./buffer.js";

type Write = (text: string) => void;

let out: Write = () => {};
let err: Write = () => {};

/** Where the program's standard output and error go from now on. */
export function writeTo(stdout: Write, stderr: Write): void {
  out = stdout;
  err = stderr;
}

function written(write: Write, text: string): true {
  write(text);
  return true;
}

function refused(what: string): never {
  throw new Error(`${what} is not available in a browser`);
}

export const process = {
  stdout: { write: (text: string) => written(out, text), end: () => {} },
  stderr: { write: (text: string) => written(err, text), end: () => {} },
  stdin: undefined,
  env: Object.freeze(Object.create(null) as Record<string, string | undefined>),
  argv: [] as string[],
  platform: "browser",
  cwd: () => "/",
  kill: () => refused("process.kill"),
  exit: () => refused("process.exit"),
  on: () => process,
  once: () => process,
  off: () => process,
  getBuiltinModule: undefined,
};
