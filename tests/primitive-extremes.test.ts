// Every function of the standard library a program can call without a
// capability (and a few with one), and the runtime's own operations on values
// (`+` on texts, interpolation, writing a value, JSON, map keys, equality),
// called in process with extreme arguments: 0, -1, ±(2^53 - 1), texts at the
// limit, empty, odd characters (lone surrogates, NUL, right-to-left marks,
// "\r\n", "toString", "__proto__"), lists at the element limit. The arguments
// are made from each function's signature in the library (compiler/check), so
// a function added to the library is driven too. Whatever a call does, it must
// end as a program's calls may: a value within the limits, a failure, or a
// crash with a code of the language. An internal error, an engine error (a
// RangeError, a TypeError) or a text or list past its limit fails the test.
//
// RENYI_FUZZ_CASES sets the number of calls (300 by default; `npm run fuzz` raises it);
// RENYI_FUZZ_SEED replays a run.

import assert from "node:assert/strict";
import { test } from "node:test";
import { libraryScopes } from "../compiler/check/declare.js";
import { resolve, type Type } from "../compiler/check/types.js";
import { Crash, Failure } from "../rtlib/errors.js";
import { equals, compare } from "../rtlib/equality.js";
import { rootGrant } from "../rtlib/grants.js";
import * as runtime from "../rtlib/index.js";
import { encode } from "../rtlib/json.js";
import { MAX_ELEMENTS, MAX_TEXT, tadd } from "../rtlib/limits-collections.js";
import { configureLimits } from "../rtlib/limits.js";
import { DateRecord, Duration, Instant, NONE, Some } from "../rtlib/prelude.js";
import { toText } from "../rtlib/text.js";
import { BYTES, DYNAMIC, keyOf, Pair, RMap, RSet, TEXT, type Shape } from "../rtlib/values.js";

configureLimits({});

// 600 calls reach every callable and a few hundred more at random in npm test; npm run fuzz makes thousands.
const CASES = Number(process.env["RENYI_FUZZ_CASES"] ?? 300);
const SEED = Number(process.env["RENYI_FUZZ_SEED"] ?? 20_261_130);

// ---- a seeded generator ----

