// The content hash of a program: main's module and every module it reaches,
// by name and text, in module order. The grant manifest of `renyic build`
// and the run manifest of a recording write it as `code`, and `renyi
// reproduce` refuses a program whose hash is not the recorded one.

import { sha256 } from "../../report/sha256.js";

export function codeHash(modules: readonly { readonly name: string; readonly text: string }[]): string {
  return sha256(modules.map((m) => `${m.name}\n${m.text}`).join("\n"));
}
