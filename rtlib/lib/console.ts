// The `console` module: print and error write a line, read_line reads one.

import { call } from "../gateway.js";
import type { Grant } from "../grants.js";
import { NONE, Some } from "../prelude.js";
import { NOTHING } from "../values.js";
import { writeOut, writeErr, readLine } from "../output.js";

const CONSOLE = { path: ["console"] };

export const print = (grant: Grant, text: string): Promise<null> =>
  call(grant, { name: "std.console.print", need: CONSOLE, result: NOTHING }, { text }, () => {
    writeOut(`${text}\n`);
    return null;
  });
export const error = (grant: Grant, text: string): Promise<null> =>
  call(grant, { name: "std.console.error", need: CONSOLE }, { text }, () => {
    writeErr(`${text}\n`);
    return null;
  });
export const read_line = (grant: Grant): Promise<unknown> =>
  call(grant, { name: "std.console.read_line", need: CONSOLE }, {}, async () => {
    const line = await readLine();
    return line === undefined ? NONE : new Some(line);
  });
