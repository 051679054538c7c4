// The operators of compiled code in a program with guards (spec/runtime.md,
// "Origins: what the compiler emits"): `$origins.iadd(a, b)` where a program without
// guards has `$iadd(a, b)`. Each strips its operands, computes as the plain
// operator does, and tags the result with the union of their origins; an
// operator whose result is a Boolean (a comparison) strips and tags nothing.
// A value with no origins takes one `instanceof` test per operand, and then
// exactly the plain operator's path.

import { Guarded, join, joinAll, originsOf, plain, refusal, tag, type CallOrigins, type Origins } from "./origins.js";
import { iadd, idiv, imod, imul, index as listIndex, isub, fmod } from "./ints.js";
import { equals as equalsPlain, compare as comparePlain } from "./equality.js";
import { floatText as floatTextPlain, toText as toTextPlain } from "./text.js";
import { decode, encode } from "./json.js";
import { concat as concatPlain, rangeInclusive as rangeInclusivePlain, range as rangePlain } from "./lib/list.js";
import { tadd as taddPlain, tinterp } from "./limits-collections.js";
import { Pair, RMap, RSet, type Shape } from "./values.js";
import { groupBy as groupByPlain } from "./query.js";
import { Group } from "./prelude.js";
import { carrying, Grant } from "./grants.js";
import { Crash, Failure } from "./errors.js";

type Op2 = (a: never, b: never) => unknown;

/** A two-operand operator over plain values, lifted to values that may carry origins. */
function lift2<F extends Op2>(f: F): (a: unknown, b: unknown) => unknown {
  const op = f as unknown as (a: unknown, b: unknown) => unknown;
  return (a, b) => (a instanceof Guarded || b instanceof Guarded ? tag(op(plain(a), plain(b)), join(originsOf(a), originsOf(b))) : op(a, b));
}

/** A one-operand operator, lifted. */
function lift1<F extends (a: never) => unknown>(f: F): (a: unknown) => unknown {
  const op = f as unknown as (a: unknown) => unknown;
  return (a) => (a instanceof Guarded ? tag(op(a.value), a.origins) : op(a));
}

/** An operator with a Boolean (or ordering) result: only strips. */
function strip2<R>(f: (a: never, b: never) => R): (a: unknown, b: unknown) => R {
  const op = f as unknown as (a: unknown, b: unknown) => R;
  return (a, b) => op(plain(a), plain(b));
}

// ---- arithmetic, texts, ranges ----

export const add = lift2((a: number, b: number) => a + b);
export const sub = lift2((a: number, b: number) => a - b);
export const mul = lift2((a: number, b: number) => a * b);
export const div = lift2((a: number, b: number) => a / b);
export const rem = lift2((a: number, b: number) => a % b);
export const neg = lift1((a: number) => -a);
export const ineg = lift1((a: number) => isub(0, a));
export { iaddG as iadd, isubG as isub, imulG as imul, idivG as idiv, imodG as imod, fmodG as fmod };
const iaddG = lift2(iadd);
const isubG = lift2(isub);
const imulG = lift2(imul);
const idivG = lift2(idiv);
const imodG = lift2(imod);
const fmodG = lift2(fmod);
export const tadd = lift2(taddPlain);
export const concat = lift2(concatPlain);
export const rangeInclusive = lift2(rangeInclusivePlain);
export const range = lift2(rangePlain);
export const index = lift2(listIndex as (items: readonly unknown[], i: number) => unknown);

// ---- comparisons: a Boolean carries no origin ----

export const same = strip2((a: unknown, b: unknown) => a === b);
export const equals = strip2(equalsPlain);
export const compare = strip2(comparePlain);
export const lt = strip2((a: number, b: number) => a < b);
export const le = strip2((a: number, b: number) => a <= b);
export const gt = strip2((a: number, b: number) => a > b);
export const ge = strip2((a: number, b: number) => a >= b);

// ---- values as text and JSON ----

export const toText = (value: unknown, shape?: Shape): unknown => (value instanceof Guarded ? tag(toTextPlain(value.value, shape), value.origins) : toTextPlain(value, shape));
export const floatText = lift1(floatTextPlain);
export const toJson = (value: unknown, shape: Shape): unknown => tag(JSON.parse(encode(plain(value), shape)), originsOf(value));
export const fromJson = (value: unknown, shape: Shape): unknown => tag(decode(plain(value) as string, shape), originsOf(value));

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
    if (v instanceof Guarded) {
      origins = join(origins, v.origins);
      text += String(v.value);
    } else {
      text += String(v);
    }
    text += strings[i + 1]!;
  }
  return tag(tinterp(text), origins);
}

