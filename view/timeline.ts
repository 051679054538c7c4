// A recording's calls on a timeline, drawn on a canvas: time (`at_ms`) across, one lane per
// `lane` down, each call a bar as long as its duration (a pixel at least), failures in red with a
// mark above them. Drawn in one pass over the calls with no element per call, so 50,000 calls
// cost a few milliseconds; a call is found again under the pointer by a binary search on `atMs`
// within its lane. Lanes beyond a bound share the last one, so a recording of a call per target
// cannot make the canvas endless.

import type { CallSummary } from "./api.js";

const MAX_LANES = 60;
const LANE_HEIGHT = 20;
const AXIS_HEIGHT = 22;
const GUTTER = 190;
const RIGHT_PAD = 12;

export interface Timeline {
  readonly calls: readonly CallSummary[];
  /** The lanes drawn, in the order of their first call. */
  readonly lanes: readonly string[];
  /** Calls in each lane: positions in `calls`, in order of `atMs`. */
  readonly members: readonly Int32Array[];
  /** The `atMs` of each lane's calls, in the same order (the binary search's keys). */
  readonly starts: readonly Float64Array[];
  /** Each call's lane, by position in `calls`. */
  readonly laneOf: Int32Array;
  readonly start: number;
  readonly end: number;
  readonly failures: number;
}

function finite(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

/** The lanes, their calls in order of time, and the span of time they cover. */
export function layOut(calls: readonly CallSummary[]): Timeline {
  const laneIndex = new Map<string, number>();
  const lanes: string[] = [];
  const laneOf = new Int32Array(calls.length);
  const counts: number[] = [];
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let failures = 0;
  let others = 0;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const name = String(call.lane);
    let lane = laneIndex.get(name);
    if (lane === undefined) {
      if (lanes.length < MAX_LANES - 1) {
        lane = lanes.length;
        lanes.push(name);
        counts.push(0);
      } else {
        if (others === 0) {
          lanes.push("");
          counts.push(0);
        }
        others++;
        lane = MAX_LANES - 1;
      }
      laneIndex.set(name, lane);
    }
    laneOf[i] = lane;
    counts[lane]!++;
    const at = finite(call.atMs);
    const duration = Math.max(0, finite(call.durationMs));
    if (at < start) start = at;
    if (at + duration > end) end = at + duration;
    if (call.failed) failures++;
  }
  if (others > 0) lanes[MAX_LANES - 1] = `(${others} other lanes)`;
  if (calls.length === 0) {
    start = 0;
    end = 1;
  }
  if (end <= start) end = start + 1;
  const members = counts.map((n) => new Int32Array(n));
  const filled = counts.map(() => 0);
  for (let i = 0; i < calls.length; i++) {
    const lane = laneOf[i]!;
    members[lane]![filled[lane]!++] = i;
  }
  const starts: Float64Array[] = [];
  for (const member of members) {
    // Recordings are in order of their calls, mostly in order of time too: sort only when not.
    let sorted = true;
    for (let k = 1; k < member.length; k++)
      if (finite(calls[member[k]!]!.atMs) < finite(calls[member[k - 1]!]!.atMs)) {
        sorted = false;
        break;
      }
    if (!sorted) member.sort((a, b) => finite(calls[a]!.atMs) - finite(calls[b]!.atMs) || a - b);
    const keys = new Float64Array(member.length);
    for (let k = 0; k < member.length; k++) keys[k] = finite(calls[member[k]!]!.atMs);
    starts.push(keys);
  }
  return { calls, lanes, members, starts, laneOf, start, end, failures };
}

/** The canvas's height in CSS pixels for a timeline's lanes. */
function heightOf(timeline: Timeline): number {
  return AXIS_HEIGHT + Math.max(1, timeline.lanes.length) * LANE_HEIGHT + 4;
}

interface Scale {
  readonly x0: number;
  readonly width: number;
  readonly start: number;
  readonly span: number;
}

/** The part of the time shown: all of it, or less when zoomed. */
export interface Window {
  readonly start: number;
  readonly end: number;
}

function scaleOf(view: Window, cssWidth: number): Scale {
  return {
    x0: GUTTER,
    width: Math.max(10, cssWidth - GUTTER - RIGHT_PAD),
    start: view.start,
    span: Math.max(1e-6, view.end - view.start),
  };
}

/** The time under a point of the canvas (CSS pixels) for a view. */
export function timeAt(canvas: HTMLCanvasElement, view: Window, x: number): number {
  const scale = scaleOf(view, canvas.clientWidth || 900);
  return scale.start + ((x - scale.x0) / scale.width) * scale.span;
}

/** Milliseconds per CSS pixel of a view. */
export function msPerPixel(canvas: HTMLCanvasElement, view: Window): number {
  const scale = scaleOf(view, canvas.clientWidth || 900);
  return scale.span / scale.width;
}

/**
 * The view zoomed by `factor` (below 1 in, above 1 out) around the time `at`, kept inside the
 * recording's span and no narrower than a millisecond.
 */
