// Writes dist/build-id.json: a hash of the compiled compiler and runtime. It is
// part of every compile-cache key, so that a changed toolchain never runs a
// program compiled by the old one.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../dist", import.meta.url).pathname;
const hash = createHash("sha256");
function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith(".js") || name.endsWith(".cjs")) hash.update(name).update(readFileSync(path));
  }
}
for (const part of ["compiler", "rtlib", "cli"]) walk(join(root, part));
for (const name of ["runtime.js", "runtime.cjs", "runtime-import.cjs"])
  hash.update(name).update(readFileSync(join(root, name)));
writeFileSync(join(root, "build-id.json"), `${JSON.stringify({ id: hash.digest("hex").slice(0, 16) })}\n`);
