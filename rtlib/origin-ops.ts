// The operators of compiled code in a program with guards (spec/runtime.md,
// section 9, "What the compiler emits"): `$origins.iadd(a, b)` where a program without
// guards has `$iadd(a, b)`. Each strips its operands, computes as the plain
// operator does, and tags the result with the union of their origins; an
// operator whose result is a Boolean (a comparison) strips and tags nothing.
// A value with no origins takes one test per operand (below), and then exactly
// the plain operator's path.

import {
  addRedactedParts,
  Cell,
  CONSOLE_SINK,
  keepRedactedParts,
  noteRedactedText,
  redacts,
  Context,
  flow,
  Guarded,
  join,
  joinAll,
  originsOf,
  plain,
  refusal,
  ROOT_CELL,
  tag,
  type CallOrigins,
  type Origins,
} from "./origins.js";
import {
  iadd as iaddPlain,
  idiv as idivPlain,
  imod as imodPlain,
  imul as imulPlain,
  index as listIndex,
  isub as isubPlain,
  fmod as fmodPlain,
} from "./ints.js";
import { equals as equalsPlain, compare as comparePlain } from "./equality.js";
import { floatText as floatTextPlain, toText as toTextPlain } from "./text.js";
import { decode, encode } from "./json.js";
import {
  concat as concatPlain,
  pushInPlace as pushInPlacePlain,
  rangeInclusive as rangeInclusivePlain,
  range as rangePlain,
} from "./lib/list.js";
import { tadd as taddPlain, tinterp } from "./limits-collections.js";
import { Pair, RMap, RSet, type Shape } from "./values.js";
import { groupBy as groupByPlain } from "./query.js";
import { Group } from "./prelude.js";
import { carrying, Grant } from "./grants.js";
import { Crash, DataCrash, Failure, GuardRefusal } from "./errors.js";

// The test for origins is `typeof x === "object"` where the operand's static type
// is a number or a text (a Guarded is then the only object it can be), and
// Array.isArray where it is a list: bundled into one CommonJS file, the runtime's
// top-level bindings are `var`s, and an `instanceof` against one is not folded to
// a constant (9x slower on a loop of plain numbers, measured in bench/guards).
//
// Each operator is a function of its own, with the test for origins and the plain
// operator inline, and nothing captured: an operator made by a helper shares its
// type feedback with the others (the plain call inside becomes megamorphic), and
// one whose slow path is a closure over its operands allocates a context on every
// call, fast path included (bench/guards measured 3x to 8x on loops with no guarded
// data at all before both were removed).

/**
 * An operator's result over operands with origins: computed plain, carrying their
 * union; a crash it meets (a division by zero, an overflow, an index) names
 * values made from them, and leaves through the console as a print would.
 */
function lifted(a: unknown, b: unknown, op: (a: never, b: never) => unknown): unknown {
  const origins = joined(a, b);
  try {
    return tag((op as (a: unknown, b: unknown) => unknown)(plain(a), plain(b)), origins);
  } catch (e) {
    throw thrownWith(e, origins);
  }
}

/**
 * What an operation on values with origins threw: a failure's value carries them
 * (a decoding error quotes the text it read), and a crash whose message was made
 * from them is checked as a print (crashThroughConsole).
 */
function thrownWith(e: unknown, origins: Origins | undefined): unknown {
  if (e instanceof Failure) return new Failure(tag(e.value, origins), e.site);
  return e instanceof Crash ? crashThroughConsole(e, origins) : e;
}

/**
 * `lifted` for operands of a number or text type, where a Guarded is the only
 * object an operand can be (no `instanceof` against the runtime's binding).
 */
function liftedPrimitive(a: unknown, b: unknown, op: (a: never, b: never) => unknown): unknown {
  const ga = typeof a === "object" ? (a as Guarded) : undefined;
  const gb = typeof b === "object" ? (b as Guarded) : undefined;
  return liftedWith(
    ga === undefined ? a : ga.value,
    gb === undefined ? b : gb.value,
    join(ga?.origins, gb?.origins)!,
    op,
  );
}

