// A match that names each case of a wide variant once costs steps in
// proportion to its arms (spec/types.md, section 5): its rows are indexed by
// the constructor at their head, so neither the missing case nor each arm's
// reachability looks at every arm for every case. Before, such a match of
// 1,600 arms was refused as too complex, and one of 25,600 took a minute and a
// half of work the budget never counted.

import assert from "node:assert/strict";
import { test } from "node:test";
import { checkSource as checkProgram } from "../compiler/index.js";
import { wideMatch } from "./adversarial-programs.js";

const checkSource = (text: string) => checkProgram("wide.ry", text).diagnostics;

test("a match naming each of 3,000 cases once is accepted, with nothing missing or unreachable", () => {
  const codes = checkSource(wideMatch(3000, 3000)).map((d) => d.code);
  assert.deepEqual(codes, []);
});

test("a wide match still finds its missing case and its unreachable arm", () => {
  const missing = wideMatch(3000, 2999).replace("    when _ then 0\n", "");
  const found = checkSource(missing);
  assert.deepEqual(
    found.map((d) => d.code),
    ["E-MATCH-MISSING"],
  );
  assert.equal((found[0]!.facts as { missing: string }).missing, "Many.C3000(_)");
  const twice = wideMatch(3000, 3000).replace(
    "    when Many.C17(value) then value + 17\n",
    "    when Many.C17(value) then value + 17\n    when Many.C17(other) then other\n",
  );
  assert.deepEqual(
    checkSource(twice).map((d) => d.code),
    ["W-MATCH-UNREACHABLE"],
  );
});
