// `#/compare/A/B`: two recordings side by side: their outcomes and numbers of calls, then the calls
// that differ, field by field, as the replayer finds them (rtlib/recording/difference.ts), or "the
// same calls" when there are none.

import type { CompareView } from "../api.js";
import { el } from "../dom.js";
import { api } from "../fetch-api.js";
import { routeId, routeLink, section, title, withRedactions } from "./parts.js";

/** Differences shown as rows; more are counted, not shown. */
const ROWS = 2000;

export async function showCompare(main: HTMLElement, parts: string[], _query: URLSearchParams): Promise<void> {
  const a = routeId(parts, 0, "first recording");
  const b = routeId(parts, 1, "second recording");
  const compared = await api<CompareView>(`compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`);
  title(`${a} and ${b}`);
  main.dataset.same = String(compared.same);
  main.dataset.differences = String(compared.differences.length);
  const side = (label: string, which: CompareView["a"]) =>
    el(
      "div",
      { class: "side", "data-side": label },
      el("h3", {}, `${label}: `, routeLink(which.id, "recording", which.id)),
      el(
        "p",
        {},
        `${which.calls} call${which.calls === 1 ? "" : "s"}, `,
        el("span", { class: `outcome ${which.outcome === "finished" ? "good" : "bad"}` }, which.outcome),
      ),
    );
  main.append(
    el("h1", {}, "Two recordings"),
    el("div", { class: "side-by-side" }, side("A", compared.a), side("B", compared.b)),
  );
  if (compared.same || compared.differences.length === 0) {
    main.append(el("p", { class: "same", role: "status" }, compared.same ? "The same calls." : "No call differs."));
    return;
  }
  const shown = compared.differences.slice(0, ROWS);
  main.append(
    section(
      `The calls that differ (${compared.differences.length})`,
      el(
        "table",
        { class: "differences" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", {}, "Call"),
            el("th", {}, "Primitive"),
            el("th", {}, "Field"),
            el("th", {}, "A"),
            el("th", {}, "B"),
          ),
        ),
        el(
          "tbody",
          {},
          ...shown.map((d) =>
            el(
              "tr",
              { "data-index": String(d.index), "data-field": d.field },
              el("td", { class: "number" }, d.index < 0 ? "the run" : `#${d.index}`),
              el("td", {}, el("code", {}, d.primitive)),
              el("td", {}, el("code", {}, d.field)),
              el("td", {}, el("pre", { class: "json" }, ...withRedactions(d.a))),
              el("td", {}, el("pre", { class: "json" }, ...withRedactions(d.b))),
            ),
          ),
        ),
      ),
      compared.differences.length > ROWS
        ? el("p", { class: "note" }, `${compared.differences.length - ROWS} more differences are not shown.`)
        : null,
    ),
  );
}
