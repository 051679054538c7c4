// At most the bytes the engine's JSON.parse can build from a JSON text, without parsing it: the text twice over (its
// strings, which may be kept two bytes a character), and for each character that opens something what it can cost at
// the most: `{` an object, `[` an array, `,` and `:` a slot and what it holds (a number boxed on its own), `"` half a
// string's header. Generous by design (for `[{},{},...]` about twice what is built), so that a parse it lets through
// cannot take a thread past its heap limit (rtlib/limits-memory.ts, checkRoomForJson).

/** What one character of JSON text can cost at the most once parsed: an object's. */
export const MOST_PER_CHARACTER = 96;

/** At most the bytes JSON.parse can build from `text` (a string, or its UTF-8 bytes). */
export function jsonHeapBound(text: string | Uint8Array): number {
  let bound = text.length * 2;
  const isString = typeof text === "string";
  for (let i = 0; i < text.length; i++) {
    const c = isString ? text.charCodeAt(i) : text[i]!;
    if (c === 123) bound += MOST_PER_CHARACTER;
    else if (c === 91) bound += 48;
    else if (c === 44 || c === 58) bound += 32;
    else if (c === 34) bound += 16;
  }
  return bound;
}
