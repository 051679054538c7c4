// The playground (#/playground): a program edited in the page, checked as it is typed, run in a
// Web Worker under limits the page shows, shared as a link that holds its text.
//
//   #/playground                  a small program to start from
//   #/playground?program=X        the program a shared link holds (share.ts)
//   #/playground?text=X           the same, uncompressed
//   #/playground?from=ID          a program file the server found (api/text)
//
// The check runs in the page, on the main thread, after each pause in typing (check.ts); the run
// in a fresh worker each time (worker.js, whose Content-Security-Policy lets it evaluate the
// compiled program and reach nothing). console, time and random are live in the worker; every
// other capability is answered from the recording chosen in the page, or refused when none is.
// With Narrate checked the run is narrated (as `renyi run --explain`), in a panel of its own;
// with a recording, time and random are then answered from it too.

import type { Item, ItemList, PlaygroundLimits } from "../api.js";
import { el } from "../dom.js";
import { api, apiText } from "../fetch-api.js";
import { checkPlayground } from "./check.js";
import { applyEdit, makeEditor, MAX_SHOWN_DIAGNOSTICS, moveTo, showCheck } from "./editor.js";
import { PLAYGROUND_LIMITS, runInWorker } from "./run-in-worker.js";
import { linkFragment, MAX_PROGRAM_BYTES, programOfLink } from "./share.js";

const STARTER = `-- A program to try: change it, then Run (Ctrl-Enter).

public function main(name: Text = "world")
  purpose: Greet someone by name.
  needs console
  console.print("Hello, {name}!")
end
`;

/** Each limit's field: its label, and the most it may be set to. */
const LIMIT_FIELDS: readonly { key: keyof PlaygroundLimits; label: string; max: number }[] = [
  { key: "fuel", label: "Fuel (steps)", max: 50_000_000_000 },
  { key: "depth", label: "Depth (nested calls)", max: 10_000 },
  { key: "outputBytes", label: "Output (bytes)", max: 4 * 1024 * 1024 },
  { key: "timeMs", label: "Time (ms)", max: 10 * 60 * 1000 },
];

/** The pause in typing after which the text is checked again. */
const CHECK_PAUSE_MS = 120;

/** What the playground shown last leaves running (a check scheduled, a run): ended when another view is shown. */
let leaveLast: (() => void) | undefined;

