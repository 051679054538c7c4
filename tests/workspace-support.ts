// What the tests of the editor's workspace compare: the views of the
// workspace against those of analyse, checking from scratch.

import assert from "node:assert/strict";
import { analyse, type Snapshot, type TextOf } from "../editor/analysis.js";
import { Workspace } from "../editor/workspace.js";

/** What a view shows, as data to compare. */
function shown(snapshot: Snapshot, file: string): unknown {
  const view = snapshot.modules.get(file);
  if (view === undefined) return undefined;
  return {
    diagnostics: view.diagnostics.map((d) => ({
      code: d.code,
      span: d.span,
      message: d.message,
      edits: d.edits,
      related: d.related,
    })),
    checked: view.checked === undefined ? undefined : view.checked.functions.map((f) => f.name),
    reaches: view.reaches,
  };
}

export function assertAgrees(workspace: Workspace, files: readonly TextOf[], what: string): void {
  const ours = workspace.snapshot();
  const plain = analyse(files);
  for (const { file } of files) assert.deepEqual(shown(ours, file), shown(plain, file), `${what}: ${file}`);
}

/** A workspace over `files`, all open; the files not open read from `disk`. */
export function opened(files: readonly TextOf[], disk: ReadonlyMap<string, string> = new Map()): Workspace {
  const workspace = new Workspace((f) => disk.get(f));
  for (const f of files) workspace.set(f.file, f.text);
  return workspace;
}
