// The prefix of a module's definitions in compiled code, and the module a
// prefix names: the compiler writes names with it (compiler/lower/names.ts), and
// a crash's stack is read back with it to say which definition the crash is in,
// whether `renyi run` or Node ran the bundle (report/outcome-text.ts).

/** A module's definitions are prefixed by its path: `lib/weather` defines `lib$weather$fetch`. */
export function modulePrefix(module: string): string {
  // A `use`d module's path is made of names, but the entry's name is its file's, which may
  // hold any character (`my-app.ry`, `2024.ry`): a character a JavaScript name cannot hold
  // there is written `$$` and its code in hexadecimal, then `$`. No path makes `$$` (its
  // segments are never empty), so two modules never get the same prefix.
  return module.replace(/[^A-Za-z0-9_/]|^[0-9]/gu, (ch) => `$$${ch.codePointAt(0)!.toString(16)}$`).replace(/\//g, "$");
}

/** The module path a prefix was made from: the inverse of modulePrefix. */
export function moduleOfPrefix(prefix: string): string {
  return prefix
    .split(/(\$\$[0-9a-f]+\$)/)
    .map((part, i) => (i % 2 === 1 ? String.fromCodePoint(parseInt(part.slice(2, -1), 16)) : part.replace(/\$/g, "/")))
    .join("");
}