function liftedWith(a: unknown, b: unknown, origins: Origins, op: (a: never, b: never) => unknown): unknown {
  try {
    // A number, a text or a range's list: never Nothing, a Boolean, a function or a Guarded, so wrapped as it is.
    return new Guarded((op as (a: unknown, b: unknown) => unknown)(a, b), origins);
  } catch (e) {
    throw thrownWith(e, origins);
  }
}

const addPlain = (a: number, b: number): number => a + b;
const subPlain = (a: number, b: number): number => a - b;
const mulPlain = (a: number, b: number): number => a * b;
const divPlain = (a: number, b: number): number => a / b;
const remPlain = (a: number, b: number): number => a % b;

// ---- arithmetic, texts, ranges ----

export function add(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, addPlain)
    : (a as number) + (b as number);
}
export function sub(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, subPlain)
    : (a as number) - (b as number);
}
export function mul(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, mulPlain)
    : (a as number) * (b as number);
}
export function div(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, divPlain)
    : (a as number) / (b as number);
}
export function rem(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, remPlain)
    : (a as number) % (b as number);
}
export function neg(a: unknown): unknown {
  return typeof a === "object" ? tag(-((a as Guarded).value as number), (a as Guarded).origins) : -(a as number);
}
export function ineg(a: unknown): unknown {
  return typeof a === "object"
    ? tag(isubPlain(0, (a as Guarded).value as number), (a as Guarded).origins)
    : isubPlain(0, a as number);
}
export function iadd(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, iaddPlain)
    : iaddPlain(a as number, b as number);
}
export function isub(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, isubPlain)
    : isubPlain(a as number, b as number);
}
export function imul(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, imulPlain)
    : imulPlain(a as number, b as number);
}
export function idiv(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, idivPlain)
    : idivPlain(a as number, b as number);
}
export function imod(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, imodPlain)
    : imodPlain(a as number, b as number);
}
export function fmod(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, fmodPlain)
    : fmodPlain(a as number, b as number);
}
export function tadd(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, taddPlain)
    : taddPlain(a as string, b as string);
}
export function concat(a: unknown, b: unknown): unknown {
  return !Array.isArray(a) || !Array.isArray(b)
    ? lifted(a, b, concatPlain)
    : concatPlain(a as unknown[], b as unknown[]);
}
export function rangeInclusive(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, rangeInclusivePlain)
    : rangeInclusivePlain(a as number, b as number);
}
export function range(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? liftedPrimitive(a, b, rangePlain)
    : rangePlain(a as number, b as number);
}
export function index(items: unknown, i: unknown): unknown {
  return !Array.isArray(items) || typeof i === "object"
    ? lifted(items, i, listIndex)
    : listIndex(items as unknown[], i as number);
}

// ---- comparisons for a sort's comparator: plain answers, the keys' origins kept apart (keyOrigins) ----

export function compare(a: unknown, b: unknown): number {
  return comparePlain(a, b);
}
export function lt(a: unknown, b: unknown): boolean {
  return typeof a === "object" || typeof b === "object"
    ? (plain(a) as number) < (plain(b) as number)
    : (a as number) < (b as number);
}
export function gt(a: unknown, b: unknown): boolean {
  return typeof a === "object" || typeof b === "object"
    ? (plain(a) as number) > (plain(b) as number)
    : (a as number) > (b as number);
}

// ---- comparisons a program makes: a Boolean carries its operands' origins ----
//
// The plain comparisons above are a sort's; these are the program's.

