// Texts the grammar takes as plain values, without interpolation.

import type { Cursor, Expect } from "./cursor.js";
import type { TextLiteralValue } from "./tree.js";

/** A text without interpolation: a test's name, a JSON key, a scope, a recording's path. */
export function parseTextValue(p: Cursor, what: string, how: Expect = {}): TextLiteralValue {
  const start = p.pos;
  if (p.kindAt(start) !== "text_start" || p.atLineBreak) return p.fail(`a text: ${what}`, how);
  p.advance();
  let value = "";
  while (!p.at("text_end")) {
    const token = p.pos;
    if (p.kindAt(token) === "text_part") {
      value += p.valueAt(token) as string;
      p.advance();
    } else if (p.kindAt(token) === "interp_start") {
      p.problem("E-SYN-INTERPOLATION", p.spanOf(token), { problem: "not-allowed", what });
      // Skip the interpolation's tokens, texts nested in it included.
      let depth = 0;
      do {
        if (p.at("interp_start")) depth++;
        if (p.at("interp_end")) depth--;
        p.advance();
      } while (depth > 0 && !p.at("eof"));
    } else {
      return p.fail("the end of the text");
    }
  }
  p.advance();
  return { kind: "TextLiteralValue", value, span: p.spanFrom(start) };
}
