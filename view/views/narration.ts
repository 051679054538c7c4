// The recording view's narration: a recording holds none (`renyi run --explain` prints it on
// stderr), so the page makes it: the program that made the recording, found among the files
// the server lists, is replayed narrated in a fresh playground worker, as `renyi run --explain
// --replay` replays it, and its lines are shown as text, indented as narrated, with the run's
// outcome. Its effects show their recorded durations and time and random are answered from the
// recording, so the narration reads the same every time.

import type { Item, ItemList } from "../api.js";
import { el } from "../dom.js";
import { api, apiText } from "../fetch-api.js";
import { PLAYGROUND_LIMITS, runInWorker } from "../playground/run-in-worker.js";
import { routeLink } from "./parts.js";

/** The most narration the page holds: the narration's own bound (4 MiB) and its last line. */
const MAX_NARRATION_CHARACTERS = 4 * 1024 * 1024 + 1024;

/** The Narration section's contents for the recording `id` of the program named `program` (its manifest's). */
export function narrationPart(id: string, program: string | undefined): HTMLElement {
  const part = el("div", { class: "narration-part" }, el("p", { class: "muted" }, "Looking for the program..."));
  void (async () => {
    let items: readonly Item[];
    try {
      items = (await api<ItemList>("items")).items;
    } catch (error) {
      part.replaceChildren(el("p", { class: "failure" }, `The programs could not be listed: ${messageOf(error)}`));
      return;
    }
    const found = program === undefined ? undefined : programOf(id, program, items);
    if (found === undefined) {
      part.dataset.program = "";
      part.replaceChildren(
        el(
          "p",
          { class: "narration-none" },
          program === undefined
            ? "The recording does not name its program, so it cannot be narrated here."
            : `No program ${program}.ry was found under the paths renyi view was given, so the run cannot be narrated here.`,
        ),
      );
      return;
    }
    part.dataset.program = found.id;
    const button = el("button", { type: "button", class: "narrate" }, "Narrate this run");
    const text = el("pre", { class: "pg-output narration-text", "aria-label": "The narration" });
    const outcome = el("p", { class: "pg-outcome narration-outcome", role: "status" });
    part.replaceChildren(
      el(
        "p",
        {},
        "Replays ",
        routeLink(found.id, "program", found.id),
        " narrated in the page, as renyi run --explain --replay does: a line per call to a named definition, ",
        "per effect (with its recorded duration) and per failure, indented by call depth.",
      ),
      button,
      text,
      outcome,
    );
    button.addEventListener("click", () => {
      button.disabled = true;
      void narrate(id, found, text, outcome).finally(() => {
        button.disabled = false;
      });
    });
  })();
  return part;
}

/** The program item the recording of `program` was made by: of the same name, the one nearest the recording's folder. */
function programOf(recordingId: string, program: string, items: readonly Item[]): Item | undefined {
  const named = items.filter((item) => item.kind === "program" && baseName(item.id) === `${program}.ry`);
  const folder = folderParts(recordingId);
  let best: Item | undefined;
  let bestScore = -1;
  for (const item of named) {
    const own = folderParts(item.id);
    let shared = 0;
    while (shared < own.length && shared < folder.length && own[shared] === folder[shared]) shared++;
    // A program in the recording's folder or one above it comes first, the nearest first; then the most shared.
    const score = (shared === own.length ? 1_000_000 : 0) + shared;
    if (score > bestScore) {
      best = item;
      bestScore = score;
    }
  }
  return best;
}

function baseName(id: string): string {
  return id.slice(id.lastIndexOf("/") + 1);
}

/** The folders of an id, its root's index first. */
function folderParts(id: string): string[] {
  return id.split("/").slice(0, -1);
}

async function narrate(id: string, program: Item, text: HTMLElement, outcome: HTMLElement): Promise<void> {
  text.replaceChildren();
  const lines = document.createTextNode("");
  text.append(lines);
  outcome.dataset.outcome = "running";
  outcome.replaceChildren("Narrating...");
  let shown = 0;
  try {
    const [source, recording] = await Promise.all([
      apiText(`text?id=${encodeURIComponent(program.id)}`),
      apiText(`text?id=${encodeURIComponent(id)}`),
    ]);
    const ended = await runInWorker(
      new Worker("worker.js"),
      { kind: "run", file: baseName(program.id), source, recording, limits: PLAYGROUND_LIMITS, narrate: true },
      () => {},
      undefined,
      (narrated) => {
        // The worker holds the narration's bound; the page holds one too, whatever a worker sends.
        if (shown >= MAX_NARRATION_CHARACTERS) return;
        shown += narrated.length;
        lines.appendData(narrated);
      },
    );
    outcome.dataset.outcome = ended.outcome;
    if (ended.code === undefined) delete outcome.dataset.code;
    else outcome.dataset.code = ended.code;
    outcome.replaceChildren(
      el("strong", {}, ended.outcome),
      ` (exit ${ended.exit})`,
      ...(ended.code !== undefined ? [" ", el("code", {}, ended.code)] : []),
      ...(ended.message !== undefined && ended.message !== "" ? [": ", ended.message] : []),
      ...(ended.line !== undefined ? [` at line ${ended.line}`] : []),
    );
  } catch (error) {
    outcome.dataset.outcome = "refused";
    outcome.replaceChildren(el("strong", {}, "refused"), `: the run could not be narrated: ${messageOf(error)}`);
  }
  text.dataset.lines = String(lines.data.split("\n").length - 1);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
