// JavaScript names for Renyi names, in one place.
//
// Renyi names never contain `$`, so every name the compiler makes up has one:
// temporaries (`$t1`), runtime imports (`$iadd`), definitions of a module
// (`weather$fetch`). That keeps them apart from any local a program declares.

import { modulePrefix } from "../../vocabulary/module-prefix.js";

/**
 * The globals compiled code uses; a bundle may name no other (the compiler's
 * free-name check and the bundle validator both hold it to these). Each is
 * RESERVED below, so that no local hides it from the code around it.
 */
export const ALLOWED_GLOBALS: ReadonlySet<string> = new Set(["undefined", "JSON", "Math", "Promise", "Array"]);

/**
 * Words a local may not be called in JavaScript's strict mode (ES modules are
 * strict), and names of JavaScript's own that a local must not hide from the
 * code the compiler writes around it. A local of one of these names gets `$`
 * after it.
 */
const RESERVED = new Set([
  "arguments",
  "await",
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "eval",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "implements",
  "import",
  "in",
  "instanceof",
  "interface",
  "let",
  "new",
  "null",
  "package",
  "private",
  "protected",
  "public",
  "return",
  "static",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "yield",
  "undefined",
  "NaN",
  "Infinity",
  "Object",
  "Array",
  "Promise",
  "Symbol",
  "Math",
  "Number",
  "String",
  "Boolean",
  "Error",
  "JSON",
  "globalThis",
  "async",
  "of",
  "get",
  "set",
  "static",
  ...ALLOWED_GLOBALS,
]);

export { modulePrefix, moduleOfPrefix } from "../../vocabulary/module-prefix.js";

export function localName(name: string): string {
  return RESERVED.has(name) ? `${name}$` : name;
}

/**
 * Record fields are properties. A few property names mean something to
 * JavaScript itself: `__proto__` would set the prototype, `constructor` and the
 * Object.prototype methods would hide the ones the runtime relies on, and an
 * object with a `then` function would be taken for a promise by `await`.
 */
const SPECIAL_PROPERTIES = new Set([
  "__proto__",
  "constructor",
  "prototype",
  "then",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
  // A function's own: what would reach its caller, or call it with another `this`.
  "caller",
  "callee",
  "arguments",
  "apply",
  "call",
  "bind",
  "toJSON",
]);

/** A name of the shape the compiler gives record fields and library functions; the bundle validator allows no other. */
const PROPERTY_SHAPE = /^[A-Za-z_][A-Za-z0-9_]*\$?$/;

/**
 * A function of a library module's namespace (`$foreign.call`): any name of the shape; a namespace holds nothing else.
 */
export function isLibraryFunctionName(name: string): boolean {
  return PROPERTY_SHAPE.test(name) && name !== "__proto__" && name !== "constructor" && name !== "prototype";
}

/** Whether compiled code may read or make a property of this name (spec/security.md). */
export function isEmittedPropertyName(name: string): boolean {
  return PROPERTY_SHAPE.test(name) && !SPECIAL_PROPERTIES.has(name);
}

export function propertyName(name: string): string {
  return SPECIAL_PROPERTIES.has(name) ? `${name}$` : name;
}

// Every name a bundle declares at its top level is one of these. A program's
// definitions are the module's prefix, `$`, and the definition's name (a case
// of a variant after its type's, with `$$`): `weather$fetch`, `shapes$Shape`,
// `shapes$Shape$$Circle`. What the compiler adds about them (a type's
// descriptor, a case's one value, a module's tests) ends in `$$` and a tag
// that is not a hexadecimal number followed by `$` (so not a prefix's escape)
// and not capitalised (so not a case): `shapes$Shape$$info`,
// `weather$$tests`. Renyi names hold no `$`, so no definition of a program can
// be spelled like a name the compiler adds, or like another definition; a
// property test tries this (tests/names.test.ts).

export function functionName(module: string, name: string): string {
  return `${modulePrefix(module)}$${name}`;
}

export function typeName(module: string, name: string, caseName?: string): string {
  return `${modulePrefix(module)}$${name}${caseName === undefined ? "" : `$$${caseName}`}`;
}

/** The descriptor of a record, a variant or a case (its name, fields and shapes): `shapes$Shape$$info`. */
export function descriptorName(typeOrCase: string): string {
  return `${typeOrCase}$$info`;
}

/** The one value of a case without fields: `shapes$Shape$$Empty$$only`. */
export function onlyValueName(caseClass: string): string {
  return `${caseClass}$$only`;
}

/** A module's test number `index`, and the table of its tests. */
export function testName(module: string, index: number): string {
  return `${modulePrefix(module)}$$test${index}`;
}

export function testTableName(module: string): string {
  return `${modulePrefix(module)}$$tests`;
}

/**
 * A module-level constant the lowering hoists (a shape, a prelude class): `$` and
 * a key with `_` (which no runtime export's name has), then the module's prefix.
 */
export function hoistedName(key: string, module: string): string {
  return `$${key}$${modulePrefix(module)}`;
}
