// A budget as a plot: how many calls it counted in the sliding window that ends at each moment,
// against a horizontal line at its limit. An SVG built with createElementNS, every attribute a
// number computed here; its text (the axis's figures) goes in as text. The work is the calls
// counted plus the plot's width: each column of the plot shows the most the window held in it,
// so 50,000 counted calls make as many points as a dozen.

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 720;
const HEIGHT = 130;
const LEFT = 40;
const BOTTOM = 20;
const TOP = 8;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, number | string>,
  text?: string,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** The most calls the window held in each of `columns` equal parts of [start, end]. */
function windowCounts(
  counted: readonly number[],
  windowMs: number,
  start: number,
  end: number,
  columns: number,
): Int32Array {
  const ups = counted.filter((t) => Number.isFinite(t)).sort((a, b) => a - b);
  const window = Number.isFinite(windowMs) && windowMs > 0 ? windowMs : 1;
  const out = new Int32Array(columns);
  const width = (end - start) / columns;
  let count = 0;
  let i = 0;
  let j = 0;
  for (let c = 0; c < columns; c++) {
    const columnEnd = c === columns - 1 ? Number.POSITIVE_INFINITY : start + (c + 1) * width;
    let most = count;
    for (;;) {
      const up = i < ups.length ? ups[i]! : Number.POSITIVE_INFINITY;
      const down = j < i ? ups[j]! + window : Number.POSITIVE_INFINITY;
      // A call leaves the window (t - window, t] at its time plus the window: before one that comes in then.
      if (down <= up && down < columnEnd) {
        count--;
        j++;
      } else if (up < columnEnd) {
        count++;
        i++;
        if (count > most) most = count;
      } else break;
    }
    out[c] = most;
  }
  return out;
}

export interface Plotted {
  readonly element: SVGSVGElement;
  /** The most calls any window held. */
  readonly most: number;
}

/** The plot of one budget over [start, end] (the recording's span). */
export function budgetPlot(
  counted: readonly number[],
  limit: number,
  windowMs: number,
  start: number,
  end: number,
): Plotted {
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const last = counted.reduce((m, t) => (Number.isFinite(t) && t > m ? t : m), end);
  const span = Math.max(1, last - start);
  const counts = windowCounts(counted, windowMs, start, start + span, plotWidth);
  let most = 0;
  for (const n of counts) if (n > most) most = n;
  const top = Math.max(1, Number.isFinite(limit) ? limit : 0, most) * 1.15;
  const yOf = (n: number) => TOP + plotHeight - (n / top) * plotHeight;
  const root = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    width: WIDTH,
    height: HEIGHT,
    class: "budget-plot",
    role: "img",
  });
  root.append(
    svg("line", { x1: LEFT, y1: TOP + plotHeight, x2: LEFT + plotWidth, y2: TOP + plotHeight, class: "axis" }),
    svg("line", { x1: LEFT, y1: TOP, x2: LEFT, y2: TOP + plotHeight, class: "axis" }),
    svg("text", { x: LEFT - 4, y: TOP + plotHeight, class: "tick", "text-anchor": "end" }, "0"),
    svg(
      "text",
      { x: LEFT, y: TOP + plotHeight + 15, class: "tick", "text-anchor": "start" },
      `${Math.round(start)} ms`,
    ),
    svg(
      "text",
      { x: LEFT + plotWidth, y: TOP + plotHeight + 15, class: "tick", "text-anchor": "end" },
      `${Math.round(start + span)} ms`,
    ),
  );
  // The counts as a step line: a point where a column's count changes.
  const points: string[] = [];
  let previous = -1;
  for (let c = 0; c < counts.length; c++) {
    const n = counts[c]!;
    const x = LEFT + c;
    if (n !== previous) {
      if (previous >= 0) points.push(`${x},${yOf(previous).toFixed(1)}`);
      points.push(`${x},${yOf(n).toFixed(1)}`);
      previous = n;
    }
  }
  points.push(`${LEFT + counts.length},${yOf(Math.max(0, previous)).toFixed(1)}`);
  root.append(svg("polyline", { points: points.join(" "), class: "counts" }));
  if (Number.isFinite(limit)) {
    const y = yOf(limit);
    root.append(
      svg("line", { x1: LEFT, y1: y, x2: LEFT + plotWidth, y2: y, class: "limit" }),
      svg("text", { x: LEFT - 4, y: y + 4, class: "tick limit-label", "text-anchor": "end" }, String(limit)),
    );
  }
  // The most, where it does not sit on the figures of the axis or the limit.
  if (most > 0 && Math.abs(yOf(most) - yOf(0)) >= 12 && Math.abs(yOf(most) - yOf(limit)) >= 12)
    root.append(svg("text", { x: LEFT - 4, y: yOf(most) + 4, class: "tick", "text-anchor": "end" }, String(most)));
  return { element: root, most };
}
