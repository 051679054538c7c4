// The runtime's prelude (rtlib/prelude.ts) builds the same records and
// variants the checker declares (compiler/check/library.ts): same names, same
// fields in the same order, same cases in the same order.

import assert from "node:assert/strict";
import { test } from "node:test";
import { libraryScopes } from "../compiler/check/declare.js";
import { PRELUDE_RECORDS, PRELUDE_VARIANTS } from "../rtlib/prelude.js";

test("every prelude type of the checker exists at run time with the same shape", () => {
  const { prelude } = libraryScopes();
  assert.ok(prelude.types.size > 0);
  for (const decl of prelude.types.values()) {
    if (decl.shape === "record") {
      const desc = PRELUDE_RECORDS[decl.name];
      assert.ok(desc !== undefined, `the runtime has no record ${decl.name}`);
      assert.deepEqual(
        desc.fields.map((f) => f.name),
        decl.fields.map((f) => f.name),
        decl.name,
      );
    } else {
      const desc = PRELUDE_VARIANTS[decl.name];
      assert.ok(desc !== undefined, `the runtime has no variant ${decl.name}`);
      assert.deepEqual(
        desc.cases.map((c) => c.name),
        decl.cases.map((c) => c.name),
        decl.name,
      );
      decl.cases.forEach((c, i) => {
        assert.deepEqual(
          desc.cases[i]!.fields.map((f) => f.name),
          c.fields.map((f) => f.name),
          `${decl.name}.${c.name}`,
        );
      });
    }
  }
  assert.equal(
    Object.keys(PRELUDE_RECORDS).length + Object.keys(PRELUDE_VARIANTS).length,
    prelude.types.size,
    "the runtime has prelude types the checker does not declare",
  );
});