export function zoomed(timeline: Timeline, view: Window, at: number, factor: number): Window {
  const whole = timeline.end - timeline.start;
  const span = Math.min(whole, Math.max(Math.min(1, whole), (view.end - view.start) * factor));
  const ratio = (at - view.start) / Math.max(1e-6, view.end - view.start);
  return panned(timeline, { start: at - ratio * span, end: at - ratio * span + span }, 0);
}

/** The view moved by `ms`, kept inside the recording's span. */
export function panned(timeline: Timeline, view: Window, ms: number): Window {
  const span = view.end - view.start;
  const start = Math.min(timeline.end - span, Math.max(timeline.start, view.start + ms));
  return { start, end: start + span };
}

/** The most ticks the time axis draws (about one per 110 pixels is asked for). */
const MAX_TICKS = 200;

/** A round step for the time axis: about `count` ticks over `span` milliseconds. */
function tickStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

function label(ms: number): string {
  if (Math.abs(ms) >= 10_000) return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
  return `${Math.round(ms * 100) / 100} ms`;
}

/**
 * A lane's name cut in its middle to fit `width` pixels: its start and its end stay (the host and
 * the port of `network.http("127.0.0.1:8802")`). A long name is cut to 60 characters before it is
 * measured, so the measuring is bounded.
 */
function fitted(g: CanvasRenderingContext2D, name: string, width: number): string {
  if (g.measureText(name).width <= width) return name;
  let head = Math.min(30, Math.ceil(name.length / 2));
  let tail = Math.min(30, name.length - head);
  let text = `${name.slice(0, head)}…${name.slice(name.length - tail)}`;
  while (head + tail > 2 && g.measureText(text).width > width) {
    // The start goes first, down to a few letters: the end says which of a kind (a host, a port).
    if (head > 8 || tail <= 8) head--;
    else tail--;
    text = `${name.slice(0, head)}…${tail > 0 ? name.slice(name.length - tail) : ""}`;
  }
  return text;
}

/** Draws the timeline on `canvas` (sized here to its box's width); returns the number of calls drawn. */
export function draw(
  canvas: HTMLCanvasElement,
  timeline: Timeline,
  view: Window,
  selected: number | undefined,
): number {
  const cssWidth = Math.max(300, canvas.clientWidth || canvas.parentElement?.clientWidth || 900);
  const cssHeight = heightOf(timeline);
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssWidth * ratio);
  canvas.height = Math.round(cssHeight * ratio);
  canvas.style.height = `${cssHeight}px`;
  const g = canvas.getContext("2d");
  if (g === null) return 0;
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  const styles = getComputedStyle(canvas);
  const colour = (name: string, fallback: string) => styles.getPropertyValue(name).trim() || fallback;
  const ink = colour("--ink", "#111827");
  const muted = colour("--muted", "#6b7280");
  const line = colour("--line", "#d1d5db");
  const ok = colour("--call", "#2563eb");
  const bad = colour("--bad", "#dc2626");
  const band = colour("--band", "rgba(127,127,127,0.07)");
  const scale = scaleOf(view, cssWidth);
  const xOf = (ms: number) => scale.x0 + ((ms - scale.start) / scale.span) * scale.width;

  g.clearRect(0, 0, cssWidth, cssHeight);
  g.font = "12px system-ui, sans-serif";
  g.textBaseline = "middle";
  // The axis: round ticks over the span, a line down each.
  const step = tickStep(scale.span, Math.max(2, Math.floor(scale.width / 110)));
  g.fillStyle = muted;
  g.strokeStyle = line;
  g.lineWidth = 1;
  const right = scale.x0 + scale.width;
  g.beginPath();
  // Counted, not stepped: past 2^53 ms a step can be smaller than a float's gap there, and `t += step` would never
  // reach the end. A tick that lands where the one before did ends the axis.
  const first = Math.ceil(scale.start / step) * step;
  for (let i = 0, previous = Number.NaN; i <= MAX_TICKS; i++) {
    const t = first + i * step;
    if (t > view.end || t === previous) break;
    previous = t;
    const x = Math.round(xOf(t)) + 0.5;
    g.moveTo(x, AXIS_HEIGHT - 4);
    g.lineTo(x, cssHeight);
    const text = label(t);
    if (x + 3 + g.measureText(text).width <= cssWidth) g.fillText(text, x + 3, AXIS_HEIGHT / 2);
  }
  g.stroke();
  // The lanes: a band every other one, the name in the gutter (cut to fit).
  timeline.lanes.forEach((name, lane) => {
    const y = AXIS_HEIGHT + lane * LANE_HEIGHT;
    if (lane % 2 === 0) {
      g.fillStyle = band;
      g.fillRect(0, y, cssWidth, LANE_HEIGHT);
    }
    g.fillStyle = ink;
    g.fillText(fitted(g, name, GUTTER - 12), 6, y + LANE_HEIGHT / 2);
  });
  // The calls: every bar of a lane in one colour, then its failures over them; a bar narrower
  // than a pixel that falls on the pixel of the one before it is not drawn again, nor one outside
  // the view (zoomed), which is not counted as drawn either.
  g.save();
  g.beginPath();
  g.rect(scale.x0 - 1, 0, scale.width + 2 + RIGHT_PAD / 2, cssHeight);
  g.clip();
  let drawn = 0;
  const calls = timeline.calls;
  for (let lane = 0; lane < timeline.members.length; lane++) {
    const member = timeline.members[lane]!;
    const y = AXIS_HEIGHT + lane * LANE_HEIGHT + 4;
    const h = LANE_HEIGHT - 8;
    g.fillStyle = ok;
    let lastPixel = -1;
    for (let k = 0; k < member.length; k++) {
      const call = calls[member[k]!]!;
      const x = xOf(finite(call.atMs));
      const w = Math.max(1, (Math.max(0, finite(call.durationMs)) / scale.span) * scale.width);
      if (x > right + 1 || x + w < scale.x0 - 1) continue;
      drawn++;
      if (call.failed) continue;
      if (w <= 1 && Math.floor(x) === lastPixel) continue;
      lastPixel = Math.floor(x);
      // A pixel's gap at the end of a wide bar, so calls one after another stay apart.
      g.fillRect(x, y, w > 3 ? w - 1 : w, h);
    }
    g.fillStyle = bad;
    for (let k = 0; k < member.length; k++) {
      const call = calls[member[k]!]!;
      if (!call.failed) continue;
      const x = xOf(finite(call.atMs));
      const w = Math.max(2, (Math.max(0, finite(call.durationMs)) / scale.span) * scale.width);
      if (x > right + 1 || x + w < scale.x0 - 1) continue;
      g.fillRect(x, y - 3, w, h + 6);
    }
  }
  if (selected !== undefined && selected >= 0 && selected < calls.length) {
    const call = calls[selected]!;
    const lane = timeline.laneOf[selected]!;
    const x = xOf(finite(call.atMs));
    const w = Math.max(3, (Math.max(0, finite(call.durationMs)) / scale.span) * scale.width);
    g.strokeStyle = ink;
    g.lineWidth = 2;
    g.strokeRect(x - 2, AXIS_HEIGHT + lane * LANE_HEIGHT + 1, w + 4, LANE_HEIGHT - 2);
  }
  g.restore();
  return drawn;
}

