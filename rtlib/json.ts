// Values as JSON (spec/runtime.md, section 2, "JSON"): json.encode, json.decode(as: T),
// T.from_json, and the arguments and outcomes of recordings.

import { Failure } from "./errors.js";
import { DateRecord, Duration, Instant, JsonError, NONE, Some } from "./prelude.js";
import { toText } from "./text.js";
import { chargeWork, S, slow } from "./limits.js";
import { checkCollection } from "./limits-collections.js";
import { checkRoomForJson } from "./limits-memory.js";
import { Crash } from "./errors.js";
import { descOf, DYNAMIC, JSON_SHAPE, instantiate, Pair, RMap, RSet, type Shape, type TypeDesc } from "./values.js";

// ---- encoding ----

/**
 * Compact JSON text for a value of the given shape; fields in declaration
 * order. The value is turned into plain JSON values and written by the
 * engine's own JSON.stringify: a Float is a JSON number (12.0 is written 12,
 * which reads back as a Float wherever a Float is declared). Charged as a walk
 * (spec/runtime.md, "Walks over values"): a step for each part below the value
 * and each byte of Bytes as it is turned into JSON values, then the length of
 * the text written.
 */
export function encode(value: unknown, shape: Shape = DYNAMIC): string {
  return toText(plain(value, shape, true), JSON_SHAPE);
}

/** What `plain` gives back for a value that has parts to turn into JSON values first. */
const OPENED = Symbol("opened");

/**
 * A value being turned into JSON values: its parts still to turn with their shapes, those turned, and how they are put
 * together.
 */
interface PlainFrame {
  readonly children: readonly unknown[];
  readonly shapes: readonly Shape[];
  next: number;
  readonly parts: unknown[];
  readonly finish: (parts: unknown[]) => unknown;
}

/**
 * The JSON value of a Renyi value (spec/runtime.md, section 2, "JSON"), built with a
 * stack of its own (a list nested a million deep is a value a loop can build).
 * `charged`: whether the walk charges fuel, as it does for the program's own
 * `json.encode` and `to_json`; a recording's copy of what an effect was given or
 * gave back charges nothing, so that a run charges the same recorded or not.
 */
export function plain(value: unknown, shape: Shape, charged = false): unknown {
  return plainNear(value, shape, charged, 0);
}

/** Says a value has parts to walk: `leafOf`'s answer for everything but a leaf. */
const HAS_PARTS = Symbol("has parts");

/** The JSON value of a value with no parts (a number, a text, a Boolean, nothing, a Json), or HAS_PARTS. */
function leafOf(value: unknown, shape: Shape): unknown {
  switch (shape.k) {
    case "int":
    case "text":
    case "bool":
    case "json":
      return value;
    case "float":
      return Number.isFinite(value as number) ? value : null;
  }
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
  }
  return HAS_PARTS;
}

/**
 * How deep `plainNear` goes by the engine's own recursion, the fastest way for the
 * values programs mostly have (bench/compute/json: 1.7 times as long with the stack of
 * its own everywhere); a part deeper than this is turned by `plainDeep`.
 */
const NEAR = 400;

