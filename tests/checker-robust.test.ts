// The checker never throws: every fixture program, with any one line taken
// out or any two names swapped, ends in a checked tree or diagnostics.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { checkSource } from "../compiler/index.js";
import { goldenFiles, readSections, ROOT } from "./golden.js";

const programs = ["syntax", "check"].flatMap((folder) =>
  goldenFiles(join(ROOT, "fixtures", folder)).map((path) => readSections(path).get("source") ?? ""),
);

function assertChecks(text: string): void {
  const result = checkSource("p.ry", text);
  for (const d of result.diagnostics) assert.match(d.code, /^(E|W)-[A-Z]+(-[A-Z]+)*$/);
}

test("every fixture program with one line taken out checks without throwing", () => {
  for (const program of programs) {
    const lines = program.split("\n");
    for (let i = 0; i < lines.length; i++) assertChecks([...lines.slice(0, i), ...lines.slice(i + 1)].join("\n"));
  }
});

test("fixture programs with names swapped check without throwing", () => {
  const words = [...new Set(programs.flatMap((p) => p.match(/\b[A-Za-z_][A-Za-z0-9_]*\b/g) ?? []))];
  fc.assert(
    fc.property(
      fc.constantFrom(...programs),
      fc.constantFrom(...words),
      fc.constantFrom(...words),
      fc.nat(),
      (program, from, to, nth) => {
        const occurrences = [...program.matchAll(new RegExp(`\\b${from}\\b`, "g"))];
        if (occurrences.length === 0) return;
        const at = occurrences[nth % occurrences.length]!.index!;
        assertChecks(program.slice(0, at) + to + program.slice(at + from.length));
      },
    ),
    { numRuns: 3000 },
  );
});