export async function showPlayground(main: HTMLElement, _parts: string[], query: URLSearchParams): Promise<void> {
  leaveLast?.();
  leaveLast = undefined;

  const notice = el("p", { class: "pg-notice", role: "status" });
  const failure = (message: string) => notice.replaceChildren(el("span", { class: "failure" }, message));

  // The program: a link's, a file's, or the starter.
  let text = STARTER;
  let file = "playground.ry";
  const from = query.get("from");
  try {
    const linked = await programOfLink(query);
    if (linked !== undefined) text = linked;
    else if (from !== null) {
      const loaded = await apiText(`text?id=${encodeURIComponent(from)}`);
      if (loaded.length > MAX_PROGRAM_BYTES)
        throw new Error(`${from} is over ${MAX_PROGRAM_BYTES / 1024 / 1024} MiB: it is not opened here`);
      text = loaded;
      file = fileNameOf(from);
      notice.textContent = `Opened ${from}.`;
    }
  } catch (error) {
    failure(error instanceof Error ? error.message : String(error));
  }
  const itemsLoaded = api<ItemList>("items").then(
    (list) => list.items.filter((item) => item.kind === "recording"),
    (error: unknown) => error,
  );

  // ---- the elements ----
  const runButton = el("button", { type: "button", class: "pg-run", title: "Run the program (Ctrl-Enter)" }, "Run");
  const stopButton = el("button", { type: "button", class: "pg-stop", disabled: "" }, "Stop");
  const narrateBox = el("input", { type: "checkbox", class: "pg-narrate" });
  const narrateLabel = el(
    "label",
    { title: "Narrate the run, as renyi run --explain does: a line per call, per effect and per failure" },
    narrateBox,
    " Narrate",
  );
  const narration = el("pre", { class: "pg-output pg-narration", "aria-label": "The run's narration" });
  const narrationPanel = el("div", { class: "pg-narration-panel", hidden: "" }, el("h2", {}, "Narration"), narration);
  narrateBox.addEventListener("change", () => {
    narrationPanel.hidden = !narrateBox.checked;
  });
  const copyButton = el("button", { type: "button", class: "pg-copy" }, "Copy link");
  const linkField = el("input", {
    type: "text",
    class: "pg-link",
    readonly: "",
    "aria-label": "The link to this program",
    placeholder: "Copy link puts the program's link here",
  });
  const status = el("p", { class: "pg-status", role: "status" });
  const problems = el("ul", { class: "pg-problems" });
  const grant = el("p", { class: "pg-grant-words" });
  const chooser = el("select", { class: "pg-recording", "aria-label": "The recording the run replays" });
  chooser.append(el("option", { value: "" }, "none: console, time and random only"));
  const chooserNote = el("p", { class: "pg-note" });
  const limitInputs = new Map<keyof PlaygroundLimits, HTMLInputElement>();
  const limits = el("fieldset", { class: "pg-limits" }, el("legend", {}, "Limits of a run"));
  for (const field of LIMIT_FIELDS) {
    const input = el("input", {
      type: "number",
      name: field.key,
      min: "1",
      max: String(field.max),
      step: "1",
      value: String(PLAYGROUND_LIMITS[field.key]),
    });
    limitInputs.set(field.key, input);
    limits.append(el("label", {}, el("span", {}, field.label), input));
  }
  const output = el("pre", { class: "pg-output pg-printed", "aria-label": "What the program printed" });
  const outcome = el("div", { class: "pg-outcome", role: "status" });
  const editorHost = el("div", { class: "pg-editor" });

  main.replaceChildren(
    el(
      "section",
      { class: "playground" },
      el("div", { class: "pg-toolbar" }, runButton, narrateLabel, stopButton, copyButton, linkField),
      notice,
      el(
        "div",
        { class: "pg-columns" },
        el("div", { class: "pg-left" }, editorHost, status, problems),
        el(
          "div",
          { class: "pg-right" },
          el("h2", {}, "main's grant"),
          grant,
          el("h2", {}, "Recording"),
          el("label", {}, "Capabilities other than console, time and random are answered from ", chooser),
          chooserNote,
          limits,
          el("h2", {}, "Output"),
          output,
          outcome,
          narrationPanel,
        ),
      ),
    ),
  );

  // ---- checking as it is typed ----
  let checkTimer: ReturnType<typeof setTimeout> | undefined;
  const editor = makeEditor(editorHost, text, {
    changed: () => {
      clearTimeout(checkTimer);
      checkTimer = setTimeout(check, CHECK_PAUSE_MS);
    },
    run: () => void run(),
  });

  let checks = 0;
  function check(): void {
    checkTimer = undefined;
    // How many checks the page has made: a test waits for the one after its edit.
    status.dataset.checks = String(++checks);
    const doc = editor.state.doc;
    const source = doc.toString();
    let result: ReturnType<typeof checkPlayground>;
    try {
      result = checkPlayground(file, source);
    } catch (error) {
      status.dataset.checkMs = "";
      status.textContent = `The check failed: ${String(error)}`;
      return;
    }
    showCheck(editor, result.tokens, result.diagnostics, file);
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    const warnings = result.diagnostics.length - errors;
    status.dataset.checkMs = result.ms.toFixed(1);
    status.textContent =
      `Checked in ${result.ms.toFixed(1)} ms: ` +
      (result.diagnostics.length === 0 ? "no problems" : `${count(errors, "error")}, ${count(warnings, "warning")}`);
    problems.replaceChildren(
      ...result.diagnostics.slice(0, MAX_SHOWN_DIAGNOSTICS).map((d) => {
        const line = doc.lineAt(Math.min(d.span.start, doc.length));
        const at = { line: line.number, column: Math.min(d.span.start, doc.length) - line.from + 1 };
        const go = el("button", { type: "button", class: "pg-at" }, `line ${at.line}`);
        go.addEventListener("click", () => moveTo(editor, at.line, at.column));
        const fixes = (d.edits ?? [])
          .filter((edit) => edit.span.file === file)
          .map((edit) => {
            const fix = el("button", { type: "button", class: "pg-fix" }, edit.title);
            fix.addEventListener("click", () => applyEdit(editor, doc, edit));
            return fix;
          });
        return el(
          "li",
          { class: `pg-problem pg-${d.severity}`, "data-code": d.code },
          go,
          " ",
          el("code", {}, d.code),
          " ",
          d.message,
          ...fixes,
        );
      }),
      ...(result.diagnostics.length > MAX_SHOWN_DIAGNOSTICS
        ? [el("li", {}, `and ${result.diagnostics.length - MAX_SHOWN_DIAGNOSTICS} more`)]
        : []),
    );
    grant.textContent =
      result.grant ?? "The program has no main function: there is nothing to run. main's `needs` line is its grant.";
    grant.dataset.grant = result.grant ?? "";
  }

  // ---- the recordings ----
  const chosen = await itemsLoaded;
  if (Array.isArray(chosen)) {
    const recordings = chosen as Item[];
    for (const item of recordings)
      chooser.append(
        el(
          "option",
          { value: item.id },
          item.program === undefined
            ? item.id
            : `${item.id} (${item.program}${item.outcome ? `, ${item.outcome}` : ""})`,
        ),
      );
    // A program opened from a file starts with a recording of it, when there is one.
    const name = file.slice(0, -3);
    const own = from === null ? undefined : recordings.find((item) => item.program === name);
    if (own !== undefined) chooser.value = own.id;
    chooserNote.textContent =
      recordings.length === 0 ? "No recordings were found under the paths renyi view was given." : "";
  } else chooserNote.textContent = `The recordings could not be listed: ${messageOf(chosen)}`;

  // ---- running ----
  let running: AbortController | undefined;
  async function run(): Promise<void> {
    if (running !== undefined) return;
    const limitsNow = readLimits(limitInputs);
    if (typeof limitsNow === "string") {
      showOutcome(outcome, { outcome: "refused", text: limitsNow });
      return;
    }
    const controller = new AbortController();
    running = controller;
    runButton.disabled = true;
    stopButton.disabled = false;
    output.replaceChildren();
    outcome.replaceChildren(el("span", { class: "pg-running" }, "Running..."));
    outcome.dataset.outcome = "running";
    delete outcome.dataset.code;
    const printed = document.createTextNode("");
    output.append(printed);
    let shownBytes = 0;
    const narrate = narrateBox.checked;
    narration.replaceChildren();
    const narrated = document.createTextNode("");
    narration.append(narrated);
    let narratedCharacters = 0;
    try {
      const recordingId = chooser.value;
      const recording = recordingId === "" ? undefined : await apiText(`text?id=${encodeURIComponent(recordingId)}`);
      if (controller.signal.aborted) throw new Stopped();
      const ended = await runInWorker(
        new Worker("worker.js"),
        {
          kind: "run",
          file,
          source: editor.state.doc.toString(),
          ...(recording === undefined ? {} : { recording }),
          limits: limitsNow,
          ...(narrate ? { narrate: true } : {}),
        },
        (text: string) => {
          // The worker holds the output limit; the page holds it too, whatever a worker sends.
          if (shownBytes >= limitsNow.outputBytes) return;
          shownBytes += text.length;
          printed.appendData(text);
        },
        controller.signal,
        (text: string) => {
          // The worker holds the narration's bound (4 MiB and its last line); the page holds one too.
          if (narratedCharacters > 4 * 1024 * 1024 + 1024) return;
          narratedCharacters += text.length;
          narrated.appendData(text);
        },
      );
      if (controller.signal.aborted) throw new Stopped();
      const line = ended.line;
      const place =
        line === undefined
          ? undefined
          : { line, column: ended.column ?? 1, go: () => moveTo(editor, line, ended.column) };
      showOutcome(outcome, {
        outcome: ended.outcome,
        text: ended.message ?? "",
        exit: ended.exit,
        ...(ended.code === undefined ? {} : { code: ended.code }),
        ...(place === undefined ? {} : { place }),
      });
    } catch (error) {
      if (error instanceof Stopped || controller.signal.aborted)
        showOutcome(outcome, { outcome: "stopped", text: "Stopped: the worker was ended before the program was." });
      else showOutcome(outcome, { outcome: "refused", text: `The run failed: ${messageOf(error)}` });
    } finally {
      running = undefined;
      runButton.disabled = false;
      stopButton.disabled = true;
    }
  }
  const stop = () => running?.abort();
  runButton.addEventListener("click", () => void run());
  stopButton.addEventListener("click", stop);

  // ---- sharing ----
  copyButton.addEventListener("click", () => {
    void (async () => {
      const fragment = await linkFragment(editor.state.doc.toString());
      const link = `${location.href.split("#")[0]}${fragment}`;
      linkField.value = link;
      // The address becomes the link too (no hashchange: the view is not shown again).
      history.replaceState(null, "", fragment);
      linkField.select();
      try {
        await navigator.clipboard.writeText(link);
        notice.textContent = `The link is copied (${link.length.toLocaleString("en")} characters).`;
      } catch {
        notice.textContent = `The link is in the field above (${link.length.toLocaleString("en")} characters): copy it from there.`;
      }
    })().catch((error: unknown) => failure(`The link could not be made: ${messageOf(error)}`));
  });

  check();
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    clearTimeout(checkTimer);
    stop();
    editor.destroy();
  };
  leaveLast = leave;
  // Another view (or another playground) ends this one's run at once, not at its time limit.
  window.addEventListener("hashchange", leave, { once: true });
}