/** `plain` by recursion, charging each part as `plainDeep` does, in the same order. */
function plainNear(value: unknown, shape: Shape, charged: boolean, depth: number): unknown {
  const leaf = leafOf(value, shape);
  if (leaf !== HAS_PARTS) return leaf;
  if (depth > NEAR) return plainDeep(value, shape, charged);
  const next = depth + 1;
  if (Array.isArray(value)) {
    const item = shape.k === "list" ? shape.item : DYNAMIC;
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      if (charged && (S.room -= 1) < 0) slow();
      out[i] = plainNear(value[i], item, charged, next);
    }
    return out;
  }
  const desc = descOf(value);
  if (
    desc === undefined ||
    desc.variant === "Optional" ||
    desc === Instant.desc ||
    desc === DateRecord.desc ||
    desc === Duration.desc ||
    (desc.variant !== undefined && desc.fields.length === 0)
  ) {
    return plainDeep(value, shape, charged);
  }
  const args = shape.k === "record" || shape.k === "variant" ? shape.args : [];
  // A plain object literal, not Object.create(null): the engine gives objects
  // built with the same keys in the same order one hidden class, and
  // JSON.stringify reads those far faster than dictionary-mode objects. A
  // name the object inherits is defined, not assigned, so that `__proto__`
  // stays a field rather than setting the prototype.
  const fields: Record<string, unknown> = {};
  const v = value as Record<string, unknown>;
  for (const f of desc.fields) {
    if (charged && (S.room -= 1) < 0) slow();
    const part = plainNear(v[f.prop], args.length === 0 ? f.shape : instantiate(f.shape, args), charged, next);
    if (f.inherited)
      Object.defineProperty(fields, f.json, { value: part, enumerable: true, writable: true, configurable: true });
    else fields[f.json] = part;
  }
  return desc.variant === undefined ? fields : { [desc.name]: fields };
}

/** `plain` with a stack of its own, for a part nested deeper than NEAR (and for the kinds `plainNear` leaves to it). */
function plainDeep(value: unknown, shape: Shape, charged: boolean): unknown {
  const frames: PlainFrame[] = [];
  const top = plainLeaf(value, shape, frames, charged);
  if (top !== OPENED) return top;
  for (;;) {
    const frame = frames[frames.length - 1]!;
    if (frame.next < frame.children.length) {
      const i = frame.next++;
      if (charged) chargeWork(1);
      const part = plainLeaf(frame.children[i], frame.shapes[i]!, frames, charged);
      if (part !== OPENED) frame.parts.push(part);
      continue;
    }
    frames.pop();
    const done = frame.finish(frame.parts);
    if (frames.length === 0) return done;
    frames[frames.length - 1]!.parts.push(done);
  }
}

/** The JSON value of a value with no parts; for one with parts, a frame pushed and OPENED. */
function plainLeaf(value: unknown, shape: Shape, frames: PlainFrame[], charged: boolean): unknown {
  const leaf = leafOf(value, shape);
  if (leaf !== HAS_PARTS) return leaf;
  const push = (
    children: readonly unknown[],
    shapes: readonly Shape[],
    finish: (parts: unknown[]) => unknown,
  ): typeof OPENED => {
    frames.push({ children, shapes, next: 0, parts: [], finish });
    return OPENED;
  };
  if (Array.isArray(value)) {
    const item = shape.k === "list" ? shape.item : DYNAMIC;
    return push(
      value,
      value.map(() => item),
      asIs,
    );
  }
  if (value instanceof RSet) {
    const item = shape.k === "set" ? shape.item : DYNAMIC;
    const items = [...value.values()];
    return push(
      items,
      items.map(() => item),
      asIs,
    );
  }
  if (value instanceof Pair) {
    const shapes = shape.k === "pair" ? [shape.first, shape.second] : [DYNAMIC, DYNAMIC];
    return push([value.first, value.second], shapes, asIs);
  }
  if (value instanceof RMap) {
    const [k, v] = shape.k === "map" ? [shape.key, shape.value] : [DYNAMIC, DYNAMIC];
    const entries = [...value.entries()];
    const children: unknown[] = [];
    const shapes: Shape[] = [];
    for (const [key, val] of entries) {
      children.push(key, val);
      shapes.push(k, v);
    }
    if (entries.every(([key]) => typeof key === "string")) {
      return push(children, shapes, (parts) => {
        // No prototype: a key like "__proto__" is a key like any other.
        const object: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
        for (let i = 0; i < parts.length; i += 2) object[parts[i] as string] = parts[i + 1];
        return object;
      });
    }
    return push(children, shapes, (parts) => {
      const pairs: unknown[] = [];
      for (let i = 0; i < parts.length; i += 2) pairs.push([parts[i], parts[i + 1]]);
      return pairs;
    });
  }
  if (value instanceof Uint8Array) {
    if (charged) chargeWork(value.length);
    return Buffer.from(value.buffer, value.byteOffset, value.length).toString("base64");
  }
  const desc = descOf(value);
  if (desc === undefined) return value;
  const fields = value as Record<string, unknown>;
  if (desc === Instant.desc) return isoText(fields["milliseconds"] as number, "json.encode");
  if (desc === DateRecord.desc)
    return dateText(fields["year"] as number, fields["month"] as number, fields["day"] as number);
  if (desc === Duration.desc) return fields["milliseconds"];
  const args = shape.k === "record" || shape.k === "variant" ? shape.args : [];
  if (desc.variant === "Optional")
    return desc.name === "None" ? null : push([fields["value"]], [instantiate(desc.fields[0]!.shape, args)], only);
  if (desc.variant !== undefined && desc.fields.length === 0) return desc.name;
  const declared = desc.fields;
  return push(
    declared.map((f) => fields[f.prop]),
    declared.map((f) => (args.length === 0 ? f.shape : instantiate(f.shape, args))),
    (parts) => {
      // As plainNear builds it.
      const out: Record<string, unknown> = {};
      for (let i = 0; i < declared.length; i++) {
        const f = declared[i]!;
        if (f.inherited)
          Object.defineProperty(out, f.json, { value: parts[i], enumerable: true, writable: true, configurable: true });
        else out[f.json] = parts[i];
      }
      return desc.variant === undefined ? out : { [desc.name]: out };
    },
  );
}

