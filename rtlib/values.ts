// Renyi values in JavaScript (spec/runtime.md):
//   Int, Float     a number (an Int stays within ±(2^53 - 1), checked by ints.ts)
//   Text           a string
//   Boolean        a boolean
//   Nothing        null
//   Bytes          a Uint8Array
//   List           an array, never changed once another value can see it
//   Map, Set       RMap, RSet: keyed by a canonical key, in insertion order
//   Pair           Pair
//   records        an instance of the record's class; its prototype holds the descriptor
//   variants       an instance of the case's class; bare cases are one shared instance
//   Json           plain JSON values (null, boolean, number, string, array, object)
// and shapes: descriptors of static types, which the compiler emits where a
// value's rendering or JSON form depends on more than the value itself.

import { Crash } from "./errors.js";
import { checkCollection, MAX_ELEMENTS, MAX_TEXT } from "./limits-collections.js";
import { Guarded } from "./origins.js";
import { chargeWork } from "./limits.js";

/** A field of a record or case: its Renyi name, its JavaScript property, its JSON key and its shape. */
export interface FieldDesc {
  readonly name: string;
  readonly prop: string;
  readonly json: string;
  readonly shape: Shape;
  /**
   * Whether a plain object inherits a property of this JSON name (`constructor`, `toString`, `__proto__`): reading it
   * then needs an own-property check.
   */
  readonly inherited: boolean;
}

export interface TypeDesc {
  readonly name: string;
  /** For a case: its variant's name and the case's position in the declaration. */
  readonly variant?: string;
  readonly index: number;
  readonly fields: readonly FieldDesc[];
  /** Builds a value from its fields in declaration order. */
  readonly make: (fields: unknown[]) => unknown;
  /** How to_text writes the name: `Point`, `Shape.Circle`, or `Some` for the prelude's Optional. */
  readonly written: string;
  /** The class of its values (`instanceof` tests in compiled matches). */
  readonly cls: new (
    ...fields: never[]
  ) => object;
}

export interface VariantDesc {
  readonly name: string;
  readonly cases: readonly TypeDesc[];
}

export type Shape =
  | { readonly k: "int" | "float" | "text" | "bool" | "nothing" | "bytes" | "json" | "function" | "dynamic" }
  | { readonly k: "list" | "set"; readonly item: Shape }
  | { readonly k: "map"; readonly key: Shape; readonly value: Shape }
  | { readonly k: "pair"; readonly first: Shape; readonly second: Shape }
  | { readonly k: "record"; readonly desc: TypeDesc; readonly args: readonly Shape[] }
  | { readonly k: "variant"; readonly desc: VariantDesc; readonly args: readonly Shape[] }
  | { readonly k: "param"; readonly index: number };

export const INT: Shape = { k: "int" };
export const FLOAT: Shape = { k: "float" };
export const TEXT: Shape = { k: "text" };
export const BOOL: Shape = { k: "bool" };
export const NOTHING: Shape = { k: "nothing" };
export const BYTES: Shape = { k: "bytes" };
export const JSON_SHAPE: Shape = { k: "json" };
export const FUNCTION: Shape = { k: "function" };
export const DYNAMIC: Shape = { k: "dynamic" };

export const list = (item: Shape): Shape => ({ k: "list", item });
export const set = (item: Shape): Shape => ({ k: "set", item });
export const map = (key: Shape, value: Shape): Shape => ({ k: "map", key, value });
export const pair = (first: Shape, second: Shape): Shape => ({ k: "pair", first, second });
export const record = (desc: TypeDesc, args: Shape[] = []): Shape => ({ k: "record", desc, args });
export const variant = (desc: VariantDesc, args: Shape[] = []): Shape => ({ k: "variant", desc, args });
export const param = (index: number): Shape => ({ k: "param", index });

/** The shape of a field of a generic type, with the type's arguments put in. */
export function instantiate(shape: Shape, args: readonly Shape[]): Shape {
  switch (shape.k) {
    case "param":
      return args[shape.index] ?? DYNAMIC;
    case "list":
    case "set":
      return { k: shape.k, item: instantiate(shape.item, args) };
    case "map":
      return { k: "map", key: instantiate(shape.key, args), value: instantiate(shape.value, args) };
    case "pair":
      return { k: "pair", first: instantiate(shape.first, args), second: instantiate(shape.second, args) };
    case "record":
    case "variant":
      return shape.args.length === 0
        ? shape
        : ({ ...shape, args: shape.args.map((a) => instantiate(a, args)) } as Shape);
    default:
      return shape;
  }
}

/** Every record and case instance's prototype carries its descriptor under this key. */
const DESC: unique symbol = Symbol.for("renyi.desc");

interface Described {
  readonly [DESC]: TypeDesc;
}

