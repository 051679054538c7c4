// `renyi parse FILE`: the syntax tree, for people working on programs and on Renyi.

import { parseSource, hasErrors } from "../../compiler/index.js";
import { renderText } from "../../compiler/diagnostics.js";
import { dumpTree } from "../../compiler/parse/dump.js";
import { loadSource } from "../host/files.js";
import { EXIT } from "../../vocabulary/outcomes.js";

export function runParse(file: string): number {
  const loaded = loadSource(file);
  if (!loaded.ok) {
    process.stderr.write(renderText([loaded.diagnostic], new Map(loaded.source ? [[file, loaded.source]] : [])));
    return EXIT.refused;
  }
  const result = parseSource(file, loaded.source.text);
  process.stdout.write(dumpTree(result.module, loaded.source));
  if (result.diagnostics.length > 0)
    process.stderr.write(renderText(result.diagnostics, new Map([[file, loaded.source]])));
  return hasErrors(result.diagnostics) ? EXIT.refused : EXIT.finished;
}