class Stopped extends Error {}

interface Shown {
  readonly outcome: string;
  readonly text: string;
  readonly exit?: number;
  readonly code?: string;
  readonly place?: { line: number; column: number; go: () => void };
}

function showOutcome(target: HTMLElement, shown: Shown): void {
  target.dataset.outcome = shown.outcome;
  if (shown.code === undefined) delete target.dataset.code;
  else target.dataset.code = shown.code;
  const parts: (Node | string)[] = [el("strong", {}, shown.outcome)];
  if (shown.exit !== undefined) parts.push(` (exit ${shown.exit})`);
  if (shown.code !== undefined) parts.push(" ", el("code", {}, shown.code));
  if (shown.text !== "") parts.push(": ", shown.text);
  if (shown.place !== undefined) {
    const go = el("button", { type: "button", class: "pg-at" }, `line ${shown.place.line}`);
    go.addEventListener("click", shown.place.go);
    parts.push(" at ", go);
  }
  target.replaceChildren(...parts);
}

/** The limits as the fields say, or why they cannot be used. */
function readLimits(inputs: ReadonlyMap<keyof PlaygroundLimits, HTMLInputElement>): PlaygroundLimits | string {
  const out: Partial<Record<keyof PlaygroundLimits, number>> = {};
  for (const field of LIMIT_FIELDS) {
    const value = Number(inputs.get(field.key)!.value);
    if (!Number.isSafeInteger(value) || value < 1 || value > field.max)
      return `${field.label} must be a whole number from 1 to ${field.max.toLocaleString("en")}.`;
    out[field.key] = value;
  }
  return out as PlaygroundLimits;
}

/** The file a program opened by its id is run as: its own name when that is a module's name. */
function fileNameOf(id: string): string {
  const name = id.slice(id.lastIndexOf("/") + 1);
  return /^[a-z_][a-z0-9_]{0,63}\.ry$/i.test(name) ? name : "playground.ry";
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
