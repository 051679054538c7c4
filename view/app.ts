// The page of `renyi view`: one document, its views chosen by the address's fragment.
//
//   #/                      what was found: programs and recordings (views/items.ts)
//   #/program/ID            a program (views/program.ts)
//   #/recording/ID          a recording (views/recording.ts)
//   #/compare/ID/ID         two recordings side by side (views/compare.ts)
//   #/playground[?...]      the playground (playground/page.ts)
//
// IDs are encoded with encodeURIComponent. A view that fails shows its error as text.

import { el, emptied } from "./dom.js";
import { ApiRefusal } from "./fetch-api.js";
import { showCompare } from "./views/compare.js";
import { showItems } from "./views/items.js";
import { showProgram } from "./views/program.js";
import { showRecording } from "./views/recording.js";

type View = (main: HTMLElement, parts: string[], query: URLSearchParams) => Promise<void>;

/**
 * The playground (CodeMirror and the compiler's check: nearly all of the page's script) is a file
 * of its own, playground.js, loaded when it is first opened: the first view does not wait for it.
 */
const PLAYGROUND_SCRIPT = "./playground.js";
const showPlayground: View = async (main, parts, query) => {
  const playground = (await import(PLAYGROUND_SCRIPT)) as typeof import("./playground/page.js");
  await playground.showPlayground(main, parts, query);
};

// A map, not an object: a fragment naming `constructor` or `__proto__` is an unknown view, not a property of Object.
const VIEWS: ReadonlyMap<string, View> = new Map([
  ["", showItems],
  ["program", showProgram],
  ["recording", showRecording],
  ["compare", showCompare],
  ["playground", showPlayground],
]);

/** The view the fragment names; the items for an empty or unknown one. */
async function route(): Promise<void> {
  const main = emptied("main");
  const fragment = location.hash.replace(/^#\/?/, "");
  const [path = "", queryText = ""] = fragment.split("?", 2);
  const [name = "", ...rest] = path.split("/");
  const view = VIEWS.get(name) ?? showItems;
  document.body.dataset.view = view === showItems ? "items" : name;
  try {
    // Inside the try: a fragment with a malformed escape (`%E0%A4%A`) is a view that fails with its message.
    const parts = rest.map((part) => decodeURIComponent(part));
    await view(main, parts, new URLSearchParams(queryText));
  } catch (error) {
    main.replaceChildren(
      el(
        "p",
        { class: "failure", role: "alert" },
        error instanceof ApiRefusal ? error.message : `the view failed: ${String(error)}`,
      ),
    );
  }
  document.body.dataset.ready = "true";
}

window.addEventListener("hashchange", () => {
  document.body.dataset.ready = "false";
  void route();
});
void route();
