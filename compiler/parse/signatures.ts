// What a function and a function value share: the parameters, and the
// `purpose:` and `needs` lines under the signature.

import { SyntaxFailure, type Cursor } from "./cursor.js";
import { parseExpression } from "./expressions.js";
import { parseNeedsClause } from "./needs.js";
import type { Needs, Param, Purpose } from "./tree.js";
import { parseType } from "./types.js";

/** `(name: Type, name: Type = default)` */
export function parseParams(p: Cursor): Param[] {
  const open = p.expect("(", "`(` and the parameters", { guide: "parameters", sameLine: true });
  return p.withLineBreaks(false, () => {
    const params: Param[] = [];
    while (!p.at(")")) {
      const start = p.pos;
      if (!p.atLabel()) p.fail("a parameter: a name, `:` and a type", { guide: "parameter" });
      const name = p.ident(p.advance());
      p.advance(); // :
      const type = parseType(p);
      const value = p.eat("=") ? parseExpression(p) : undefined;
      params.push({ kind: "Param", name, type, ...(value ? { default: value } : {}), span: p.spanFrom(start) });
      if (!p.eat(",")) break;
    }
    p.expect(")", "`,` or `)` after a parameter", { opened: { at: open, by: "parameters" } });
    return params;
  });
}

/** `purpose:` and `needs` lines, in either order, each at most once. */
export function parseHeaderLines(p: Cursor): { purpose?: Purpose; needs?: Needs } {
  let purpose: Purpose | undefined;
  let needs: Needs | undefined;
  while (p.at("purpose") || p.at("needs")) {
    const token = p.pos;
    if ((p.kindAt(token) === "purpose" && purpose) || (p.kindAt(token) === "needs" && needs)) {
      p.problem("E-SYN-HEADER", p.spanOf(token), { line: p.kindAt(token) === "needs" ? "needs" : "purpose" });
    }
    const lineStart = p.pos;
    try {
      if (p.kindAt(token) === "purpose") purpose = parsePurpose(p);
      else needs = parseNeedsClause(p, "definition");
      expectNewLine(p, p.kindAt(token) === "purpose" ? "the purpose" : "the needs");
    } catch (e) {
      if (!(e instanceof SyntaxFailure)) throw e;
      p.synchronize(lineStart);
    }
  }
  return { ...(purpose ? { purpose } : {}), ...(needs ? { needs } : {}) };
}

export function parsePurpose(p: Cursor): Purpose {
  const start = p.advance(); // purpose
  p.expect(":", "`:` after `purpose`", { guide: "purpose" });
  const prose = p.pos;
  if (p.kindAt(prose) !== "prose" || p.textAt(prose) === "") {
    p.failWith("E-SYN-PURPOSE", p.missing().span, {});
  }
  p.advance();
  return { kind: "Purpose", text: p.textAt(prose), span: p.spanFrom(start) };
}

export function expectNewLine(p: Cursor, after: string): void {
  if (!p.atLineBreak && !p.at("eof")) p.fail(`a new line after ${after}`);
}
