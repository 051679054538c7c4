// `#/recording/ID`: a run as it was recorded: its manifest; its calls on a timeline (a canvas, a
// lane per task or target, failures in red) with a summary of the lanes beside it that says the
// same in text; the call picked (by a click, the keyboard or the list of calls near it) with its
// arguments and outcome, fetched when picked; each budget as a plot against its limit; the least
// grant beside the declared one; the run narrated in the page, when its program is found
// (narration.ts).

import type { BudgetView, CallDetail, CallSummary, LeastGrantView, RecordingView } from "../api.js";
import { budgetPlot } from "../budget-plot.js";
import { el } from "../dom.js";
import { api } from "../fetch-api.js";
import {
  changeLane,
  draw,
  hit,
  layOut,
  msPerPixel,
  nearest,
  panned,
  step,
  type Timeline,
  timeAt,
  type Window,
  zoomed,
} from "../timeline.js";
import { narrationPart } from "./narration.js";
import { lines, milliseconds, routeId, section, title, withRedactions } from "./parts.js";

/** Calls listed near the one picked, each side. */
const NEAR = 6;
/** Failed calls listed, from the first. */
const FAILED = 20;

export async function showRecording(main: HTMLElement, parts: string[], _query: URLSearchParams): Promise<void> {
  const id = routeId(parts, 0, "recording");
  const recording = await api<RecordingView>(`recording?id=${encodeURIComponent(id)}`);
  title(id);
  const { manifest } = recording;
  main.append(
    el("h1", {}, "Recording ", el("code", {}, id)),
    el(
      "p",
      { class: "summary" },
      el("span", { class: `outcome ${manifest.outcome === "finished" ? "good" : "bad"}` }, manifest.outcome),
      ` ${recording.calls.length} call${recording.calls.length === 1 ? "" : "s"}`,
      manifest.program !== undefined ? ` of ${manifest.program}` : "",
      manifest.fields.find(([name]) => name === "recorded_at") !== undefined
        ? `, recorded ${manifest.fields.find(([name]) => name === "recorded_at")![1]}`
        : "",
    ),
  );
  // The timeline and its summary; the call picked below them.
  const started = performance.now();
  const timeline = layOut(recording.calls);
  const canvas = el("canvas", {
    class: "timeline",
    tabindex: "0",
    role: "img",
    "aria-label": `timeline of ${recording.calls.length} calls in ${timeline.lanes.length} lanes; arrow keys pick a call, + and - zoom, 0 shows all`,
  });
  const figure = el("figure", { class: "timeline-figure" }, canvas);
  const detail = el(
    "div",
    { class: "call-detail", "aria-live": "polite" },
    el(
      "p",
      { class: "muted" },
      "Pick a call on the timeline (click it, or focus the timeline and use the arrow keys; the wheel or + and - zoom, a drag pans, 0 shows all) to see its arguments and outcome.",
    ),
  );
  const near = el("ol", { class: "near" });
  const failedList = el("div", {});
  main.append(
    section(
      "Timeline",
      el("div", { class: "timeline-row" }, figure, laneSummary(timeline)),
      el(
        "div",
        { class: "call-row" },
        el("div", { class: "near-box" }, el("h3", {}, "Calls near"), near, failedList),
        detail,
      ),
    ),
  );
  let selected: number | undefined;
  let asked = 0;
  let view: Window = { start: timeline.start, end: timeline.end };
  const redraw = () => {
    const t0 = performance.now();
    const drawn = draw(canvas, timeline, view, selected);
    figure.dataset.zoomed = String(view.start > timeline.start || view.end < timeline.end);
    figure.dataset.renderMs = (performance.now() - t0).toFixed(1);
    figure.dataset.callsDrawn = String(drawn);
  };
  const pick = async (position: number | undefined) => {
    if (position === undefined) return;
    selected = position;
    // A call picked outside the view (by the keyboard, from a list) is brought into it.
    const at = recording.calls[position]!.atMs;
    if (Number.isFinite(at) && (at < view.start || at > view.end))
      view = panned(timeline, view, at - (view.start + view.end) / 2);
    redraw();
    nearList(near, timeline, position, (p) => void pick(p));
    const call = recording.calls[position]!;
    figure.dataset.selected = String(call.index);
    const mine = ++asked;
    detail.replaceChildren(callHead(call), el("p", { class: "muted" }, "reading the call..."));
    try {
      const found = await api<CallDetail>(
        `call?id=${encodeURIComponent(id)}&index=${encodeURIComponent(String(call.index))}`,
      );
      if (mine === asked) detail.replaceChildren(callHead(call), callBody(found));
    } catch (error) {
      if (mine === asked)
        detail.replaceChildren(
          callHead(call),
          el("p", { class: "failure", role: "alert" }, String((error as Error).message ?? error)),
        );
    }
    detail.dataset.index = String(call.index);
  };
  // A click picks the call under it; a drag pans a zoomed view; the wheel zooms around the pointer.
  let dragged: { x: number; view: Window; moved: boolean } | undefined;
  canvas.addEventListener("pointerdown", (event) => {
    dragged = { x: event.clientX, view, moved: false };
  });
  canvas.addEventListener("pointermove", (event) => {
    if (dragged === undefined || (event.buttons & 1) === 0) return;
    const dx = event.clientX - dragged.x;
    if (Math.abs(dx) < 3 && !dragged.moved) return;
    dragged.moved = true;
    view = panned(timeline, dragged.view, -dx * msPerPixel(canvas, dragged.view));
    redraw();
  });
  canvas.addEventListener("click", (event) => {
    const wasDrag = dragged?.moved === true;
    dragged = undefined;
    if (wasDrag) return;
    const box = canvas.getBoundingClientRect();
    void pick(hit(canvas, timeline, view, event.clientX - box.left, event.clientY - box.top));
  });
  canvas.addEventListener(
    "wheel",
    (event) => {
      event.preventDefault();
      const box = canvas.getBoundingClientRect();
      const at = timeAt(canvas, view, event.clientX - box.left);
      view = zoomed(timeline, view, Math.min(view.end, Math.max(view.start, at)), Math.exp(event.deltaY * 0.002));
      redraw();
    },
    { passive: false },
  );
  canvas.addEventListener("keydown", (event) => {
    if (recording.calls.length === 0) return;
    const from = selected ?? nearest(timeline, 0, timeline.start, Number.POSITIVE_INFINITY) ?? 0;
    const moves: Record<string, () => number> = {
      ArrowRight: () => (selected === undefined ? from : step(timeline, from, 1)),
      ArrowLeft: () => (selected === undefined ? from : step(timeline, from, -1)),
      ArrowDown: () => changeLane(timeline, from, 1),
      ArrowUp: () => changeLane(timeline, from, -1),
      Home: () => step(timeline, from, -recording.calls.length),
      End: () => step(timeline, from, recording.calls.length),
    };
    const zoom: Record<string, number> = { "+": 0.5, "=": 0.5, "-": 2 };
    const factor = zoom[event.key];
    if (factor !== undefined || event.key === "0") {
      event.preventDefault();
      const middle = selected !== undefined ? recording.calls[selected]!.atMs : (view.start + view.end) / 2;
      view =
        factor === undefined
          ? { start: timeline.start, end: timeline.end }
          : zoomed(timeline, view, Math.min(view.end, Math.max(view.start, middle)), factor);
      redraw();
      return;
    }
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    void pick(move());
  });
  redraw();
  figure.dataset.lanes = String(timeline.lanes.length);
  figure.dataset.calls = String(recording.calls.length);
  figure.dataset.failures = String(timeline.failures);
  // From the data's arrival to the timeline drawn, laid out and summarised.
  figure.dataset.totalMs = (performance.now() - started).toFixed(1);
  failedList.append(...failedCalls(timeline, (p) => void pick(p)));
  if (recording.calls.length > 0)
    nearList(near, timeline, nearest(timeline, 0, timeline.start, Number.POSITIVE_INFINITY) ?? 0, (p) => void pick(p));
  let width = canvas.clientWidth;
  new ResizeObserver(() => {
    if (canvas.clientWidth !== width) {
      width = canvas.clientWidth;
      redraw();
    }
  }).observe(canvas);

  main.append(
    section("Budgets", budgets(recording.budgets, timeline)),
    section("Least grant", leastGrant(recording.leastGrant)),
    section("Manifest", manifestList(recording)),
  );
  main.append(section("Narration", narrationPart(id, manifest.program)));
  main.append(el("p", {}, "Compare with another recording from ", el("a", { href: "#/" }, "the list"), "."));
}