export function isSame(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object" ? decided(plain(a) === plain(b), a, b) : a === b;
}
export function isNotSame(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object" ? decided(plain(a) !== plain(b), a, b) : a !== b;
}
export function isEqual(a: unknown, b: unknown): unknown {
  return a instanceof Guarded || b instanceof Guarded
    ? decided(equalsPlain(plain(a), plain(b)), a, b)
    : equalsPlain(a, b);
}
export function isNotEqual(a: unknown, b: unknown): unknown {
  return a instanceof Guarded || b instanceof Guarded
    ? decided(!equalsPlain(plain(a), plain(b)), a, b)
    : !equalsPlain(a, b);
}
export function isLt(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? decided((plain(a) as number) < (plain(b) as number), a, b)
    : (a as number) < (b as number);
}
export function isLe(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? decided((plain(a) as number) <= (plain(b) as number), a, b)
    : (a as number) <= (b as number);
}
export function isGt(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? decided((plain(a) as number) > (plain(b) as number), a, b)
    : (a as number) > (b as number);
}
export function isGe(a: unknown, b: unknown): unknown {
  return typeof a === "object" || typeof b === "object"
    ? decided((plain(a) as number) >= (plain(b) as number), a, b)
    : (a as number) >= (b as number);
}
/**
 * `a < b` and the like for values ordered by `compare` (records, lists, options): `op` is -1, 0 or 1 for <, =, > and
 * `orEqual` adds =.
 */
export function isOrdered(a: unknown, b: unknown, sign: number, orEqual: boolean): unknown {
  const c = comparePlain(plain(a), plain(b));
  const holds = c === 0 ? orEqual : Math.sign(c) === sign;
  return a instanceof Guarded || b instanceof Guarded ? decided(holds, a, b) : holds;
}
function decided(holds: boolean, a: unknown, b: unknown): unknown {
  const origins = joined(a, b);
  return origins === undefined ? holds : new Guarded(holds, origins);
}

// ---- decisions (spec/runtime.md, "Decisions on guarded data") ----

/** `not b`: the same origins. */
export function not(b: unknown): unknown {
  return typeof b === "object" ? new Guarded(!(b as Guarded).value, (b as Guarded).origins) : !b;
}

/** A `check`'s verdict: whether it holds, a decision on what it was computed from, which a test's outcome tells of. */
export function verdict(b: unknown): boolean {
  if (typeof b !== "object") return b === true;
  flow.decided = join(flow.decided, (b as Guarded).origins);
  return (b as Guarded).value === true;
}

/** Whether a condition holds: a Boolean, perhaps carrying origins. */
export function truth(b: unknown): boolean {
  return b === true || (typeof b === "object" && (b as Guarded).value === true);
}

/** What `a and b` or `a or b` gives when `b` decides it: `b`, carrying the origins of `a` that chose it. */
export function after(a: unknown, b: unknown): unknown {
  return typeof a === "object" ? tag(b, (a as Guarded).origins) : b;
}

/**
 * A decision on `c` (a condition, a match's subject, a loop's source or bounds):
 * when it carries origins, the code that depends on it runs under them too, and
 * an enclosing `otherwise` that goes on after a failure gathers them.
 */
export function decide(cx: Context, c: unknown): Context {
  if (!(c instanceof Guarded)) return cx;
  return raise(cx, c.origins);
}

/** `decide` on a set of origins (a counted loop's bounds). */
export function decideOn(cx: Context, origins: Origins | undefined): Context {
  return origins === undefined ? cx : raise(cx, origins);
}

function raise(cx: Context, origins: Origins): Context {
  if (cx.cell !== ROOT_CELL) cx.cell.add(join(origins, cx.pc));
  if (flow.decided !== origins) flow.decided = join(flow.decided, origins);
  let raised = cx.lastBy === origins ? cx.lastRaised! : undefined;
  if (raised === undefined) {
    const pc = join(cx.pc, origins);
    raised = pc === cx.pc ? cx : cx.cell.context(pc);
    cx.lastBy = origins;
    cx.lastRaised = raised;
  }
  flow.cx = raised;
  return raised;
}

/** How a decision's arms may leave it other than at its end: what its join keeps of the raised context. */
export const EXITS_NONE = 0;
/** A `return`, `skip` or `stop` that leaves the decision: what runs after depends on it, to the function's end. */
export const EXITS_LOCAL = 1;
/** A failure that leaves it: what runs after depends on it only when an `otherwise` will go on after the failure. */
export const EXITS_FAILING = 2;