const asIs = (parts: unknown[]): unknown => parts;
const only = (parts: unknown[]): unknown => parts[0];

/** The furthest an Instant may be from 1970 either way: the years -271821 to 275760, as ISO 8601 writes them. */
export const MAX_INSTANT_MS = 8_640_000_000_000_000;

/** An Instant as ISO 8601 text; one outside the range that can be written is a crash, not an engine error. */
export function isoText(milliseconds: number, what: string): string {
  if (!(Math.abs(milliseconds) <= MAX_INSTANT_MS)) {
    throw new Crash("E-RT-OVERFLOW", { problem: "instant", operation: what, milliseconds });
  }
  return new Date(milliseconds).toISOString();
}

function dateText(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

// ---- decoding ----

/** Reads JSON text into a value of the shape, or fails with JsonError. */
export function decode(text: string, shape: Shape): unknown {
  let parsed: unknown;
  checkRoomForJson(text);
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const offset = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    throw new Failure(JsonError.make("Syntax", message.replace(/^Unexpected/, "unexpected"), offset));
  }
  return read(parsed, shape, []);
}

/** Parses JSON text into a Json value, or fails with JsonError.Syntax. */
export function parseJson(text: string): unknown {
  return decode(text, { k: "json" });
}

/**
 * A type's text as a message shows it: cut as the compiler cuts a type's text
 * (spec/types.md, section 2), so that no message grows with the type it names. A type
 * may share its parts (a generic record whose field is `Nest<(T, T)>` doubles at each
 * level): once SHAPE_TEXT_CUT characters are written, each part not yet written is
 * `...`, never opened, the text is no longer than SHAPE_TEXT_WIDTH, and it ends with how
 * many types were left out, counting each as often as it appears.
 */
export function shapeText(shape: Shape): string {
  const out: string[] = [];
  let length = 0;
  let left = 0n;
  const counts = new Map<Shape, bigint>();
  const push = (piece: string): void => {
    out.push(piece);
    length += piece.length;
  };
  const write = (s: Shape): void => {
    if (length > SHAPE_TEXT_CUT) {
      push("...");
      left += typesIn(s, counts);
      return;
    }
    const parts = partsOf(s);
    if (parts === undefined) return push(leafShapeText(s));
    push(parts.open);
    parts.shapes.forEach((p, i) => {
      if (i > 0) push(", ");
      write(p);
    });
    push(parts.close);
  };
  write(shape);
  if (left === 0n) return out.join("");
  const marker = ` (${left} more types not shown)`;
  let text = out.join("");
  const room = SHAPE_TEXT_WIDTH - marker.length;
  if (text.length > room) text = `${text.slice(0, room - 3)}...`;
  return text + marker;
}