export function descOf(value: unknown): TypeDesc | undefined {
  return typeof value === "object" && value !== null ? (value as Partial<Described>)[DESC] : undefined;
}

/**
 * Attaches a record's or case's descriptor to its class. The fields are given
 * as a function, read when first needed, so that a type may refer to itself
 * or to types declared after it.
 */
export function describe(
  cls: new (...fields: never[]) => object,
  name: string,
  written: string,
  fields: [string, string, string, Shape][] | (() => [string, string, string, Shape][]),
  variantName?: string,
  index = 0,
): TypeDesc {
  let cached: FieldDesc[] | undefined;
  const desc = {
    name,
    ...(variantName !== undefined ? { variant: variantName } : {}),
    index,
    get fields(): FieldDesc[] {
      cached ??= (typeof fields === "function" ? fields() : fields).map(([n, prop, json, shape]) => ({
        name: n,
        prop,
        json,
        shape,
        inherited: json in Object.prototype,
      }));
      return cached;
    },
    make: (values: unknown[]) => new (cls as new (...v: unknown[]) => object)(...values),
    written,
    cls,
  } as TypeDesc;
  Object.defineProperty(cls.prototype, DESC, { value: desc, enumerable: false });
  return desc;
}

export class Pair {
  constructor(
    readonly first: unknown,
    readonly second: unknown,
  ) {}
}

/**
 * The key a map keeps for a map key, or a set for an item: equal exactly when
 * the values are equal (equality.ts), whatever their kind. A number or a
 * boolean is its own key, and so is a text, unless it starts with U+0000;
 * every other value's key is U+0000 followed by its canonical text. A text
 * that starts with U+0000 is written in that form too (as a quoted JSON
 * string), so that a Json text can never take the key of a Json structure
 * (`"\u0000[1]"` against `[1]`).
 */
export function keyOf(value: unknown): unknown {
  switch (typeof value) {
    case "number":
    case "boolean":
      return value;
    case "string":
      return value.charCodeAt(0) === 0 ? `\u0000${JSON.stringify(value)}` : value;
  }
  // A key in a query of a program with guards: the key is the value's, never its origins'.
  if (value instanceof Guarded) return keyOf(value.value);
  keyRoom = MAX_KEY;
  try {
    return `\u0000${canonical(value)}`;
  } catch (e) {
    if (e instanceof RangeError && /string length/i.test(e.message)) keyTooLong();
    throw e;
  }
}

/**
 * The canonical key of a list, record or the like is a text of Renyi's own,
 * which may be longer than a program's texts but not than the engine's:
 * a key that would be (a list of ten long texts) is refused as it is written.
 */
const MAX_KEY = 4 * MAX_TEXT;
let keyRoom = MAX_KEY;

function keyTooLong(): never {
  throw new Crash("E-RT-LIMIT-COLLECTION", { problem: "key", limit: MAX_KEY });
}

function spendKey(length: number): void {
  keyRoom -= length;
  if (keyRoom < 0) keyTooLong();
}

/**
 * A text that is equal for equal values and different for different ones.
 * Each kind starts with its own character (`n`, `"`, a digit or `-`, `t`, `f`,
 * `[`, `(`, `{`, `<`, `b`, `j{`, or a type name), and every part is either
 * self-delimiting (a JSON string, a bracketed list) or of a known kind, so no
 * two values share a text. Maps and sets list their entries sorted by their
 * keys' text: two equal maps built in different orders have one key.
 *
 * Written with a stack of its own (a chain of records nested a million deep is
 * a value a loop can build), charging fuel as it goes (spec/runtime.md, "Walks
 * over values"): a step for each part it visits below the value, and one for each
 * UTF-16 unit of each text in it. Every piece goes into one list joined once at
 * the end (a text built level by level would be copied again at every level),
 * but for the entries of a map or the items of a set, each written on its own to
 * be sorted.
 */
function canonical(root: unknown): string {
  const top = canonicalLeaf(root);
  if (top !== undefined) return top;
  let out: string[] = [];
  const frames: KeyFrame[] = [openKey(root, out)];
  for (;;) {
    const frame = frames[frames.length - 1]!;
    if (frame.next < frame.children.length) {
      const i = frame.next++;
      if (frame.sorted !== undefined) out = frame.sorted[i] = [];
      else out.push(frame.before(i));
      const child = frame.children[i];
      chargeWork(1);
      const leaf = canonicalLeaf(child);
      if (leaf !== undefined) out.push(leaf);
      else frames.push(openKey(child, out));
      continue;
    }
    frames.pop();
    out = frame.out;
    if (frame.sorted !== undefined) out.push(frame.finishSorted!(frame.sorted.map((pieces) => pieces.join(""))));
    out.push(frame.close);
    if (frames.length === 0) return out.join("");
  }
}

