// Writes spec/diagnostics.md (below its hand-written introduction) and the
// table of run-time codes in spec/runtime.md from the catalogue of problems,
// through the built command line: run by `npm run diagnostics-reference`,
// which builds first.
import { readFileSync, writeFileSync, renameSync } from "node:fs";
import { regeneratedDiagnostics, regeneratedRuntime } from "../dist/report/diagnostics-reference.js";

function write(name, text) {
  const target = new URL(`../spec/${name}`, import.meta.url).pathname;
  // Written beside and renamed, so that a failed run leaves no half-written file.
  writeFileSync(`${target}.tmp`, text);
  renameSync(`${target}.tmp`, target);
  console.log(`wrote spec/${name}`);
}

const read = (name) => readFileSync(new URL(`../spec/${name}`, import.meta.url), "utf8");
write("diagnostics.md", regeneratedDiagnostics(read("diagnostics.md")));
const runtime = regeneratedRuntime(read("runtime.md"));
if (runtime === undefined) throw new Error("spec/runtime.md has lost the markers around its table of run-time codes");
write("runtime.md", runtime);
