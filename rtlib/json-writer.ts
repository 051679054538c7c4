// JSON text for plain JSON values nested deeper than the engine's JSON.stringify can
// go: it writes with the engine's stack, and a value nested a million deep (a chain
// of records a loop built, turned into JSON values) overflows it. This writes the
// same text with a stack of its own, within the text limit; the engine's is tried
// first, being faster for every value it can write.

import { MAX_TEXT, textTooLong } from "./limits-collections.js";

/** An array or object being written: its keys (none for an array) and the next part to write. */
interface Open {
  readonly keys: readonly string[] | undefined;
  readonly value: unknown[] | Record<string, unknown>;
  next: number;
}

export function deepJsonText(root: unknown): string {
  const out: string[] = [];
  let length = 0;
  const write = (piece: string): void => {
    length += piece.length;
    if (length > MAX_TEXT) textTooLong(length, "writing a Json value as text");
    out.push(piece);
  };
  const stack: Open[] = [];
  /** Writes a value with no parts, or its opening, pushing it to be finished. */
  const start = (value: unknown): void => {
    if (Array.isArray(value)) {
      write("[");
      stack.push({ keys: undefined, value, next: 0 });
    } else if (typeof value === "object" && value !== null) {
      write("{");
      const object = value as Record<string, unknown>;
      stack.push({ keys: Object.keys(object).filter((k) => written(object[k])), value: object, next: 0 });
    } else {
      // (undefined and functions are left out of objects before they get here, and are null in arrays.)
      write(written(value) ? (JSON.stringify(value) as string) : "null");
    }
  };
  start(root);
  while (stack.length > 0) {
    const open = stack[stack.length - 1]!;
    const i = open.next++;
    if (open.keys === undefined) {
      const items = open.value as unknown[];
      if (i === items.length) {
        write("]");
        stack.pop();
        continue;
      }
      if (i > 0) write(",");
      start(items[i]);
    } else {
      if (i === open.keys.length) {
        write("}");
        stack.pop();
        continue;
      }
      const key = open.keys[i]!;
      write(`${i > 0 ? "," : ""}${JSON.stringify(key)}:`);
      start((open.value as Record<string, unknown>)[key]);
    }
  }
  return out.join("");
}

/** Whether JSON.stringify writes an object's property of this value (it leaves out undefined and functions). */
function written(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}
