// `#/program/ID`: a program as a reviewer reads it: main's grant and each test's in words, each
// public definition's purpose and needs, which function reaches which capability (an indented
// tree: a function, the functions it calls, the capabilities it uses), then every module's text,
// highlighted, with its diagnostics in place.

import type { DefinitionView, GrantView, ProgramView, ReachView } from "../api.js";
import { el } from "../dom.js";
import { api } from "../fetch-api.js";
import { moduleText } from "./code.js";
import { lines, routeId, section, title } from "./parts.js";

/** The reach tree's bound: nodes drawn in all, and how deep a chain of calls is followed. */
const TREE_NODES = 3000;
const TREE_DEPTH = 12;

export async function showProgram(main: HTMLElement, parts: string[], _query: URLSearchParams): Promise<void> {
  const id = routeId(parts, 0, "program");
  const program = await api<ProgramView>(`program?id=${encodeURIComponent(id)}`);
  title(id);
  const errors = program.diagnostics.filter((d) => d.severity === "error").length;
  main.dataset.modules = String(program.modules.length);
  main.dataset.diagnostics = String(program.diagnostics.length);
  main.append(
    el("h1", {}, "Program ", el("code", {}, id)),
    el(
      "p",
      { class: errors > 0 ? "failure" : "muted" },
      `${program.modules.length} module${program.modules.length === 1 ? "" : "s"}, ` +
        (program.diagnostics.length === 0
          ? "no diagnostics"
          : `${program.diagnostics.length} diagnostic${program.diagnostics.length === 1 ? "" : "s"} (${errors} error${errors === 1 ? "" : "s"})`),
    ),
    section("Grants", grants(program.grants)),
    section("Definitions", definitions(program.definitions)),
    section("What reaches what", reachTree(program.reach)),
  );
  for (const module of program.modules)
    main.append(
      section(
        `Module ${module.name}`,
        el("p", { class: "muted" }, module.file),
        moduleText(
          module,
          program.diagnostics.filter((d) => d.module === module.name),
        ),
      ),
    );
  const orphans = program.diagnostics.filter((d) => !program.modules.some((m) => m.name === d.module));
  if (orphans.length > 0)
    main.append(
      section(
        "Other diagnostics",
        lines(orphans.map((d) => `${d.module}:${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`)),
      ),
    );
}

function grants(list: readonly GrantView[]): HTMLElement {
  if (list.length === 0) return el("p", { class: "muted" }, "No main and no tests: nothing is granted.");
  return el(
    "div",
    { class: "grants" },
    ...list.map((grant) =>
      el(
        "div",
        { class: `grant ${grant.kind}`, "data-grant": grant.name },
        el(
          "h3",
          {},
          grant.kind === "main" ? "main" : `test "${grant.name}"`,
          el("span", { class: "muted" }, ` ${grant.module}, line ${grant.line}`),
        ),
        el("pre", { class: "grant-text" }, grant.text),
        lines(grant.words, "It may reach nothing.", "words grant-words"),
      ),
    ),
  );
}

function definitions(list: readonly DefinitionView[]): HTMLElement {
  if (list.length === 0) return el("p", { class: "muted" }, "(none)");
  return el(
    "table",
    { class: "definitions" },
    el("thead", {}, el("tr", {}, el("th", {}, "Name"), el("th", {}, "Purpose"), el("th", {}, "Needs"))),
    el(
      "tbody",
      {},
      ...list.map((d) =>
        el(
          "tr",
          { "data-definition": `${d.module}.${d.name}` },
          el(
            "td",
            {},
            el("code", {}, d.name),
            el("div", { class: "muted" }, `${d.public ? "public " : ""}${d.kind}, ${d.module} line ${d.line}`),
          ),
          el("td", { class: d.purpose === undefined ? "muted" : "purpose" }, d.purpose ?? "(no purpose given)"),
          el("td", {}, d.needs.length === 0 ? el("span", { class: "muted" }, "nothing") : d.needs.join(", ")),
        ),
      ),
    ),
  );
}

/**
 * The reach as an indented tree: from each function no other calls (main first), the functions it
 * calls, then the capabilities it uses itself. A function met again on the same chain is named and
 * not followed (recursion); the tree is bounded in nodes and depth.
 */
function reachTree(reach: readonly ReachView[]): HTMLElement {
  if (reach.length === 0) return el("p", { class: "muted" }, "No function of the program reaches a capability.");
  const byName = new Map<string, ReachView>();
  for (const r of reach) byName.set(`${r.module}.${r.function}`, r);
  const called = new Set<string>();
  for (const r of reach) for (const c of r.calls) if (c !== `${r.module}.${r.function}`) called.add(c);
  let roots = reach.filter((r) => !called.has(`${r.module}.${r.function}`));
  if (roots.length === 0) roots = [...reach];
  roots.sort((a, b) => (a.function === "main" ? -1 : b.function === "main" ? 1 : 0));
  let budget = TREE_NODES;

  const node = (r: ReachView, chain: Set<string>, depth: number): HTMLElement => {
    budget--;
    const key = `${r.module}.${r.function}`;
    const children: HTMLElement[] = [];
    if (depth < TREE_DEPTH) {
      for (const callee of r.calls) {
        if (budget <= 0) break;
        const target = byName.get(callee);
        if (target === undefined) continue;
        // A callee that reaches nothing is left out: the tree says where capabilities come from.
        if (target.reaches.length === 0) continue;
        if (chain.has(callee)) {
          budget--;
          children.push(
            el("li", { class: "fn again" }, el("code", {}, callee), el("span", { class: "muted" }, " (again)")),
          );
          continue;
        }
        chain.add(callee);
        children.push(node(target, chain, depth + 1));
        chain.delete(callee);
      }
    }
    for (const capability of r.uses) {
      budget--;
      children.push(el("li", { class: "capability", "data-capability": capability }, capability));
    }
    return el(
      "li",
      { class: "fn", "data-function": key },
      el("code", {}, key),
      r.reaches.length > 0 ? el("span", { class: "muted" }, ` reaches ${r.reaches.join(", ")}`) : null,
      children.length > 0 ? el("ul", {}, ...children) : null,
    );
  };
  const tree = el("ul", { class: "reach-tree" });
  for (const root of roots) {
    if (budget <= 0) break;
    tree.append(node(root, new Set([`${root.module}.${root.function}`]), 0));
  }
  return el(
    "div",
    {},
    tree,
    budget <= 0
      ? el("p", { class: "note" }, "The tree is cut at its bound; every function's reach is in the list below.")
      : null,
    el(
      "details",
      {},
      el("summary", {}, "Every function and what it reaches"),
      el(
        "table",
        { class: "reach-table" },
        el(
          "tbody",
          {},
          ...reach.map((r) =>
            el(
              "tr",
              {},
              el("td", {}, el("code", {}, `${r.module}.${r.function}`)),
              el("td", {}, r.reaches.join(", ") || "nothing"),
            ),
          ),
        ),
      ),
    ),
  );
}
