// Go to definition and find references, across the modules of a snapshot: a
// name's target (name-index.ts) is the same in every module that names it,
// through `use` and its alias (`w.forecast`), so a definition is where its
// declaring file declares it and a reference is every name with that target.
// A library function, a type of the language or a capability has no
// definition in the program; its references are still found.
//
// Cost: definition, a pass over the names of the file and of the declaring
// file; references, a pass over the names of every module of the snapshot
// (of the one file, for a local that no other module can name): linear in
// their size. A module's names are found once (name-index.ts).

import type { Snapshot } from "./analysis.js";
import { declarationOf, nameAtOffset, referencesTo, type Span } from "./name-index.js";

/** Where the name at `offset` is declared, if it is declared in the program. */
export function definition(snapshot: Snapshot, file: string, offset: number): Span | undefined {
  const found = nameAtOffset(snapshot, file, offset);
  return found === undefined ? undefined : declarationOf(snapshot, found.use.target);
}

/** Every place that names what the name at `offset` names, its declaration too when `includeDeclaration`. */
export function references(snapshot: Snapshot, file: string, offset: number, includeDeclaration: boolean): Span[] {
  const found = nameAtOffset(snapshot, file, offset);
  if (found === undefined) return [];
  return referencesTo(snapshot, found.use.target, includeDeclaration).map((u) => u.span);
}