/**
 * A value being written as a key: its parts still to write, what goes before each
 * and what closes it, the list its pieces go into; for a map or set, each part's
 * pieces apart, and how the sorted parts are put together.
 */
interface KeyFrame {
  readonly children: readonly unknown[];
  next: number;
  readonly out: string[];
  readonly before: (i: number) => string;
  readonly close: string;
  readonly sorted?: string[][];
  readonly finishSorted?: (parts: string[]) => string;
}

/** The key text of a value that has no parts, or undefined for one that has. */
function canonicalLeaf(value: unknown): string | undefined {
  if (value instanceof Guarded) value = value.value;
  if (value === null) return "n";
  switch (typeof value) {
    case "string":
      chargeWork(value.length);
      spendKey(value.length + 2);
      return JSON.stringify(value);
    case "number":
      return Object.is(value, -0) ? "0" : String(value);
    case "boolean":
      return value ? "t" : "f";
  }
  if (value instanceof Uint8Array) {
    chargeWork(value.length);
    spendKey(Math.ceil(value.length / 3) * 4 + 2);
    return `b${Buffer.from(value.buffer, value.byteOffset, value.length).toString("base64")}`;
  }
  return undefined;
}

const commas = (i: number): string => (i === 0 ? "" : ",");

/** Opens a value with parts: its opening written to `out`. */
function openKey(value: unknown, out: string[]): KeyFrame {
  if (value instanceof Guarded) value = value.value;
  spendKey(2);
  if (Array.isArray(value)) {
    spendKey(value.length);
    out.push("[");
    return { children: value, next: 0, out, before: commas, close: "]" };
  }
  if (value instanceof Pair) {
    out.push("(");
    return { children: [value.first, value.second], next: 0, out, before: commas, close: ")" };
  }
  if (value instanceof RMap) {
    spendKey(value.size * 2);
    const children: unknown[] = [];
    for (const [k, v] of value.entries()) children.push(k, v);
    out.push("{");
    return {
      children,
      next: 0,
      out,
      before: commas,
      close: "}",
      sorted: [],
      finishSorted: (parts) => {
        const entries: [string, string][] = [];
        for (let i = 0; i < parts.length; i += 2) entries.push([parts[i]!, parts[i + 1]!]);
        return entries
          .sort(byFirst)
          .map(([k, v]) => `${k}:${v}`)
          .join(",");
      },
    };
  }
  if (value instanceof RSet) {
    spendKey(value.size);
    out.push("<");
    return {
      children: [...value.values()],
      next: 0,
      out,
      before: commas,
      close: ">",
      sorted: [],
      finishSorted: (parts) => parts.sort().join(","),
    };
  }
  const desc = descOf(value);
  if (desc !== undefined) {
    const v = value as Record<string, unknown>;
    out.push(`${desc.variant ?? ""}.${desc.name}(`);
    return { children: desc.fields.map((f) => v[f.prop]), next: 0, out, before: commas, close: ")" };
  }
  // Json objects: keys in order.
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  out.push("j{");
  return {
    children: keys.map((k) => object[k]),
    next: 0,
    out,
    before: (i) => `${i === 0 ? "" : ","}${JSON.stringify(keys[i])}:`,
    close: "}",
  };
}