let state = SEED;
function random(): number {
  // mulberry32
  state = (state + 0x6d2b79f5) | 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
/** Huge values now and then: they are what the limits are for, and what makes a call slow. */
const rarely = () => random() < 0.04;

// ---- extreme values, made once ----

const MAX_INT = 2 ** 53 - 1;
const INTS = [
  0,
  1,
  -1,
  2,
  7,
  MAX_INT,
  -MAX_INT,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 48,
  MAX_ELEMENTS,
  MAX_ELEMENTS + 1,
  MAX_TEXT,
  8_640_000_000_000_001,
  -8_640_000_000_000_001,
  3_000_000_000,
];
const FLOATS = [0, -0, 0.5, -1.5, NaN, Infinity, -Infinity, 1e308, 5e-324, 2 ** 53, 1e21];
const ODD_TEXTS = [
  "",
  "a",
  "toString",
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "then",
  "\u0000",
  "\ud800",
  "\udc00x\ud83d",
  "\u202eabc\u200f",
  "\r\n",
  "a\nb\r\nc\n",
  "😀",
  "ß",
  "ΐ",
  "$&$1$$",
  "  12 ",
  "-0",
  "9007199254740993",
  "1e400",
  '{"a": [1, 2]}',
  '{"__proto__": {"x": 1}}',
  "[",
  "aGk=",
  "1970-01-01",
  "𝒳𝒴",
  ", ",
];
const BIG_TEXTS = [
  "a".repeat(MAX_TEXT),
  "ΐ".repeat(MAX_TEXT / 2), // three characters each in upper case
  "\n".repeat(MAX_ELEMENTS + 5),
  "\u0000".repeat(MAX_TEXT / 4), // six characters each in JSON
  "😀".repeat(MAX_TEXT / 4),
  `[${"0,".repeat(MAX_ELEMENTS)}0]`,
];

/**
 * Whether this call may be given lists at the element limit: not a call that calls a function for each item (a sort of
 * ten million keys takes seconds, and proves nothing more).
 */
let bigLists = true;

function text(): string {
  return rarely() ? pick(BIG_TEXTS) : pick(ODD_TEXTS);
}

// ---- values of a type ----

/** What a type parameter stands for in one call: every T of the call is the same kind of value. */
type Binding = Map<string, Type>;
const T_CHOICES: Type[] = [
  con("Int"),
  con("Text"),
  con("Float"),
  con("List", [con("Int")]),
  con("List", [con("Text")]),
  con("Boolean"),
];

function con(name: string, args: Type[] = []): Type {
  return { kind: "Con", name, args };
}

function valueFor(type: Type, binding: Binding, depth = 0): unknown {
  const r = resolve(type);
  if (r.kind === "Param") {
    if (!binding.has(r.name)) binding.set(r.name, pick(T_CHOICES));
    return valueFor(binding.get(r.name)!, binding, depth);
  }
  if (r.kind === "Function") {
    // One answer, chosen when the function is made: a list of ten million calls it is no slower than the list.
    const answer = valueFor(r.returns, binding, depth + 1);
    return () => answer;
  }
  if (r.kind !== "Con") return null;
  const [a, b] = r.args;
  switch (r.name) {
    case "Int":
      return pick(INTS);
    case "Float":
      return pick([...FLOATS, ...INTS]);
    case "Text":
      return text();
    case "Boolean":
      return random() < 0.5;
    case "Nothing":
      return null;
    case "Bytes":
      return rarely()
        ? new Uint8Array(3 * MAX_TEXT + 3).fill(0x61)
        : pick([
            new Uint8Array([]),
            new Uint8Array([0xff, 0xfe]),
            new Uint8Array([0xe2, 0x82]),
            new Uint8Array(Buffer.from("héllo")),
          ]);
    case "Json":
      return pick([
        null,
        1,
        "x",
        [],
        { __proto__: null, toString: 1 },
        JSON.parse('{"__proto__": [1, {"constructor": null}]}'),
        nested(rarely() ? 200_000 : 50),
      ]);
    case "List":
      if (rarely() && depth === 0 && bigLists) {
        // A list at the element limit, or a little over half of it, of one value (filled, not made item by item).
        const item = valueFor(a!, binding, depth + 1);
        if (random() < 0.3) return Array.from({ length: 9 }, () => (typeof item === "string" ? text() : item));
        return new Array<unknown>(pick([MAX_ELEMENTS, MAX_ELEMENTS / 2 + 1])).fill(item);
      }
      return Array.from({ length: pick([0, 1, 2, 5]) }, () => valueFor(a!, binding, depth + 1));
    case "Set":
      return new RSet(Array.from({ length: pick([0, 1, 3]) }, () => valueFor(a!, binding, depth + 1)));
    case "Map":
      return new RMap(
        Array.from(
          { length: pick([0, 1, 3]) },
          () => [valueFor(a!, binding, depth + 1), valueFor(b!, binding, depth + 1)] as [unknown, unknown],
        ),
      );
    case "Pair":
      return new Pair(valueFor(a!, binding, depth + 1), valueFor(b!, binding, depth + 1));
    case "Optional":
      return random() < 0.3 ? NONE : new Some(valueFor(a!, binding, depth + 1));
    case "Instant":
      return Instant.desc.make([pick(INTS)]);
    case "Duration":
      return Duration.desc.make([pick(INTS)]);
    case "Date":
      return DateRecord.desc.make([pick([1970, 0, -1, 275760, 99999]), pick([1, 12, 0, 13]), pick([1, 31, 0])]);
    default:
      return r.decl !== undefined ? null : null;
  }
}

/** A Json array nested `depth` deep. */
function nested(depth: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** The type a type parameter stands for in this call, chosen when first asked. */
function valueTypeOf(type: Type, binding: Binding): Type {
  const r = resolve(type);
  if (r.kind !== "Param") return r;
  if (!binding.has(r.name)) binding.set(r.name, pick(T_CHOICES));
  return binding.get(r.name)!;
}

/** The shape a `json.decode(text, as: T)` is given. */
function shapeOf(type: Type): Shape {
  const r = resolve(type);
  if (r.kind !== "Con") return DYNAMIC;
  switch (r.name) {
    case "Int":
      return runtime.INT;
    case "Float":
      return runtime.FLOAT;
    case "Text":
      return TEXT;
    case "Bytes":
      return BYTES;
    case "List":
      return runtime.shapeList(shapeOf(r.args[0]!));
    case "Map":
      return runtime.shapeMap(shapeOf(r.args[0]!), shapeOf(r.args[1]!));
    default:
      return DYNAMIC;
  }
}

// ---- what a call may end with ----

/** A problem with how a call ended, or undefined when it ended as a program's calls may. */
function problemWith(result: unknown): string | undefined {
  if (typeof result === "string" && result.length > MAX_TEXT)
    return `a text of ${result.length} characters, past the limit`;
  if (Array.isArray(result) && result.length > MAX_ELEMENTS) return `a list of ${result.length} items, past the limit`;
  if ((result instanceof RMap || result instanceof RSet) && result.size > MAX_ELEMENTS)
    return `a map or set of ${result.size} entries, past the limit`;
  return undefined;
}

function problemWithError(e: unknown): string | undefined {
  if (e instanceof Failure) return undefined;
  if (e instanceof Crash) return e.code === "E-RT-INTERNAL" ? `E-RT-INTERNAL: ${e.message}` : undefined;
  // A value nested past the stack ends the run with E-RT-DEPTH (the worker maps it); nothing else may escape.
  if (e instanceof RangeError && /call stack/.test(e.message)) return undefined;
  return `${e instanceof Error ? e.constructor.name : typeof e}: ${e instanceof Error ? e.message : String(e)}`;
}

function describeArg(v: unknown): string {
  if (typeof v === "string")
    return v.length > 40 ? `<text of ${v.length}: ${JSON.stringify(v.slice(0, 8))}...>` : JSON.stringify(v);
  if (Array.isArray(v)) return v.length > 10 ? `<list of ${v.length}>` : `[${v.map(describeArg).join(", ")}]`;
  if (typeof v === "function") return "<function>";
  if (v instanceof Uint8Array) return `<bytes of ${v.length}>`;
  try {
    const t = toText(v);
    return t.length > 60 ? `${t.slice(0, 60)}...` : t;
  } catch {
    return String(v);
  }
}

// ---- the calls ----

interface Callable {
  readonly name: string;
  readonly json?: boolean;
  readonly params: readonly Type[];
  readonly call: (args: unknown[], binding: Binding) => unknown;
}

const STRING = con("Text");
const NUMERIC = new Set(["list.sum", "list.average", "math.abs", "math.min", "math.max"]);
const T: Type = { kind: "Param", name: "T", id: -1 };
const grant = rootGrant([{ path: ["environment"] }, { path: ["random"] }, { path: ["time"] }], "main");

function libraryCallables(): Callable[] {
  const out: Callable[] = [];
  for (const [module, scope] of libraryScopes().library) {
    const exported = (runtime as unknown as Record<string, Record<string, (...a: unknown[]) => unknown> | undefined>)[
      module
    ];
    for (const [name, sig] of scope.functions) {
      const effectful = sig.needs.length > 0;
      if (
        effectful &&
        !["environment.get", "random.integer", "random.choice", "random.shuffle"].includes(`${module}.${name}`)
      )
        continue;
      const fn = exported?.[name] ?? exported?.[`${name}_`];
      assert.equal(typeof fn, "function", `the runtime has no ${module}.${name}`);
      const typed = sig.params.filter((p) => !p.typeArgument).map((p) => p.type);
      const typeArgument = sig.params.find((p) => p.typeArgument);
      out.push({
        name: `${module}.${name}`,
        params: typed,
        // A Json value is no List: json.parse may give an array of any length.
        json: resolve(sig.returns).kind === "Con" && (resolve(sig.returns) as { name: string }).name === "Json",
        call: (args, binding) => {
          const shape = typeArgument === undefined ? [] : [shapeOf(valueTypeOf(typeArgument.type, binding))];
          // json.encode takes the value's shape after it.
          const shapeAfter = module === "json" && name === "encode" ? [DYNAMIC] : [];
          return fn!(...(effectful ? [grant] : []), ...args, ...shape, ...shapeAfter);
        },
      });
    }
  }
  return out;
}

/** What compiled code does to values besides calling the library. */
const OPERATIONS: Callable[] = [
  { name: "a + b on texts", params: [STRING, STRING], call: ([a, b]) => tadd(a as string, b as string) },
  {
    name: "interpolation",
    params: [T, T, T],
    call: ([a, b, c]) => runtime.tinterp(`${toText(a)} and ${toText(b)} or ${toText(c)}`),
  },
  { name: "to_text", params: [T], call: ([a]) => toText(a) },
  { name: "json of a value", params: [T], call: ([a]) => encode(a) },
  { name: "a map key", params: [T], call: ([a]) => new RMap([[a, 1]]).get(a) },
  {
    name: "a set of lists",
    params: [con("List", [T])],
    call: ([a]) => {
      keyOf(a);
      return new RSet([a, a]).size;
    },
  },
  { name: "equality and order", params: [T, T], call: ([a, b]) => [equals(a, b), compare(a, b)] },
  {
    name: "list + list",
    params: [con("List", [T]), con("List", [T])],
    call: ([a, b]) => runtime.concat(a as unknown[], b as unknown[]),
  },
];

test(`every library function and value operation, with extreme arguments, ends in a value, a failure or a language crash (seed ${SEED})`, async () => {
  const callables = [...libraryCallables(), ...OPERATIONS];
  const problems: string[] = [];
  const covered = new Set<string>();
  for (let i = 0; i < CASES; i++) {
    // Every callable in turn first, then at random.
    const callable = i < callables.length ? callables[i]! : pick(callables);
    covered.add(callable.name);
    const binding: Binding = new Map();
    // The checker lets these take numbers only.
    if (NUMERIC.has(callable.name)) binding.set("T", pick([con("Int"), con("Float")]));
    bigLists = !callable.params.some((p) => resolve(p).kind === "Function");
    const args = callable.params.map((p) => valueFor(p, binding));
    let problem: string | undefined;
    const started = performance.now();
    try {
      const result = await callable.call(args, binding);
      problem = callable.json === true ? undefined : problemWith(result);
    } catch (e) {
      problem = problemWithError(e);
    }
    if (process.env["RENYI_FUZZ_SLOW"] && performance.now() - started > 300)
      console.log(
        `slow: ${callable.name}(${args.map(describeArg).join(", ")}) ${Math.round(performance.now() - started)} ms`,
      );
    if (problem !== undefined && problems.length < 20)
      problems.push(`${callable.name}(${args.map(describeArg).join(", ")}): ${problem}`);
  }
  console.log(`primitive extremes: ${CASES} cases over ${covered.size} functions and operations (seed ${SEED})`);
  assert.deepEqual(problems, []);
});
