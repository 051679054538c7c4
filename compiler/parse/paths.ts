// Dotted paths whose last part must be capitalised: type names
// (`weather.Forecast`) and case names in patterns (`Shape.Circle`).

import { Cursor } from "./cursor.js";
import type { Ident } from "./tree.js";

/**
 * Reads `part { "." part }` from the current token, then reports `code` when the
 * last part is not capitalised; `problem` says what the path should have been.
 */
export function parseCapitalisedPath(p: Cursor, what: string, code: string, problem: (path: Ident[]) => { message: string; label: string; hint: string }): Ident[] {
  const path: Ident[] = [p.ident(p.advance())];
  while (p.at(".") && !p.atLineBreak) {
    p.advance();
    const kind = p.kind;
    if (kind !== "upper" && kind !== "name") p.fail(`${what} after \`.\``);
    path.push(p.ident(p.advance()));
  }
  const last = path[path.length - 1]!;
  if (!/^[A-Z]/.test(last.name)) {
    const { message, label, hint } = problem(path);
    p.report(code, last.span, message, { label, hint });
  }
  return path;
}