/** Where a type's text stops writing parts, and the most it may be, its count of types left out included. */
const SHAPE_TEXT_CUT = 100;
const SHAPE_TEXT_WIDTH = 200;

/** A type's parts with what opens and closes them, or undefined for a type written in one word. */
function partsOf(shape: Shape): { open: string; shapes: readonly Shape[]; close: string } | undefined {
  switch (shape.k) {
    case "list":
      return { open: "List<", shapes: [shape.item], close: ">" };
    case "set":
      return { open: "Set<", shapes: [shape.item], close: ">" };
    case "map":
      return { open: "Map<", shapes: [shape.key, shape.value], close: ">" };
    case "pair":
      return { open: "(", shapes: [shape.first, shape.second], close: ")" };
    case "record":
    case "variant":
      return shape.args.length === 0 ? undefined : { open: `${shape.desc.name}<`, shapes: shape.args, close: ">" };
    default:
      return undefined;
  }
}

function leafShapeText(shape: Shape): string {
  switch (shape.k) {
    case "int":
      return "Int";
    case "float":
      return "Float";
    case "text":
      return "Text";
    case "bool":
      return "Boolean";
    case "nothing":
      return "Nothing";
    case "bytes":
      return "Bytes";
    case "json":
      return "Json";
    case "record":
    case "variant":
      return shape.desc.name;
    default:
      return "a value";
  }
}

/** How many types a type's text names, each as often as it appears; each shared part counted once per walk. */
function typesIn(shape: Shape, counts: Map<Shape, bigint>): bigint {
  const known = counts.get(shape);
  if (known !== undefined) return known;
  let count = 1n;
  for (const part of partsOf(shape)?.shapes ?? []) count += typesIn(part, counts);
  counts.set(shape, count);
  return count;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "number":
      return Number.isInteger(value) ? "a whole number" : "a number with a fraction";
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
    default:
      return "an object";
  }
}

/** Where the reader is: `$`, then keys and indices, kept as a stack so that no text is built unless it is needed. */
type At = (string | number)[];

function pathText(at: At): string {
  let out = "$";
  for (const part of at) out += typeof part === "number" ? `[${part}]` : `.${part}`;
  return out;
}

function shapeError(at: At, shape: Shape, found: string): never {
  throw new Failure(JsonError.make("Shape", pathText(at), shapeText(shape), found));
}

function read(value: unknown, shape: Shape, at: At): unknown {
  switch (shape.k) {
    case "json":
    case "dynamic":
      return value;
    case "int":
      if (typeof value === "number" && Number.isSafeInteger(value)) return value === 0 ? 0 : value;
      return shapeError(at, shape, kindOf(value));
    case "float":
      if (typeof value === "number") return value;
      return shapeError(at, shape, kindOf(value));
    case "text":
      if (typeof value === "string") return value;
      return shapeError(at, shape, kindOf(value));
    case "bool":
      if (typeof value === "boolean") return value;
      return shapeError(at, shape, kindOf(value));
    case "nothing":
      if (value === null) return null;
      return shapeError(at, shape, kindOf(value));
    case "bytes":
      if (typeof value === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(value))
        return new Uint8Array(Buffer.from(value, "base64"));
      return shapeError(at, shape, kindOf(value));
    case "list":
    case "set": {
      if (!Array.isArray(value)) return shapeError(at, shape, kindOf(value));
      checkCollection(value.length, "json.decode");
      const items = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) {
        at.push(i);
        items[i] = read(value[i], shape.item, at);
        at.pop();
      }
      return shape.k === "list" ? items : new RSet(items);
    }
    case "pair": {
      if (!Array.isArray(value) || value.length !== 2) return shapeError(at, shape, kindOf(value));
      at.push(0);
      const first = read(value[0], shape.first, at);
      at[at.length - 1] = 1;
      const second = read(value[1], shape.second, at);
      at.pop();
      return new Pair(first, second);
    }
    case "map":
      return readMap(value, shape, at);
    case "record":
      return readRecord(value, shape.desc, shape.args, shape, at);
    case "variant":
      return readVariant(value, shape, at);
    default:
      return value;
  }
}

