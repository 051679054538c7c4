// Collection sizes (seed 002: 10,000,000 elements in a list, 64 MiB in a text),
// checked before building where the size is known.

import { Crash } from "./errors.js";

export const MAX_ELEMENTS = 10_000_000;

export function checkCollection(size: number, what: string): void {
  if (size > MAX_ELEMENTS) {
    throw new Crash("E-RT-LIMIT-COLLECTION", `${what} would build ${size.toLocaleString("en")} elements, more than the limit of ${MAX_ELEMENTS.toLocaleString("en")}`, "limit");
  }
}