function manifestList(recording: RecordingView): HTMLElement {
  const m = recording.manifest;
  const rows: [string, Node | string][] = [];
  if (m.program !== undefined) rows.push(["program", m.program]);
  if (m.codeHash !== undefined) rows.push(["code", el("code", {}, m.codeHash)]);
  rows.push(["outcome", m.outcome]);
  if (m.outputHash !== undefined) rows.push(["output", el("code", {}, m.outputHash)]);
  for (const [name, value] of m.fields) rows.push([name, el("span", {}, ...withRedactions(value))]);
  return el(
    "div",
    { class: "manifest-row" },
    el("dl", { class: "manifest" }, ...rows.flatMap(([name, value]) => [el("dt", {}, name), el("dd", {}, value)])),
    el(
      "div",
      { class: "manifest-grant" },
      el("h3", {}, "Grant"),
      el("pre", { class: "grant-text" }, m.grant),
      lines(m.grantWords, "It may reach nothing.", "words grant-words"),
    ),
  );
}

/** The lanes in text: a row each with its calls and failures (what the canvas shows, for readers and tests). */
function laneSummary(timeline: Timeline): HTMLElement {
  return el(
    "table",
    { class: "lanes" },
    el("thead", {}, el("tr", {}, el("th", {}, "Lane"), el("th", {}, "Calls"), el("th", {}, "Failed"))),
    el(
      "tbody",
      {},
      ...timeline.lanes.map((lane, i) => {
        const member = timeline.members[i]!;
        let failed = 0;
        for (const p of member) if (timeline.calls[p]!.failed) failed++;
        return el(
          "tr",
          { "data-lane": lane, "data-calls": String(member.length), "data-failures": String(failed) },
          el("td", {}, lane),
          el("td", { class: "number" }, String(member.length)),
          el("td", { class: failed > 0 ? "number bad" : "number" }, String(failed)),
        );
      }),
    ),
  );
}

