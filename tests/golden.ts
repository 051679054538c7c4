// Golden files: one file per case, in sections headed `==== NAME ====`. The
// `source` section is the input; the others are what the compiler produced
// when the file was last reviewed. `RENYI_UPDATE=1 npm test` rewrites them;
// review the diff before committing it.

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const UPDATE = process.env["RENYI_UPDATE"] === "1";

const HEADER = /^==== ([a-z0-9_ ./]+) ====$/;

export function readSections(path: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  let lines: string[] = [];
  // Every section ends with a line break, which belongs to the file, not the section.
  const all = readFileSync(path, "utf8").split("\n");
  if (all[all.length - 1] === "") all.pop();
  for (const line of all) {
    const header = HEADER.exec(line);
    if (header) {
      if (current !== undefined) sections.set(current, lines.join("\n"));
      current = header[1]!;
      lines = [];
    } else {
      lines.push(line);
    }
  }
  if (current !== undefined) sections.set(current, lines.join("\n"));
  return sections;
}

export function writeSections(path: string, sections: Map<string, string>): void {
  let out = "";
  for (const [name, body] of sections) {
    out += `==== ${name} ====\n${body}\n`;
  }
  writeFileSync(path, out);
}

export function goldenFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((f) => f.endsWith(".golden"))
    .sort()
    .map((f) => join(folder, f));
}

/** The repository's root, from dist/tests/ or tests/. */
export const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/dist\/?$/, "/").replace(/\/$/, "");
