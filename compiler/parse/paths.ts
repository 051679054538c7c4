// Dotted paths whose last part must be capitalised: type names
// (`weather.Forecast`) and case names in patterns (`Shape.Circle`).

import { EDIT_TITLES } from "../../vocabulary/problems/syntax.js";
import type { SuggestedEdit } from "../diagnostics.js";
import type { Cursor } from "./cursor.js";
import type { Ident } from "./tree.js";

/**
 * Reads `part { "." part }` from the current token, then calls `report` when
 * the last part is not capitalised.
 */
export function parseCapitalisedPath(p: Cursor, what: string, report: (last: Ident, path: Ident[]) => void): Ident[] {
  const path: Ident[] = [p.ident(p.advance())];
  while (p.at(".") && !p.atLineBreak) {
    p.advance();
    const kind = p.kind;
    if (kind !== "upper" && kind !== "name") p.fail(`${what} after \`.\``);
    path.push(p.ident(p.advance()));
  }
  const last = path[path.length - 1]!;
  if (!/^[A-Z]/.test(last.name)) {
    report(last, path);
  }
  return path;
}

/** The edit that capitalises a name: `list` becomes `List`. */
export function capitalised(name: Ident): SuggestedEdit {
  const replacement = name.name.charAt(0).toUpperCase() + name.name.slice(1);
  return { title: EDIT_TITLES.replace(name.name, replacement), span: name.span, replacement };
}