function nearList(list: HTMLElement, timeline: Timeline, position: number, pick: (p: number) => void): void {
  const lane = timeline.laneOf[position]!;
  const member = timeline.members[lane]!;
  const at = member.indexOf(position);
  const from = Math.max(0, at - NEAR);
  const to = Math.min(member.length, at + NEAR + 1);
  const items: HTMLElement[] = [];
  for (let k = from; k < to; k++) {
    const p = member[k]!;
    const call = timeline.calls[p]!;
    const button = el(
      "button",
      {
        type: "button",
        class: `${call.failed ? "bad" : ""}${p === position ? " current" : ""}`,
        "data-index": String(call.index),
      },
      `#${call.index} ${call.primitive} at ${milliseconds(call.atMs)}${call.failed ? ` failed${call.failure ? `: ${call.failure}` : ""}` : ""}`,
    );
    button.addEventListener("click", () => pick(p));
    items.push(el("li", {}, button));
  }
  list.replaceChildren(...items);
}

/** The first failed calls, a button each, to go to them. */
function failedCalls(timeline: Timeline, pick: (p: number) => void): HTMLElement[] {
  if (timeline.failures === 0) return [];
  const items: HTMLElement[] = [];
  for (let p = 0; p < timeline.calls.length && items.length < FAILED; p++) {
    const call = timeline.calls[p]!;
    if (!call.failed) continue;
    const button = el(
      "button",
      { type: "button", class: "bad", "data-index": String(call.index) },
      `#${call.index} ${call.primitive} at ${milliseconds(call.atMs)}${call.failure ? `: ${call.failure}` : ""}`,
    );
    button.addEventListener("click", () => pick(p));
    items.push(el("li", {}, button));
  }
  return [
    el(
      "h3",
      {},
      timeline.failures > FAILED ? `Failed calls (the first ${FAILED} of ${timeline.failures})` : "Failed calls",
    ),
    el("ol", { class: "near failed" }, ...items),
  ];
}

function callHead(call: CallSummary): HTMLElement {
  return el(
    "div",
    { class: "call-head" },
    el("h3", {}, `Call #${call.index} `, el("code", {}, call.primitive)),
    el(
      "p",
      {},
      call.target,
      ` at ${milliseconds(call.atMs)} for ${milliseconds(call.durationMs)} in lane `,
      el("code", {}, call.lane),
      call.failed ? el("span", { class: "outcome bad" }, `failed${call.failure ? `: ${call.failure}` : ""}`) : null,
    ),
  );
}

function callBody(detail: CallDetail): HTMLElement {
  return el(
    "div",
    { class: "call-body" },
    detail.cut ? el("p", { class: "note", "data-cut": "true" }, "This call is long: its text is cut below.") : null,
    el("h4", {}, "Arguments"),
    el("pre", { class: "json arguments" }, ...withRedactions(detail.arguments)),
    el("h4", {}, "Outcome"),
    el("pre", { class: "json outcome-text" }, ...withRedactions(detail.outcome)),
  );
}

function budgets(list: readonly BudgetView[], timeline: Timeline): HTMLElement {
  if (list.length === 0) return el("p", { class: "muted" }, "The grant sets no budget.");
  return el(
    "div",
    { class: "budgets" },
    ...list.map((budget) => {
      const plot = budgetPlot(budget.counted, budget.limit, budget.windowMs, timeline.start, timeline.end);
      return el(
        "figure",
        {
          class: "budget",
          "data-capability": budget.capability,
          "data-limit": String(budget.limit),
          "data-most": String(plot.most),
          "data-counted": String(budget.counted.length),
        },
        plot.element,
        el(
          "figcaption",
          {},
          el("code", {}, budget.capability),
          ` at most ${budget.limit} per ${milliseconds(budget.windowMs)}: `,
          `${budget.counted.length} call${budget.counted.length === 1 ? "" : "s"} counted, at most ${plot.most} in one window`,
          plot.most > budget.limit ? el("span", { class: "outcome bad" }, "over its limit") : null,
        ),
      );
    }),
  );
}

function leastGrant(least: LeastGrantView): HTMLElement {
  return el(
    "div",
    { class: "least-grant" },
    el(
      "div",
      { class: "side-by-side" },
      el("div", {}, el("h3", {}, "Declared"), el("pre", { class: "grant-text declared" }, least.declared)),
      el("div", {}, el("h3", {}, "Least (what the calls used)"), el("pre", { class: "grant-text least" }, least.least)),
    ),
    least.wider.length === 0
      ? el("p", { class: "muted" }, "The declared grant is no wider than the calls needed.")
      : el("div", {}, el("h3", {}, "Wider than used"), lines(least.wider, "", "words wider")),
  );
}
