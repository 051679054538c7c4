// What the tests of the editor's name services share: the two-module program
// of fixtures/editor/program/ analysed as the files /w/app.ry and
// /w/lib/weather.ry, and offsets written as a text with `|` where the cursor is.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyse, type Snapshot, type TextOf } from "../editor/analysis.js";
import { ROOT } from "./golden.js";

const PROGRAM = join(ROOT, "fixtures/editor/program");
export const APP = "/w/app.ry";
export const LIB = "/w/lib/weather.ry";

export function programTexts(): TextOf[] {
  return [
    { file: APP, text: readFileSync(join(PROGRAM, "app.ry"), "utf8") },
    { file: LIB, text: readFileSync(join(PROGRAM, "lib/weather.ry"), "utf8") },
  ];
}

export function program(): Snapshot {
  return analyse(programTexts());
}

/** The offset in `file`'s text of the `|` in `marker` (the marker's first place, without its `|`). */
export function offsetOf(snapshot: Snapshot, file: string, marker: string): number {
  const bar = marker.indexOf("|");
  assert.ok(bar >= 0, `the marker ${JSON.stringify(marker)} has no |`);
  const text = snapshot.modules.get(file)!.text;
  const at = text.indexOf(marker.slice(0, bar) + marker.slice(bar + 1));
  assert.ok(at >= 0, `${JSON.stringify(marker)} is not in ${file}`);
  return at + bar;
}

/** The text a span covers. */
export function textOf(snapshot: Snapshot, span: { file: string; start: number; end: number }): string {
  return snapshot.modules.get(span.file)!.text.slice(span.start, span.end);
}

/** Applies edits, by file, to the snapshot's texts. */
export function applied(
  texts: readonly TextOf[],
  edits: readonly { span: { file: string; start: number; end: number }; newText: string }[],
): TextOf[] {
  return texts.map(({ file, text }) => {
    const mine = edits.filter((e) => e.span.file === file).sort((a, b) => b.span.start - a.span.start);
    let out = text;
    for (const e of mine) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
    return { file, text: out };
  });
}
