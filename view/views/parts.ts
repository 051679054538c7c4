// Pieces the views share: links to the page's own routes, headings, lists of words, numbers.
//
// A link's address is only ever one of the page's own fragments, built here from a route's
// name and IDs passed through encodeURIComponent: no address comes from the data itself, so a
// recording that holds `javascript:` shows it as text and links nowhere.

import { el } from "../dom.js";

type Route = "program" | "recording" | "compare";

/** `#/NAME/ID[/ID]`, each ID encoded. */
export function routeHref(name: Route, ...ids: string[]): string {
  return `#/${name}/${ids.map((id) => encodeURIComponent(id)).join("/")}`;
}

/** A link to one of the page's own routes, its text shown as text. */
export function routeLink(text: string, name: Route, ...ids: string[]): HTMLAnchorElement {
  return el("a", { href: routeHref(name, ...ids) }, text);
}

/** The ID a route names, or a message thrown when the route names none. */
export function routeId(parts: readonly string[], index: number, what: string): string {
  const id = parts[index];
  if (id === undefined || id === "") throw new Error(`the address names no ${what}`);
  return id;
}

/** A section with a heading. */
export function section(title: string, ...children: (Node | string | null | false | undefined)[]): HTMLElement {
  return el("section", {}, el("h2", {}, title), ...children);
}

/** A list, an item a line of text; `empty` when there are none. */
export function lines(items: readonly string[], empty = "(none)", className = "words"): HTMLElement {
  if (items.length === 0) return el("p", { class: "muted" }, empty);
  return el("ul", { class: className }, ...items.map((item) => el("li", {}, item)));
}

/** A number of milliseconds, for people. */
export function milliseconds(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  if (Math.abs(ms) >= 10_000) return `${Number((ms / 1000).toFixed(3))} s`;
  return `${Math.round(ms * 10) / 10} ms`;
}

/** A count of bytes, for people. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Text where each `<redacted>` is marked as such (a span of class `redacted`), the rest plain text. */
export function withRedactions(text: string): (Node | string)[] {
  const out: (Node | string)[] = [];
  const parts = text.split("<redacted>");
  parts.forEach((part, i) => {
    if (i > 0) out.push(el("span", { class: "redacted", title: "redacted when recorded" }, "<redacted>"));
    if (part !== "") out.push(part);
  });
  return out;
}

/** The page's title, `Renyi: what` (textContent, never markup). */
export function title(what: string): void {
  document.title = `Renyi: ${what}`;
}
