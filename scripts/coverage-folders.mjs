// The figures of `npm run coverage` for each part of the project: lines, branches
// and functions the test suite runs, summed over the sources of a folder (the .ts
// files, through the source maps of what was built), from coverage/coverage-summary.json.

import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";

const root = resolve(new URL("..", import.meta.url).pathname);
const summary = JSON.parse(readFileSync(resolve(root, "coverage", "coverage-summary.json"), "utf8"));

// The most specific folder first: a file counts in the first folder it is in.
const FOLDERS = [
  ["compiler/", "the compiler"],
  ["rtlib/", "the runtime"],
  ["cli/bundles/", "the trusted base for bundles"],
  ["cli/", "the command line (without cli/bundles/)"],
  ["report/", "diagnostics and outcomes"],
  ["vocabulary/", "shared vocabulary and the catalogue"],
];
const KINDS = ["lines", "branches", "functions"];

const totals = new Map(
  FOLDERS.map(([folder]) => [
    folder,
    { files: 0, ...Object.fromEntries(KINDS.map((k) => [k, { covered: 0, total: 0 }])) },
  ]),
);
for (const [file, figures] of Object.entries(summary)) {
  if (file === "total") continue;
  const path = relative(root, file);
  const folder = FOLDERS.find(([f]) => path.startsWith(f))?.[0];
  if (folder === undefined || !/\.c?ts$/.test(path)) continue;
  const sum = totals.get(folder);
  sum.files++;
  for (const kind of KINDS) {
    sum[kind].covered += figures[kind].covered;
    sum[kind].total += figures[kind].total;
  }
}

const percent = ({ covered, total }) => (total === 0 ? "-" : `${((100 * covered) / total).toFixed(1)}%`);
console.log(`coverage of the sources by the test suite, ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `${"folder".padEnd(14)} ${"files".padStart(5)} ${"lines".padStart(8)} ` +
    `${"branches".padStart(9)} ${"functions".padStart(10)}`,
);
for (const [folder, what] of FOLDERS) {
  const sum = totals.get(folder);
  const cells = KINDS.map((k, i) => percent(sum[k]).padStart([8, 9, 10][i]));
  console.log(`${folder.padEnd(14)} ${String(sum.files).padStart(5)} ${cells.join(" ")}  ${what}`);
}
