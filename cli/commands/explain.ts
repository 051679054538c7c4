// `renyi explain CODE`: the catalogue's long explanation of one code
// (cli/host/explanation.ts); `renyi explain` alone lists every code with its title.

import { EXIT } from "../../vocabulary/outcomes.js";
import { codeList, explanation } from "../host/explanation.js";

export function runExplain(code: string | undefined): number {
  process.stdout.write(code === undefined ? codeList() : explanation(code));
  return EXIT.finished;
}