/** The end of a decision: the context from before it, or the raised one kept (see the EXITS_ constants). */
export function leave(saved: Context, cx: Context, exits: number): Context {
  const kept = exits === EXITS_LOCAL || (exits === EXITS_FAILING && cx.cell !== ROOT_CELL) ? cx : saved;
  flow.cx = kept;
  return kept;
}

/** What a function gives out (a return, a failure): carrying the decisions it made since it was called in `entry`. */
export function returned(value: unknown, cx: Context, entry: Context): unknown {
  return cx === entry || cx.pc === undefined ? value : tag(value, cx.pc);
}

/**
 * A value given out of code running under `cx` (a return, a failure, an arm's value, a var set in an arm), carrying its
 * origins.
 */
export function withPc(value: unknown, cx: Context): unknown {
  return cx.pc === undefined ? value : tag(value, cx.pc);
}

/** The context a function starts in: its caller's. */
export function enter(): Context {
  return flow.cx;
}

/** Sets the running context back to a function's own, where it resumes; gives `value` back. */
export function back<T>(value: T, cx: Context): T {
  flow.cx = cx;
  return value;
}

/** An `otherwise` that goes on after a failure: a cell of its own for the decisions its expression makes. */
export function scope(cx: Context): Context {
  const opened = new Context(cx.pc, new Cell(cx.cell));
  flow.cx = opened;
  return opened;
}

/**
 * The handler of such an `otherwise`: it runs under what decided that the failure
 * happened (arms that tell failures apart decide on the failure's value besides).
 */
export function caught(cx: Context): Context {
  // That the failure happened is a decision: where the run goes on (which arm, which line) tells of it.
  return cx.cell.origins === undefined ? cx : raise(cx, cx.cell.origins);
}

/**
 * The end of such an `otherwise`, on either way: the context from before it; or,
 * when its handler may leave early (a `skip`, a `return`, a failure an enclosing
 * `otherwise` goes on after), that context raised by what decided the failure,
 * since what runs after depends on whether it happened.
 */
export function settle(saved: Context, cx: Context, exits: number): Context {
  if (cx.cell.origins !== undefined) flow.decided = join(flow.decided, cx.cell.origins);
  let next = saved;
  if (exits === EXITS_LOCAL || (exits === EXITS_FAILING && saved.cell !== ROOT_CELL)) {
    const pc = join(join(saved.pc, cx.pc), cx.cell.origins);
    if (pc !== saved.pc) next = saved.cell.context(pc);
  }
  flow.cx = next;
  return next;
}

/**
 * A call of a function value: a function chosen by a decision on guarded data
 * carries its origins, so it runs under them and what it gives back carries them.
 */
export function callValue(fn: unknown, args: unknown[]): unknown {
  if (!(fn instanceof Guarded)) return (fn as (...xs: unknown[]) => unknown)(...args);
  const cx = flow.cx;
  raise(cx, fn.origins);
  try {
    const r = (fn.value as (...xs: unknown[]) => unknown)(...args);
    return r instanceof Promise ? r.then((v: unknown) => tag(v, fn.origins)) : tag(r, fn.origins);
  } finally {
    flow.cx = cx;
  }
}

/** A query's `where`: the origins of the conditions that chose its rows so far, and this one's. */
export function chosenBy(so: Origins | undefined, condition: unknown): Origins | undefined {
  return typeof condition === "object" ? join(so, (condition as Guarded).origins) : so;
}

/** A value the `otherwise` gives, or a var its handler may set: carrying what decided whether the failure happened. */
export function settled(value: unknown, cx: Context): unknown {
  return tag(value, join(cx.cell.origins, cx.pc));
}

// ---- values as text and JSON ----

export function toText(value: unknown, shape?: Shape): unknown {
  if (!(value instanceof Guarded)) return toTextPlain(value, shape);
  try {
    return tag(toTextPlain(value.value, shape), value.origins);
  } catch (e) {
    throw thrownWith(e, value.origins);
  }
}
export function floatText(x: unknown): unknown {
  return typeof x === "object"
    ? tag(floatTextPlain((x as Guarded).value as number), (x as Guarded).origins)
    : floatTextPlain(x as number);
}
export function toJson(value: unknown, shape: Shape): unknown {
  const origins = originsOf(value);
  try {
    return tag(JSON.parse(encode(plain(value), shape)), origins);
  } catch (e) {
    throw thrownWith(e, origins);
  }
}