// ---- containers: plain items, the union on the container ----

/** Strips the items of a fresh array in place; gives back their union. */
function stripInPlace(items: unknown[]): Origins | undefined {
  let origins: Origins | undefined;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    if (v instanceof Guarded) {
      origins = join(origins, v.origins);
      items[i] = v.value;
    }
  }
  return origins;
}

/** A list literal: its items stripped in place, the list tagged with their union. */
export function list(items: unknown[]): unknown {
  return tag(items, stripInPlace(items));
}

/** A map literal from its entries. */
export function map(entries: [unknown, unknown][]): unknown {
  let origins: Origins | undefined;
  for (const entry of entries) {
    for (const i of [0, 1] as const) {
      const v = entry[i];
      if (v instanceof Guarded) {
        origins = join(origins, v.origins);
        entry[i] = v.value;
      }
    }
  }
  return tag(new RMap(entries), origins);
}

export function pair(first: unknown, second: unknown): unknown {
  return tag(new Pair(plain(first), plain(second)), join(originsOf(first), originsOf(second)));
}

/** A record or a case: built from its plain fields, tagged with their union. */
export function make(cls: new (...fields: unknown[]) => object, fields: unknown[]): unknown {
  const origins = stripInPlace(fields);
  return tag(new cls(...fields), origins);
}

/** A field of a record that may carry origins: the field carries the record's. */
export function field(record: unknown, property: string): unknown {
  return record instanceof Guarded ? tag((record.value as Record<string, unknown>)[property], record.origins) : (record as Record<string, unknown>)[property];
}

/**
 * What a `for each` or a query's `from` walks: a list's items, a set's values,
 * a map's entries as pairs; each carries the container's origins.
 */
export function items(source: unknown): Iterable<unknown> {
  const origins = originsOf(source);
  const inner = plain(source);
  const walked: Iterable<unknown> = inner instanceof RSet ? inner.values() : inner instanceof RMap ? Array.from(inner.entries(), ([k, v]) => new Pair(k, v)) : (inner as Iterable<unknown>);
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
 * world comes back as the outside world's, as the seed states); for both, the
 * origins of what the function values returned.
 */
function libraryCall(fn: (...args: unknown[]) => unknown, args: unknown[], effectful: boolean, check?: (returned: unknown) => void): unknown {
  const argsOrigins = joinAll(args);
  const carried: CallOrigins = { args: argsOrigins, result: undefined };
  const fromFunctions: CallOrigins = { args: argsOrigins, result: undefined };
  const given = args.map((a, i) => {
    if (effectful && i === 0) return a instanceof Grant ? carrying(a, carried) : a;
    const v = plain(a);
    return typeof v === "function" ? wrapFunction(v as (...xs: unknown[]) => unknown, argsOrigins, fromFunctions, check) : v;
  });
  const origins = () => join(effectful ? (carried.result === undefined ? undefined : join(carried.result, argsOrigins)) : argsOrigins, fromFunctions.result);
  const resultOf = (value: unknown) => tag(value, origins());
  const failureOf = (e: unknown) => (e instanceof Failure ? new Failure(tag(e.value, origins()), e.site) : e);
  let returned: unknown;
  try {
    returned = fn(...given);
  } catch (e) {
    throw failureOf(e);
  }
  if (returned instanceof Promise) return returned.then(resultOf, (e: unknown) => Promise.reject(failureOf(e)));
  return resultOf(returned);
}

/** A function value given to the library: called with origins on its arguments, giving back plain values. */
function wrapFunction(f: (...xs: unknown[]) => unknown, argsOrigins: Origins | undefined, returnedOrigins: CallOrigins, check?: (returned: unknown) => void): (...xs: unknown[]) => unknown {
  const plainResult = (r: unknown) => {
    check?.(r);
    if (r instanceof Guarded) returnedOrigins.result = join(returnedOrigins.result, r.origins);
    return plain(r);
  };
  return (...xs: unknown[]) => {
    const r = f(...(argsOrigins === undefined ? xs : xs.map((x) => tag(x, argsOrigins))));
    return r instanceof Promise ? r.then(plainResult) : plainResult(r);
  };
}

/** A library function without effects. */
export function pure(fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  return libraryCall(fn, args, false);
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
  return libraryCall(fn, args, true, (returned) => {
    const refused = refusal(originsOf(returned), { path: ["network", "socket"], scope: String(port) });
    if (refused !== undefined) throw new Crash("E-RT-GUARD", { call: "the response", ...refused });
  });
}
