// Writes spec/library.md from the library's declarations (compiler/check/library.ts),
// through the built compiler: run by `npm run library-reference`, which builds first.
import { writeFileSync, renameSync } from "node:fs";
import { libraryReference } from "../dist/compiler/check/library-reference.js";

const target = new URL("../spec/library.md", import.meta.url).pathname;
// Written beside and renamed, so that a failed run leaves no half-written reference.
writeFileSync(`${target}.tmp`, libraryReference());
renameSync(`${target}.tmp`, target);
console.log("wrote spec/library.md");
