// Writes spec/cli.md (below its hand-written introduction) and the table of
// commands in README.md (between its markers) from the declarations of the
// commands, through the built command line: run by `npm run cli-reference`,
// which builds first.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { regeneratedCliReference, regeneratedReadme } from "../dist/cli/commands/cli-reference.js";

function write(name, text) {
  const target = new URL(`../${name}`, import.meta.url).pathname;
  // Written beside and renamed, so that a failed run leaves no half-written file.
  writeFileSync(`${target}.tmp`, text);
  renameSync(`${target}.tmp`, target);
  console.log(`wrote ${name}`);
}

const read = (name) => readFileSync(new URL(`../${name}`, import.meta.url), "utf8");
const readme = regeneratedReadme(read("README.md"));
if (readme === undefined) throw new Error("README.md has lost the markers around its table of commands");
write("spec/cli.md", regeneratedCliReference(read("spec/cli.md")));
write("README.md", readme);