/** `T.from_json(text)`: its failure (a syntax error quotes the text) carries the text's origins too. */
export function fromJson(value: unknown, shape: Shape): unknown {
  const origins = originsOf(value);
  flow.cx.cell.add(origins);
  try {
    return tag(decode(plain(value) as string, shape), origins);
  } catch (e) {
    throw thrownWith(e, origins);
  }
}

/**
 * An interpolation: its literal pieces and its values, which are texts already
 * (Int, Text and Boolean as they are, the rest written by toText), each perhaps
 * with origins; the text carries their union.
 */
export function interp(strings: readonly string[], values: readonly unknown[]): unknown {
  let text = strings[0]!;
  let origins: Origins | undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    // Texts, numbers and Booleans: a Guarded is the only object among them.
    if (typeof v === "object" && v !== null) {
      const g = v as Guarded;
      origins = join(origins, g.origins);
      text += String(g.value);
    } else {
      text += String(v);
    }
    text += strings[i + 1]!;
  }
  try {
    return tag(tinterp(text), origins);
  } catch (e) {
    throw thrownWith(e, origins);
  }
}

// An interpolation of one, two or three values, the common cases, with no array made
// per evaluation: when no value carries origins (none is an object), the text is joined
// as a template literal joins it.

export function interp1(s0: string, v0: unknown, s1: string): unknown {
  return typeof v0 !== "object" ? tinterp(s0 + (v0 as string) + s1) : interp([s0, s1], [v0]);
}

export function interp2(s0: string, v0: unknown, s1: string, v1: unknown, s2: string): unknown {
  return typeof v0 !== "object" && typeof v1 !== "object"
    ? tinterp(s0 + (v0 as string) + s1 + (v1 as string) + s2)
    : interp([s0, s1, s2], [v0, v1]);
}

export function interp3(
  s0: string,
  v0: unknown,
  s1: string,
  v1: unknown,
  s2: string,
  v2: unknown,
  s3: string,
): unknown {
  return typeof v0 !== "object" && typeof v1 !== "object" && typeof v2 !== "object"
    ? tinterp(s0 + (v0 as string) + s1 + (v1 as string) + s2 + (v2 as string) + s3)
    : interp([s0, s1, s2, s3], [v0, v1, v2]);
}

// ---- containers: plain items, the union on the container ----

/** The texts that came from a redacted name among the items stripInPlace (or map) stripped last, if any. */
let strippedParts: Set<string> | undefined;

/** Strips the items of a fresh array in place; gives back their union. */
function stripInPlace(items: unknown[]): Origins | undefined {
  let origins: Origins | undefined;
  strippedParts = undefined;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    if (v instanceof Guarded) {
      origins = join(origins, v.origins);
      if (redacts(v.origins)) addRedactedParts(v.value, (strippedParts ??= new Set()));
      items[i] = v.value;
    }
  }
  return origins;
}

/** A list literal: its items stripped in place, the list tagged with their union. */
export function list(items: unknown[]): unknown {
  const origins = stripInPlace(items);
  if (strippedParts !== undefined) keepRedactedParts(items, strippedParts);
  return tag(items, origins);
}

/** A map literal from its entries. */
export function map(entries: [unknown, unknown][]): unknown {
  let origins: Origins | undefined;
  let parts: Set<string> | undefined;
  for (const entry of entries) {
    for (const i of [0, 1] as const) {
      const v = entry[i];
      if (v instanceof Guarded) {
        origins = join(origins, v.origins);
        if (redacts(v.origins)) addRedactedParts(v.value, (parts ??= new Set()));
        entry[i] = v.value;
      }
    }
  }
  const made = new RMap(entries);
  if (parts !== undefined) keepRedactedParts(made, parts);
  return tag(made, origins);
}

