// The `console` module: print and error write a line, read_line reads one.

import { call } from "../gateway.js";
import { NONE, Some } from "../prelude.js";
import { writeOut, writeErr, readLine } from "../output.js";

export const print = (text: string): Promise<null> => call("std.console.print", { text }, () => (writeOut(text + "\n"), null));
export const error = (text: string): Promise<null> => call("std.console.error", { text }, () => (writeErr(text + "\n"), null));
export const read_line = (): Promise<unknown> =>
  call("std.console.read_line", {}, async () => {
    const line = await readLine();
    return line === undefined ? NONE : new Some(line);
  });
