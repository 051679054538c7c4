// Whether a value is a Renyi value of a shape: the gateway checks what a
// primitive gives back against the primitive's declared type, live and (for
// recordings) in replay, so that a host value of the wrong kind never reaches
// a program.

import { descOf, instantiate, Pair, RMap, RSet, type FieldDesc, type Shape } from "./values.js";

export function conforms(value: unknown, shape: Shape): boolean {
  switch (shape.k) {
    case "int":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "float":
      return typeof value === "number";
    case "text":
      return typeof value === "string";
    case "bool":
      return typeof value === "boolean";
    case "nothing":
      return value === null;
    case "bytes":
      return value instanceof Uint8Array;
    case "json":
      return (
        value === null ||
        ["string", "number", "boolean"].includes(typeof value) ||
        Array.isArray(value) ||
        (typeof value === "object" && descOf(value) === undefined)
      );
    case "list":
      return Array.isArray(value) && value.every((v) => conforms(v, shape.item));
    case "set":
      return value instanceof RSet && [...value.values()].every((v) => conforms(v, shape.item));
    case "map":
      return (
        value instanceof RMap &&
        [...value.entries()].every(([k, v]) => conforms(k, shape.key) && conforms(v, shape.value))
      );
    case "pair":
      return value instanceof Pair && conforms(value.first, shape.first) && conforms(value.second, shape.second);
    case "record": {
      const desc = descOf(value);
      return desc === shape.desc && fieldsConform(value as Record<string, unknown>, desc.fields, shape.args);
    }
    case "variant": {
      const desc = descOf(value);
      return (
        desc !== undefined &&
        shape.desc.cases.includes(desc) &&
        fieldsConform(value as Record<string, unknown>, desc.fields, shape.args)
      );
    }
    default:
      return true;
  }
}

/**
 * Each field against its shape, the type's arguments put in. Without arguments a
 * field's shape is used as it is: a parameter left open checks nothing either way.
 * (A loop: every call through the gateway checks its result here.)
 */
function fieldsConform(value: Record<string, unknown>, fields: readonly FieldDesc[], args: readonly Shape[]): boolean {
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (!conforms(value[f.prop], args.length === 0 ? f.shape : instantiate(f.shape, args))) return false;
  }
  return true;
}
