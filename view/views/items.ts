// `#/`: what `renyi view` found under its paths, programs and recordings grouped by folder, each a
// link to its view; a recording with the program it ran and its outcome, and a box to pick it for
// a comparison (two picked: the Compare button opens them side by side). The first view painted:
// one request, one list, nothing drawn.

import type { Item, ItemList } from "../api.js";
import { el } from "../dom.js";
import { api } from "../fetch-api.js";
import { bytes, routeHref, routeLink, section, title } from "./parts.js";

/** The folder of an item's ID (`0/examples/fixtures/x.json` -> `0/examples/fixtures`) and its name. */
function split(id: string): [folder: string, name: string] {
  const slash = id.lastIndexOf("/");
  return slash < 0 ? ["", id] : [id.slice(0, slash), id.slice(slash + 1)];
}

/** A folder as people read it: the root it is under, as given, then the path under it. */
function folderName(folder: string, roots: readonly string[]): string {
  const slash = folder.indexOf("/");
  const index = slash < 0 ? folder : folder.slice(0, slash);
  const under = slash < 0 ? "" : folder.slice(slash + 1);
  const root = /^\d+$/.test(index) ? roots[Number(index)] : undefined;
  if (root === undefined) return folder;
  return under === "" ? root : `${root.replace(/\/+$/, "")}/${under}`;
}

/**
 * The items, from the answer index.html asked for while the page's script loaded (a preload:
 * the request made here is the same, so the browser hands over that answer) when there is one.
 * A refusal is asked again through `api`, which throws it with its code and message.
 */
async function items(): Promise<ItemList> {
  try {
    const response = await fetch("api/items");
    if (response.ok) return (await response.json()) as ItemList;
  } catch {}
  return await api<ItemList>("items");
}

export async function showItems(main: HTMLElement, _parts: string[], _query: URLSearchParams): Promise<void> {
  const list = await items();
  title("programs and recordings");
  const programs = list.items.filter((item) => item.kind === "program").length;
  const recordings = list.items.length - programs;
  main.dataset.programs = String(programs);
  main.dataset.recordings = String(recordings);

  const picked: string[] = [];
  const compare = el("button", { type: "button", disabled: "", class: "compare-button" }, "Compare the two picked");
  const pickedNote = el("span", { class: "muted" }, "Pick two recordings to compare them.");
  compare.addEventListener("click", () => {
    if (picked.length === 2) location.hash = routeHref("compare", picked[0]!, picked[1]!);
  });
  const pick = (id: string, box: HTMLInputElement) => {
    const at = picked.indexOf(id);
    if (box.checked && at < 0) picked.push(id);
    if (!box.checked && at >= 0) picked.splice(at, 1);
    // A third pick lets go of the oldest one.
    while (picked.length > 2) {
      const dropped = picked.shift()!;
      const other = main.querySelector<HTMLInputElement>(`input[data-id="${CSS.escape(dropped)}"]`);
      if (other !== null) other.checked = false;
    }
    compare.disabled = picked.length !== 2;
    pickedNote.textContent =
      picked.length === 0 ? "Pick two recordings to compare them." : `Picked: ${picked.join(", ")}`;
  };

  const folders = new Map<string, Item[]>();
  for (const item of list.items) {
    const [folder] = split(item.id);
    let items = folders.get(folder);
    if (items === undefined) folders.set(folder, (items = []));
    items.push(item);
  }
  const groups = [...folders.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  main.append(
    el("h1", {}, "Programs and recordings"),
    el(
      "p",
      { class: "muted" },
      `${programs} program${programs === 1 ? "" : "s"} and ${recordings} recording${recordings === 1 ? "" : "s"} under ${list.roots.join(", ") || "(nothing)"}`,
    ),
  );
  if (list.truncated)
    main.append(
      el(
        "p",
        { class: "note", role: "note", "data-truncated": "true" },
        "The search stopped at its bound before seeing every file: some programs and recordings are not listed.",
      ),
    );
  main.append(el("p", { class: "compare-bar" }, compare, " ", pickedNote));
  for (const [folder, items] of groups) {
    items.sort((a, b) => (a.kind === b.kind ? (a.id < b.id ? -1 : 1) : a.kind === "program" ? -1 : 1));
    main.append(
      el(
        "section",
        { class: "folder" },
        el("h2", {}, folderName(folder, list.roots)),
        el("ul", { class: "items" }, ...items.map((item) => itemLine(item, pick))),
      ),
    );
  }
  if (list.items.length === 0) main.append(el("p", { class: "muted" }, "No program (.ry) or recording (.json) found."));
  performance.mark("renyi-items-shown");
  if (list.skipped.length > 0)
    main.append(
      section(
        `Skipped (${list.skipped.length})`,
        el(
          "ul",
          { class: "skipped" },
          ...list.skipped.map((skip) => el("li", {}, el("code", {}, skip.id), ": ", skip.message)),
        ),
      ),
    );
}

function itemLine(item: Item, pick: (id: string, box: HTMLInputElement) => void): HTMLElement {
  const [, name] = split(item.id);
  if (item.kind === "program")
    return el(
      "li",
      { class: "program", "data-id": item.id },
      el("span", { class: "kind" }, "program"),
      routeLink(name, "program", item.id),
      el("span", { class: "muted" }, bytes(item.bytes)),
    );
  const box = el("input", { type: "checkbox", "data-id": item.id, "aria-label": `pick ${name} to compare` });
  box.addEventListener("change", () => pick(item.id, box));
  return el(
    "li",
    { class: "recording", "data-id": item.id },
    box,
    el("span", { class: "kind" }, "recording"),
    routeLink(name, "recording", item.id),
    item.program !== undefined ? el("span", {}, "of ", el("code", {}, item.program)) : null,
    item.outcome !== undefined
      ? el("span", { class: `outcome ${item.outcome === "finished" ? "good" : "bad"}` }, item.outcome)
      : null,
    el("span", { class: "muted" }, bytes(item.bytes)),
  );
}