export function pair(first: unknown, second: unknown): unknown {
  const items = [first, second];
  const origins = stripInPlace(items);
  const made = new Pair(items[0], items[1]);
  if (strippedParts !== undefined) keepRedactedParts(made, strippedParts);
  return tag(made, origins);
}

/** A record or a case: built from its plain fields, tagged with their union. */
export function make(cls: new (...fields: unknown[]) => object, fields: unknown[]): unknown {
  const origins = stripInPlace(fields);
  const made = new cls(...fields);
  if (strippedParts !== undefined) keepRedactedParts(made, strippedParts);
  return tag(made, origins);
}

/** A field of a record that may carry origins: the field carries the record's. */
export function field(record: unknown, property: string): unknown {
  return record instanceof Guarded
    ? tag((record.value as Record<string, unknown>)[property], record.origins)
    : (record as Record<string, unknown>)[property];
}

/**
 * What a `for each` or a query's `from` walks: a list's items, a set's values,
 * a map's entries as pairs; each carries the container's origins.
 */
export function items(source: unknown): Iterable<unknown> {
  const origins = originsOf(source);
  const inner = plain(source);
  const walked: Iterable<unknown> =
    inner instanceof RSet
      ? inner.values()
      : inner instanceof RMap
        ? Array.from(inner.entries(), ([k, v]) => new Pair(k, v))
        : (inner as Iterable<unknown>);
  if (origins === undefined) return walked;
  return {
    *[Symbol.iterator]() {
      for (const item of walked) yield tag(item, origins);
    },
  };
}

/**
 * A query's groups: each Group holds its key and its items plain, and carries
 * their union (rows of a query may carry origins; query.ts groups them as values).
 */
export function groupBy(rows: unknown[], key: (row: unknown) => unknown, item: (row: unknown) => unknown): unknown[] {
  return groupByPlain(rows, key, item).map((group) => {
    const g = group as { key: unknown; items: unknown[] };
    const origins = join(originsOf(g.key), stripInPlace(g.items));
    return tag(Group.desc.make([plain(g.key), g.items]), origins);
  });
}

/** The union of the origins of a query's sort keys: `keyed` holds each row's keys, then the row. */
export function keyOrigins(keyed: readonly unknown[][], keys: number): Origins | undefined {
  let origins: Origins | undefined;
  for (const row of keyed) for (let i = 0; i < keys; i++) origins = join(origins, originsOf(row[i]));
  return origins;
}

/** The union of two values' origins (the bounds of a counted loop). */
export function joined(a: unknown, b: unknown): Origins | undefined {
  return join(originsOf(a), originsOf(b));
}

/**
 * A change in place of a list, map or set only a `var` holds (`set v to v + [x]`):
 * `fn` changes the plain container; the var takes it back carrying the union of
 * what it carried and what was added.
 */
export function inPlace(fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  const origins = stripInPlace(args);
  fn(...args);
  return tag(args[0], origins);
}

/**
 * `set v to v + [x]` in place, the most common change of a list in a loop: with
 * nothing carrying origins, the item is pushed and the list given back as it is,
 * with no array of arguments made.
 */
export function pushOne(target: unknown, item: unknown): unknown {
  if (!(target instanceof Guarded) && !(typeof item === "object" && item instanceof Guarded)) {
    pushInPlacePlain(target as unknown[], item);
    return target;
  }
  return inPlace(pushInPlacePlain as (...args: unknown[]) => unknown, [target, item]);
}

/** The value a match or a pattern looks at, and the origins its bindings carry. */
export { plain, originsOf, tag };

// ---- library calls ----

/**
 * A call of a library function in a program with guards. Its arguments are
 * given plain; a function value it is given is wrapped, so that the function is
 * called with the arguments' origins on its own arguments and what it returns
 * is given back plain, its origins kept for the result. A primitive (one that
 * takes a grant, `effectful`) gets its grant carrying the arguments' origins,
 * which the gateway checks at every call it makes.
 *
 * What the result (or the failure's value) carries: for a function without
 * effects, the arguments' origins; for a primitive, the bits of the guards whose
 * capabilities covered its calls, and the arguments' origins only when there
 * was such a guard (data sent where its guard allows and answered by the outside
 * world comes back as the outside world's); for both, the
 * origins of what the function values returned.
 */