function byFirst(a: readonly [string, string], b: readonly [string, string]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

/** Map<K, V>: entries in the order they were first put. */
export class RMap {
  /** Each entry's value by the canonical form of its key (keyOf), in the order keys were first put. */
  readonly valuesByKey: Map<unknown, unknown>;
  /**
   * The key as it was given, for the keys whose canonical form is not the key
   * itself (a list, a record, a text that starts with U+0000, -0): none at all for
   * a map of Ints or texts, which then costs one engine Map and nothing per entry
   * (an entry used to be a [key, value] array beside it: twice the memory).
   */
  private originalKeys: Map<unknown, unknown> | undefined;

  constructor(entries?: Iterable<[unknown, unknown]>) {
    this.valuesByKey = new Map();
    if (entries !== undefined) for (const [k, v] of entries) this.setInPlace(k, v);
  }

  get size(): number {
    return this.valuesByKey.size;
  }

  /** The value of a key, or undefined (no Renyi value is undefined). */
  get(key: unknown): unknown {
    return this.valuesByKey.get(keyOf(key));
  }

  has(key: unknown): boolean {
    return this.valuesByKey.has(keyOf(key));
  }

  /** Changes this map; only for a map no other value can see (see the ownership rule). */
  setInPlace(key: unknown, value: unknown): this {
    const k = keyOf(key);
    if (this.valuesByKey.size >= MAX_ELEMENTS && !this.valuesByKey.has(k))
      checkCollection(this.valuesByKey.size + 1, "putting a key into a map");
    this.valuesByKey.set(k, value);
    // The key last put is the one given back, as for any equal keys (0 and -0.0 are one key).
    if (k !== key || Object.is(key, -0)) (this.originalKeys ??= new Map()).set(k, key);
    else this.originalKeys?.delete(k);
    return this;
  }

  deleteInPlace(key: unknown): this {
    const k = keyOf(key);
    this.valuesByKey.delete(k);
    this.originalKeys?.delete(k);
    return this;
  }

  copy(): RMap {
    const copy = new RMap();
    for (const [k, v] of this.valuesByKey) copy.valuesByKey.set(k, v);
    if (this.originalKeys !== undefined) copy.originalKeys = new Map(this.originalKeys);
    return copy;
  }

  /**
   * `map.get(m, key).or_else(fallback)` without the Some between them: what
   * compiled code calls for that pair (compiler/lower/expressions.ts).
   */
  getOr(key: unknown, fallback: unknown): unknown {
    const value = this.valuesByKey.get(keyOf(key));
    return value === undefined ? fallback : value;
  }

  /**
   * `setInPlace` for a key whose static type is Int, Float, Boolean or Text (the
   * compiler knows it; never a Guarded value): such a key is its own canonical
   * form unless it is 0 or -0.0 (one key, the one last put given back) or a text
   * starting with U+0000, which go the general way. Any other is no key that
   * `originalKeys` holds (0, texts starting with U+0000, and the guarded keys of a
   * program with guards, which never calls this), so what is
   * left is the engine's Map alone.
   */
  setPrimitiveInPlace(key: number | boolean | string, value: unknown): this {
    if (key === 0 || (typeof key === "string" && key.charCodeAt(0) === 0)) return this.setInPlace(key, value);
    const byKey = this.valuesByKey;
    if (byKey.size >= MAX_ELEMENTS && !byKey.has(key)) checkCollection(byKey.size + 1, "putting a key into a map");
    byKey.set(key, value);
    return this;
  }

  /** `getOr` for a key of those types: the engine's Map alone, but for a text that starts with U+0000. */
  getPrimitiveOr(key: number | boolean | string, fallback: unknown): unknown {
    const value = this.valuesByKey.get(typeof key === "string" && key.charCodeAt(0) === 0 ? keyOf(key) : key);
    return value === undefined ? fallback : value;
  }

  /** The key as it was given for a canonical key of this map. */
  keyFor(canonical: unknown): unknown {
    const originals = this.originalKeys;
    return originals?.has(canonical) ? originals.get(canonical) : canonical;
  }

  *entries(): IterableIterator<[unknown, unknown]> {
    for (const [k, v] of this.valuesByKey) yield [this.keyFor(k), v];
  }
}

/** `map.get(m, key).or_else(fallback)`, compiled as one call that makes no Some (no library function of its own). */
export function mapGetOr(m: RMap, key: unknown, fallback: unknown): unknown {
  return m.getOr(key, fallback);
}

/** `m.put(k, v)` in place for a key of a primitive type (`RMap.setPrimitiveInPlace`). */
export function mapPutPrimitive(m: RMap, key: number | boolean | string, value: unknown): RMap {
  return m.setPrimitiveInPlace(key, value);
}

/** `m.get(k).or_else(fallback)` for a key of a primitive type (`RMap.getPrimitiveOr`). */
export function mapGetPrimitiveOr(m: RMap, key: number | boolean | string, fallback: unknown): unknown {
  return m.getPrimitiveOr(key, fallback);
}

export class RSet {
  readonly itemsByKey: Map<unknown, unknown>;

  constructor(items?: Iterable<unknown>) {
    this.itemsByKey = new Map();
    if (items !== undefined) for (const item of items) this.addInPlace(item);
  }

  get size(): number {
    return this.itemsByKey.size;
  }

  has(item: unknown): boolean {
    return this.itemsByKey.has(keyOf(item));
  }

  addInPlace(item: unknown): this {
    const key = keyOf(item);
    if (!this.itemsByKey.has(key)) {
      if (this.itemsByKey.size >= MAX_ELEMENTS) checkCollection(this.itemsByKey.size + 1, "adding an item to a set");
      this.itemsByKey.set(key, item);
    }
    return this;
  }

  deleteInPlace(item: unknown): this {
    this.itemsByKey.delete(keyOf(item));
    return this;
  }

  copy(): RSet {
    const copy = new RSet();
    for (const [k, v] of this.itemsByKey) copy.itemsByKey.set(k, v);
    return copy;
  }

  values(): IterableIterator<unknown> {
    return this.itemsByKey.values();
  }
}