function readMap(value: unknown, shape: Extract<Shape, { k: "map" }>, at: At): RMap {
  const map = new RMap();
  if (shape.key.k === "text") {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return shapeError(at, shape, kindOf(value));
    const keys = Object.keys(value);
    checkCollection(keys.length, "json.decode");
    for (const k of keys) {
      const v = (value as Record<string, unknown>)[k];
      at.push(k);
      map.setInPlace(k, read(v, shape.value, at));
      at.pop();
    }
    return map;
  }
  if (!Array.isArray(value)) return shapeError(at, shape, kindOf(value));
  checkCollection(value.length, "json.decode");
  value.forEach((entry, i) => {
    at.push(i);
    if (!Array.isArray(entry) || entry.length !== 2)
      shapeError(at, { k: "pair", first: shape.key, second: shape.value }, kindOf(entry));
    at.push(0);
    const key = read(entry[0], shape.key, at);
    at[at.length - 1] = 1;
    const val = read(entry[1], shape.value, at);
    at.pop();
    at.pop();
    map.setInPlace(key, val);
  });
  return map;
}

function readRecord(value: unknown, desc: TypeDesc, args: readonly Shape[], shape: Shape, at: At): unknown {
  if (desc === Instant.desc) {
    const ms = typeof value === "string" ? Date.parse(value) : NaN;
    if (Number.isNaN(ms)) return shapeError(at, shape, kindOf(value));
    return Instant.desc.make([ms]);
  }
  if (desc === DateRecord.desc) {
    const m = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
    if (m === null) return shapeError(at, shape, kindOf(value));
    return DateRecord.desc.make([Number(m[1]), Number(m[2]), Number(m[3])]);
  }
  if (desc === Duration.desc) {
    if (typeof value !== "number" || !Number.isSafeInteger(value)) return shapeError(at, shape, kindOf(value));
    return Duration.desc.make([value]);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return shapeError(at, shape, kindOf(value));
  const object = value as Record<string, unknown>;
  const descFields = desc.fields;
  const fields = new Array<unknown>(descFields.length);
  for (let i = 0; i < descFields.length; i++) {
    const f = descFields[i]!;
    const fieldShape = args.length === 0 ? f.shape : instantiate(f.shape, args);
    at.push(f.json);
    const field = object[f.json];
    if (field === undefined || (f.inherited && !Object.hasOwn(object, f.json))) {
      if (fieldShape.k === "variant" && fieldShape.desc.name === "Optional") fields[i] = NONE;
      else shapeError(at, fieldShape, "nothing: the field is missing");
    } else {
      fields[i] = read(field, fieldShape, at);
    }
    at.pop();
  }
  return desc.make(fields);
}

function readVariant(value: unknown, shape: Extract<Shape, { k: "variant" }>, at: At): unknown {
  const desc = shape.desc;
  if (desc.name === "Optional")
    return value === null ? NONE : new Some(read(value, instantiate(desc.cases[1]!.fields[0]!.shape, shape.args), at));
  if (typeof value === "string") {
    const bare = desc.cases.find((c) => c.name === value && c.fields.length === 0);
    if (bare !== undefined) return bare.make([]);
    return shapeError(at, shape, `the string ${JSON.stringify(value)}, which is not a case of ${desc.name}`);
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const c = keys.length === 1 ? desc.cases.find((x) => x.name === keys[0]) : undefined;
    if (c !== undefined) {
      at.push(c.name);
      const result = readRecord((value as Record<string, unknown>)[c.name], c, shape.args, shape, at);
      at.pop();
      return result;
    }
  }
  return shapeError(at, shape, kindOf(value));
}

/** A JSON value (already parsed) read into a value of the shape, or a JsonError failure. */
export function decodeValue(value: unknown, shape: Shape): unknown {
  return read(value, shape, []);
}