function libraryCall(
  fn: (...args: unknown[]) => unknown,
  args: unknown[],
  effectful: boolean,
  check?: (returned: unknown, decided?: Origins) => void,
  fallible = false,
): unknown {
  const cx = flow.cx;
  // An effect made under decisions on guarded data is checked with their origins too.
  const call = new LibraryCall(joinAll(args), effectful, cx);
  // Whether a call fails depends on what it was given: a function without effects that can fail (a decoding, a
  // parse) on its arguments; an effect on them too (a guard refuses where a URL made of guarded data leads, a
  // header made of it cannot be sent), and on the decisions it is made under.
  if (fallible || effectful) cx.cell.add(call.carried.args);
  // The texts of the arguments that came from a redacted name: the recorder redacts them (spec/recording.md).
  if (effectful && redacts(call.argsOrigins)) call.carried.redactedParts = redactedPartsOf(args);
  // `args` is the array compiled code made for this call: its items are replaced in place.
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (effectful && i === 0) {
      if (a instanceof Grant) args[0] = carrying(a, call.carried);
      continue;
    }
    const v = plain(a);
    args[i] =
      typeof v === "function"
        ? wrapFunction(v as (...xs: unknown[]) => unknown, call.argsOrigins, call.fromFunctions, cx, check)
        : v;
  }
  let returned: unknown;
  try {
    returned = fn(...args);
  } catch (e) {
    throw call.failure(e);
  }
  if (returned instanceof Promise)
    return returned.then(
      (value: unknown) => call.result(value),
      (e: unknown) => Promise.reject(call.failure(e)),
    );
  return call.result(returned);
}

/** The texts of a library call's arguments (its grant first) that came from a redacted name. */
function redactedPartsOf(args: readonly unknown[]): Set<string> {
  const parts = new Set<string>();
  for (let i = 1; i < args.length; i++) {
    const a = args[i];
    if (a instanceof Guarded && redacts(a.origins)) addRedactedParts(a.value, parts);
  }
  return parts;
}

/** One library call's origins, as it goes (a class, not closures: none is made per call). */
class LibraryCall {
  /** What the gateway adds: the guards whose capabilities covered the calls it made. */
  readonly carried: CallOrigins;
  /** What the function values it was given returned. */
  readonly fromFunctions: CallOrigins;

  constructor(
    readonly argsOrigins: Origins | undefined,
    readonly effectful: boolean,
    readonly cx: Context,
  ) {
    this.carried = { args: effectful ? join(argsOrigins, cx.pc) : argsOrigins, result: undefined, cell: cx.cell };
    this.fromFunctions = { args: argsOrigins, result: undefined };
  }

  origins(): Origins | undefined {
    const own = this.effectful
      ? this.carried.result === undefined
        ? undefined
        : join(this.carried.result, this.argsOrigins)
      : this.argsOrigins;
    return join(own, this.fromFunctions.result);
  }

  result(value: unknown): unknown {
    // Whether a guarded read succeeds (a file that exists) is about the guarded data.
    this.cx.cell.add(this.carried.result);
    if (!this.effectful && redacts(this.argsOrigins)) noteRedactedText(value);
    return tag(value, this.origins());
  }

  /**
   * A failure may echo the call's own arguments (`InvalidUrl(url)`, `Timeout(url)`,
   * `PermissionDenied(path)`), raised before the gateway or after it: it carries
   * them, and a crash that names them is checked as a print.
   */
  failure(e: unknown): unknown {
    this.cx.cell.add(this.carried.result);
    // A guard's refusal echoes no argument: it carries only the decisions the call was made under.
    const pc = join(this.cx.pc, this.carried.failing);
    if (e instanceof GuardRefusal) return thrownWith(e, pc);
    return thrownWith(e, join(join(this.origins(), this.argsOrigins), pc));
  }
}

