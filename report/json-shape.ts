// Reading the shape of a JSON document that is hostile until proved otherwise
// (a grant manifest, a recording): each reader checks every field it takes, and
// the first that does not fit refuses the whole document with where it is and
// what it should be.

import type { Json } from "./strict-json.js";

/** Thrown by a document's reader at the first field that does not fit; its message says where and what. */
export class ShapeRefused extends Error {}

export function refuse(message: string): never {
  throw new ShapeRefused(message);
}

export type JsonObject = { [key: string]: Json };

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The fields reader of one kind of document (`a recording`): an object with every
 * required field and no field beyond the required and the optional ones.
 */
export function fieldsOf(
  document: string,
): (value: Json | undefined, where: string, required: readonly string[], optional?: readonly string[]) => JsonObject {
  return (value, where, required, optional = []) => {
    if (!isObject(value)) refuse(`${where} must be an object`);
    for (const key of Object.keys(value)) {
      if (!required.includes(key) && !optional.includes(key))
        refuse(`${where} has a field ${JSON.stringify(key)}, which ${document} does not have`);
    }
    for (const key of required) if (!(key in value)) refuse(`${where} has no field \`${key}\``);
    return value;
  };
}

/** A text that is not empty, of the pattern's form when one is given. */
export function text(value: Json | undefined, where: string, pattern?: RegExp): string {
  if (typeof value !== "string" || value === "") refuse(`${where} must be a text that is not empty`);
  if (pattern !== undefined && !pattern.test(value)) refuse(`${where} is not of the form ${pattern.source}`);
  return value;
}

/** A list of at most `max` entries. */
export function list(value: Json | undefined, where: string, max: number): Json[] {
  if (!Array.isArray(value)) refuse(`${where} must be a list`);
  if (value.length > max) refuse(`${where} has more than ${max.toLocaleString("en")} entries`);
  return value;
}
