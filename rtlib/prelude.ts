// The prelude's types at run time: the same records and variants the checker
// declares in compiler/check/library.ts (a test compares the two), so that the
// runtime can build the values its primitives return and fail with.

import { BYTES, describe, INT, list, map, param, TEXT, type Shape, type TypeDesc, type VariantDesc } from "./values.js";

// ---- Optional, hot enough to be written out ----

export class None {}
export class Some {
  constructor(readonly value: unknown) {}
}

const noneDesc = describe(None, "None", "None", [], "Optional", 0);
const someDesc = describe(Some, "Some", "Some", [["value", "value", "value", param(0)]], "Optional", 1);
export const NONE = Object.freeze(new None());
export const OPTIONAL: VariantDesc = { name: "Optional", cases: [noneDesc, someDesc] };

export function some(value: unknown): Some {
  return new Some(value);
}

/** An Optional from a JavaScript value that may be undefined. */
export function optional(value: unknown): None | Some {
  return value === undefined ? NONE : new Some(value);
}

// ---- the other prelude types, built from their field lists ----

type FieldSpec = [name: string, shape: Shape];

/** A class whose constructor takes the fields in order. */
function fieldClass(className: string, fields: FieldSpec[]): new (...v: unknown[]) => object {
  const props = fields.map(([n]) => n);
  const cls = class {
    constructor(...values: unknown[]) {
      props.forEach((p, i) => {
        (this as Record<string, unknown>)[p] = values[i];
      });
    }
  };
  Object.defineProperty(cls, "name", { value: className });
  return cls;
}

function recordClass(name: string, fields: FieldSpec[]): { cls: new (...v: unknown[]) => object; desc: TypeDesc } {
  const cls = fieldClass(name, fields);
  const desc = describe(
    cls,
    name,
    name,
    fields.map(([n, s]) => [n, n, n, s]),
  );
  return { cls, desc };
}

export interface PreludeVariant {
  readonly desc: VariantDesc;
  /** Builds a case by name from its fields in order. */
  readonly make: (caseName: string, ...fields: unknown[]) => object;
}

function variantType(name: string, cases: [caseName: string, fields: FieldSpec[]][]): PreludeVariant {
  const descs = cases.map(([caseName, fields], index) =>
    describe(
      fieldClass(`${name}$${caseName}`, fields),
      caseName,
      `${name}.${caseName}`,
      fields.map(([n, s]) => [n, n, n, s]),
      name,
      index,
    ),
  );
  const desc: VariantDesc = { name, cases: descs };
  return {
    desc,
    make: (caseName, ...fields) => {
      const c = descs.find((d) => d.name === caseName);
      if (c === undefined) throw new Error(`${name} has no case ${caseName}`);
      return c.make(fields) as object;
    },
  };
}

const T: Shape = TEXT;

export const Response = recordClass("Response", [
  ["status", INT],
  ["headers", map(T, T)],
  ["body", T],
  ["bytes", BYTES],
]);
export const Request = recordClass("Request", [
  ["method", T],
  ["path", T],
  ["query", map(T, T)],
  ["headers", map(T, T)],
  ["body", T],
  ["bytes", BYTES],
]);
export const Instant = recordClass("Instant", [["milliseconds", INT]]);
export const DateRecord = recordClass("Date", [
  ["year", INT],
  ["month", INT],
  ["day", INT],
]);
export const Duration = recordClass("Duration", [["milliseconds", INT]]);
export const Database = recordClass("Database", [["path", T]]);
export const ProcessResult = recordClass("ProcessResult", [
  ["exit_code", INT],
  ["stdout", T],
  ["stderr", T],
]);
export const ParseError = recordClass("ParseError", [
  ["text", T],
  ["expected", T],
]);
export const Group = recordClass("Group", [
  ["key", param(0)],
  ["items", list(param(1))],
]);

// A guard's refusal (spec/runtime.md, "The check") is a case of every failure
// type a call through the gateway can fail with, so that a match the checker
// found exhaustive over the declared type has an arm for it.
const GUARDED: [string, FieldSpec[]] = [
  "Guarded",
  [
    ["origin", T],
    ["sink", T],
  ],
];

export const HttpError = variantType("HttpError", [
  ["HostNotAllowed", [["host", T]]],
  ["PermissionDenied", [["host", T]]],
  ["OverBudget", [["host", T]]],
  ["InvalidUrl", [["url", T]]],
  ["Timeout", [["url", T]]],
  [
    "Unreachable",
    [
      ["url", T],
      ["reason", T],
    ],
  ],
  [
    "TooLarge",
    [
      ["url", T],
      ["limit", INT],
    ],
  ],
  GUARDED,
]);
export const FileError = variantType("FileError", [
  ["PermissionDenied", [["path", T]]],
  ["OverBudget", [["path", T]]],
  ["NotFound", [["path", T]]],
  [
    "Failed",
    [
      ["path", T],
      ["reason", T],
    ],
  ],
  GUARDED,
]);
export const DbError = variantType("DbError", [
  ["PermissionDenied", [["path", T]]],
  ["OverBudget", [["path", T]]],
  ["Sql", [["message", T]]],
  ["Constraint", [["message", T]]],
  GUARDED,
]);
export const StartError = variantType("StartError", [
  ["PermissionDenied", [["port", INT]]],
  ["OverBudget", [["port", INT]]],
  ["InUse", [["port", INT]]],
  ["InvalidPort", [["port", INT]]],
  GUARDED,
]);
export const ProcessError = variantType("ProcessError", [
  ["PermissionDenied", [["program", T]]],
  ["OverBudget", [["program", T]]],
  ["NotFound", [["program", T]]],
  [
    "Failed",
    [
      ["program", T],
      ["reason", T],
    ],
  ],
  GUARDED,
]);
export const ForeignError = variantType("ForeignError", [
  ["PermissionDenied", [["module", T]]],
  [
    "Failed",
    [
      ["module", T],
      ["reason", T],
    ],
  ],
  GUARDED,
]);
export const JsonError = variantType("JsonError", [
  [
    "Syntax",
    [
      ["message", T],
      ["offset", INT],
    ],
  ],
  [
    "Shape",
    [
      ["path", T],
      ["expected", T],
      ["found", T],
    ],
  ],
]);

/** Every prelude record and variant by name, for the compiler's references and the consistency test. */
export const PRELUDE_RECORDS: Readonly<Record<string, TypeDesc>> = {
  Response: Response.desc,
  Request: Request.desc,
  Instant: Instant.desc,
  Date: DateRecord.desc,
  Duration: Duration.desc,
  Database: Database.desc,
  ProcessResult: ProcessResult.desc,
  ParseError: ParseError.desc,
  Group: Group.desc,
};

export const PRELUDE_VARIANTS: Readonly<Record<string, VariantDesc>> = {
  Optional: OPTIONAL,
  HttpError: HttpError.desc,
  FileError: FileError.desc,
  DbError: DbError.desc,
  StartError: StartError.desc,
  ProcessError: ProcessError.desc,
  ForeignError: ForeignError.desc,
  JsonError: JsonError.desc,
};