/**
 * A crash whose message was made from values with origins (`19372296636 / 0`, an
 * index, a size) leaves through the console: when their guards do not allow it,
 * the run ends with E-RT-GUARD instead, at the same place, naming no value.
 */
export function crashThroughConsole(e: Crash, origins: Origins | undefined): Crash {
  if (e.code === "E-RT-GUARD") return e;
  const refused = refusal(origins, CONSOLE_SINK);
  if (refused === undefined) return e;
  // That it crashed at all was decided by the data: a decision, which hides where the run ended, and which an
  // `otherwise` that goes on, or a server's request, gathers.
  flow.decided = join(flow.decided, origins);
  flow.cx.cell.add(origins);
  const guarded = new DataCrash("E-RT-GUARD", { call: `the message of ${e.code}`, ...refused }, e.site);
  if (e.stack !== undefined)
    guarded.stack = `${guarded.name}: ${guarded.message}\n${e.stack.split("\n").slice(1).join("\n")}`;
  return guarded;
}

/** A function value given to the library: called with origins on its arguments, giving back plain values. */
function wrapFunction(
  f: (...xs: unknown[]) => unknown,
  argsOrigins: Origins | undefined,
  returnedOrigins: CallOrigins,
  cx: Context,
  check?: (returned: unknown, decided?: Origins) => void,
): (...xs: unknown[]) => unknown {
  const plainResult = (r: unknown) => {
    check?.(r);
    if (r instanceof Guarded) returnedOrigins.result = join(returnedOrigins.result, r.origins);
    return plain(r);
  };
  return (...xs: unknown[]) => {
    // The library may call it after awaits of its own: it runs in the context the library was called in.
    const given = argsOrigins === undefined ? xs : xs.map((x) => tag(x, argsOrigins));
    // What is checked (a server's handler) goes on after a failure, answered 500: each call gathers what
    // decided whether it failed, and what it answers carries that (spec/runtime.md, "Decisions on guarded data").
    const own = check === undefined ? undefined : new Context(cx.pc, new Cell(cx.cell));
    flow.cx = own ?? cx;
    if (own === undefined) {
      const r = f(...given);
      return r instanceof Promise ? r.then(plainResult) : plainResult(r);
    }
    const decided = () => join(own.cell.origins, own.pc);
    const settle = (r: unknown) => plainResult(tag(r, decided()));
    // However it ends (a crash, a failure, out of fuel), the answer tells of the decisions it made: when they may not
    // go where the answer goes, every way it ends gives the same answer, the guard's.
    const ended = (e: unknown): never => {
      if (e instanceof DataCrash) throw e;
      check!(undefined, decided());
      throw e;
    };
    try {
      const r = f(...given);
      return r instanceof Promise ? r.then(settle, ended) : settle(r);
    } catch (e) {
      return ended(e);
    }
  };
}

/**
 * A library function without effects. Given no value with origins and no
 * function (the common case), its result can carry none: it is called as it is.
 */
export function pure(fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  return mayCarry(args) ? libraryCall(fn, args, false) : fn(...args);
}

/** Whether a library call's arguments may give its result origins: one carries some, or is a function. */
function mayCarry(args: readonly unknown[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a instanceof Guarded || typeof a === "function") return true;
  }
  return false;
}

/** A library function without effects that can fail: whether it does is gathered by an `otherwise` that goes on. */
export function pureFallible(fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  return mayCarry(args) ? libraryCall(fn, args, false, undefined, true) : fn(...args);
}

/** A primitive: its first argument is the grant. */
export function effect(fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  return libraryCall(fn, args, true);
}

/**
 * `server.serve`: what the handler answers leaves through the socket, and is
 * checked against network.socket at the port; refused, the request is answered
 * 500 with the guard's message (server.ts answers a handler's crash so).
 */
export function serve(fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  const port = plain(args[1]);
  return libraryCall(fn, args, true, (returned, decided) => {
    const refused = refusal(join(originsOf(returned), decided), { path: ["network", "socket"], scope: String(port) });
    if (refused !== undefined) throw new Crash("E-RT-GUARD", { call: "the response", ...refused });
  });
}
