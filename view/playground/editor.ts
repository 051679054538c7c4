// The playground's editor: CodeMirror 6 with the compiler's colours and diagnostics. The page
// checks the text (check.ts) after each pause in typing and hands the result here: the tokens
// become mark decorations (a class a kind, styled in view/style.css: CodeMirror's own styles go
// through adoptedStyleSheets, which the page's Content-Security-Policy allows, and nothing here
// writes a <style> element), the diagnostics become @codemirror/lint's, each suggested edit a
// lint action that applies it.

import { EditorState, Prec, StateEffect, StateField, type Extension, type Text } from "@codemirror/state";
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  type DecorationSet,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  lintGutter,
  lintKeymap,
  setDiagnostics,
  type Action,
  type Diagnostic as LintDiagnostic,
} from "@codemirror/lint";
import type { Diagnostic, SuggestedEdit } from "../../compiler/diagnostics.js";
import type { SemanticToken } from "../../editor/semantic-tokens.js";

/** The most diagnostics handed to the editor at once (a file of stray characters has one a character). */
export const MAX_SHOWN_DIAGNOSTICS = 200;

const setTokens = StateEffect.define<DecorationSet>();

/** The colours: replaced after each check, moved with the text between checks. */
const tokenField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, transaction) {
    let out = decorations.map(transaction.changes);
    for (const effect of transaction.effects) if (effect.is(setTokens)) out = effect.value;
    return out;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const marks = new Map<string, Decoration>();
function markOf(token: SemanticToken): Decoration {
  const name = ["rt", `rt-${token.type}`, ...token.modifiers.map((m) => `rt-${m}`)].join(" ");
  let mark = marks.get(name);
  if (mark === undefined) {
    mark = Decoration.mark({ class: name });
    marks.set(name, mark);
  }
  return mark;
}

/** The tokens of a check of `doc` as decorations (a token past the text's end, from an older text, is dropped). */
function decorationsOf(doc: Text, tokens: readonly SemanticToken[]): DecorationSet {
  const ranges = [];
  for (const token of tokens) {
    if (token.line + 1 > doc.lines) continue;
    const line = doc.line(token.line + 1);
    const from = line.from + token.character;
    const to = Math.min(from + token.length, line.to);
    if (token.length > 0 && from < to) ranges.push(markOf(token).range(from, to));
  }
  return Decoration.set(ranges, true);
}

export interface EditorHooks {
  /** Called on every change of the text (the page schedules a check). */
  readonly changed: () => void;
  /** Ctrl-Enter (Cmd-Enter). */
  readonly run: () => void;
}

/**
 * The editor, in a shadow root of `host`: CodeMirror's style module puts its styles in a <style>
 * element in a document (which the page's Content-Security-Policy refuses) and in the
 * adoptedStyleSheets of a shadow root (which it allows). The page's style sheet is linked into the
 * shadow root too, for the compiler's colours.
 */
export function makeEditor(host: HTMLElement, text: string, hooks: EditorHooks): EditorView {
  const root = host.attachShadow({ mode: "open" });
  const parent = document.createElement("div");
  parent.className = "pg-mount";
  const sheet = document.createElement("link");
  sheet.rel = "stylesheet";
  sheet.href = "style.css";
  root.append(sheet, parent);
  const extensions: Extension[] = [
    lineNumbers(),
    highlightSpecialChars(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    lintGutter(),
    tokenField,
    Prec.highest(
      keymap.of([
        {
          key: "Mod-Enter",
          run: () => {
            hooks.run();
            return true;
          },
        },
      ]),
    ),
    keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
    EditorState.tabSize.of(2),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ "aria-label": "The program", spellcheck: "false" }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) hooks.changed();
    }),
  ];
  return new EditorView({ parent, root, state: EditorState.create({ doc: text, extensions }) });
}

/** Shows a check of the editor's current text: its colours and its diagnostics. */
export function showCheck(
  view: EditorView,
  tokens: readonly SemanticToken[],
  diagnostics: readonly Diagnostic[],
  file: string,
): void {
  const doc = view.state.doc;
  const shown = diagnostics.slice(0, MAX_SHOWN_DIAGNOSTICS).map((d) => lintDiagnostic(doc, d, file));
  view.dispatch(setDiagnostics(view.state, shown), { effects: setTokens.of(decorationsOf(doc, tokens)) });
}

function lintDiagnostic(doc: Text, d: Diagnostic, file: string): LintDiagnostic {
  const from = Math.min(d.span.start, doc.length);
  const to = Math.max(from, Math.min(d.span.end, doc.length));
  const message = [d.message, ...d.notes, ...(d.hint === undefined ? [] : [d.hint])].join("\n");
  const actions: Action[] = (d.edits ?? [])
    .filter((edit) => edit.span.file === file)
    .map((edit) => ({ name: edit.title, apply: (view, movedFrom) => applyEdit(view, doc, edit, movedFrom - from) }));
  return { from, to, severity: d.severity, source: d.code, message, actions, markClass: `rt-code-${d.code}` };
}

/**
 * Applies a suggested edit made for `checked`. When the text changed since, the edit moves as its
 * diagnostic moved (`shift`), and is not applied when it would fall outside the text.
 */
export function applyEdit(view: EditorView, checked: Text, edit: SuggestedEdit, shift = 0): void {
  const moved = view.state.doc === checked ? 0 : shift;
  const from = edit.span.start + moved;
  const to = edit.span.end + moved;
  if (from < 0 || to > view.state.doc.length || from > to) return;
  view.dispatch({
    changes: { from, to, insert: edit.replacement },
    selection: { anchor: from + edit.replacement.length },
  });
  view.focus();
}

/** Moves the cursor to a 1-based line and column (clamped to the text) and shows it. */
export function moveTo(view: EditorView, line: number, column = 1): void {
  const doc = view.state.doc;
  const at = doc.line(Math.max(1, Math.min(Math.floor(line), doc.lines)));
  const pos = Math.min(at.from + Math.max(0, Math.floor(column) - 1), at.to);
  view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
  view.focus();
}
