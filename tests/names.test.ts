// The names a bundle declares at its top level: no two things of a program,
// nor a thing of the program and one the compiler adds, may ever get the same
// name (a function named `tests` once met the table of a module's tests).

import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  descriptorName,
  functionName,
  hoistedName,
  localName,
  onlyValueName,
  testName,
  testTableName,
  typeName,
} from "../compiler/lower/names.js";

const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 3000);

// Renyi's names: functions and locals start lowercase, types and cases capitalised; module paths are names joined by
// `/`.
const lower = fc.stringMatching(/^[a-z_][a-z0-9_]{0,4}$/);
const upper = fc.stringMatching(/^[A-Z][A-Za-z0-9_]{0,4}$/);
const segment = fc.oneof(lower, upper);
const usedModule = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/"));
// The entry is named after its file, which may hold any character but `/`.
const entryModule = fc.string({ minLength: 1, maxLength: 6, unit: "grapheme" }).filter((s) => !s.includes("/"));
const module = fc.oneof(usedModule, usedModule, entryModule);

type Thing = { kind: string; module: string; name: string; caseName?: string; index?: number };

/** Every top-level name a module's definitions give the bundle, with what it names. */
function namesOf(thing: Thing): [string, string][] {
  const id = JSON.stringify(thing);
  switch (thing.kind) {
    case "function":
      return [[functionName(thing.module, thing.name), id]];
    case "type":
      return [
        [typeName(thing.module, thing.name), id],
        [descriptorName(typeName(thing.module, thing.name)), `${id} info`],
      ];
    case "case": {
      const cls = typeName(thing.module, thing.name, thing.caseName);
      return [
        [cls, id],
        [descriptorName(cls), `${id} info`],
        [onlyValueName(cls), `${id} only`],
      ];
    }
    case "test":
      return [
        [testName(thing.module, thing.index!), id],
        [testTableName(thing.module), `tests of ${thing.module}`],
      ];
    default:
      return [[hoistedName(thing.name, thing.module), id]];
  }
}

const thing: fc.Arbitrary<Thing> = fc.oneof(
  fc.record({ kind: fc.constant("function"), module, name: lower }),
  fc.record({ kind: fc.constant("type"), module, name: upper }),
  fc.record({ kind: fc.constant("case"), module, name: upper, caseName: upper }),
  fc.record({ kind: fc.constant("test"), module, name: fc.constant(""), index: fc.nat(20) }),
  // Hoisted constants: a key of letters, digits and single `_`.
  fc.record({
    kind: fc.constant("hoisted"),
    module,
    name: fc.stringMatching(/^(shape|class)_[A-Za-z0-9]{1,4}(_[A-Za-z0-9]{1,3})?$/),
  }),
);

test("no two things of a bundle get one top-level name", () => {
  let names = 0;
  fc.assert(
    fc.property(fc.array(thing, { minLength: 2, maxLength: 12 }), (things) => {
      const owner = new Map<string, string>();
      for (const t of things) {
        for (const [name, id] of namesOf(t)) {
          names++;
          assert.match(name, /^[A-Za-z_$][\w$]*$/u);
          const other = owner.get(name);
          assert.ok(other === undefined || other === id, `${name} names both ${other} and ${id}`);
          owner.set(name, id);
        }
      }
    }),
    { numRuns: CASES },
  );
  console.log(`names: ${CASES} programs, ${names} top-level names, none shared`);
});

test("a local is never named like a top-level name", () => {
  // Locals are Renyi names (no `$`), or a reserved word with one `$` after it; every top-level name has a `$` inside.
  fc.assert(
    fc.property(lower, thing, (local, t) => {
      for (const [name] of namesOf(t)) assert.notEqual(localName(local), name);
    }),
    { numRuns: CASES },
  );
});