/** The position in `calls` of the last call of `lane` that starts at or before `ms`, or -1. */
function lastAtOrBefore(starts: Float64Array, ms: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (starts[mid]! <= ms) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

/** The call under a point of the canvas (CSS pixels), or the nearest within a few pixels; undefined when none. */
export function hit(
  canvas: HTMLCanvasElement,
  timeline: Timeline,
  view: Window,
  x: number,
  y: number,
): number | undefined {
  const lane = Math.floor((y - AXIS_HEIGHT) / LANE_HEIGHT);
  if (lane < 0 || lane >= timeline.members.length || x < GUTTER) return undefined;
  return nearest(timeline, lane, timeAt(canvas, view, x), 5 * msPerPixel(canvas, view));
}

/** The call of `lane` nearest `ms`: one that covers it, else the closest start within `tolerance`. */
export function nearest(timeline: Timeline, lane: number, ms: number, tolerance: number): number | undefined {
  const starts = timeline.starts[lane];
  const member = timeline.members[lane];
  if (starts === undefined || member === undefined || starts.length === 0) return undefined;
  const at = lastAtOrBefore(starts, ms);
  // A call that began before and lasts over `ms`: look back a few, the nearest first.
  for (let k = at; k >= 0 && k > at - 16; k--) {
    const call = timeline.calls[member[k]!]!;
    if (starts[k]! + Math.max(0, finite(call.durationMs)) >= ms - tolerance) return member[k];
  }
  const next = at + 1;
  if (next < starts.length && starts[next]! - ms <= tolerance) return member[next];
  return Number.isFinite(tolerance) ? undefined : member[Math.max(0, Math.min(starts.length - 1, at))];
}

/** The call before or after `position` in its lane, in order of time. */
export function step(timeline: Timeline, position: number, by: number): number {
  const lane = timeline.laneOf[position]!;
  const member = timeline.members[lane]!;
  const at = member.indexOf(position);
  const next = Math.min(member.length - 1, Math.max(0, at + by));
  return member[next]!;
}

/** The call of the lane above or below nearest in time to `position`'s. */
export function changeLane(timeline: Timeline, position: number, by: number): number {
  const lane = timeline.laneOf[position]!;
  for (let other = lane + by; other >= 0 && other < timeline.members.length; other += by) {
    const found = nearest(timeline, other, finite(timeline.calls[position]!.atMs), Number.POSITIVE_INFINITY);
    if (found !== undefined) return found;
  }
  return position;
}
