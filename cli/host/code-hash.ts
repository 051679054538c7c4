// The code hash of a loaded program (compiler/hash/code-form.ts): main and
// every definition it reaches, as parsed, without comments, tests or layout.
// The grant manifest of `renyic build` and the run manifest of a recording
// write it as `code`, and `renyi reproduce` refuses a program whose hash is not
// the recorded one. Made where the program is parsed: the program index keeps
// it beside the modules (cli/cache/program-index.ts), so that an unchanged
// program's run does not parse it again to know it.

import { codeHash } from "../../compiler/hash/code-form.js";
import type { ParsedModule } from "../../compiler/frontend.js";

export function programCode(program: { readonly entry: string; readonly modules: readonly ParsedModule[] }): string {
  return codeHash(program.modules, program.entry);
}
