// A readable dump of the checked tree, for golden tests and `renyi check --tree`:
// every node with its type as a user would write it, every local as
// `name: Type`, every declared type by name.
//
//   Let
//     pattern: Bind total: Int
//     value: Int 0 : Int

import type { Local } from "./checked.js";
import { needText } from "../../vocabulary/needs.js";
import { typeToText, zonk, type Need, type Type, type TypeDecl } from "./types.js";

const TYPE_KEYS = new Set(["type", "of", "returns", "fails", "operand", "failure"]);

function isType(value: unknown): value is Type {
  if (typeof value !== "object" || value === null || !("kind" in value) || "span" in value) return false;
  switch ((value as { kind: string }).kind) {
    case "Con":
      return "args" in value;
    case "Function":
      return "returns" in value;
    case "Param":
    case "Meta":
      return "id" in value;
    case "Error":
      return Object.keys(value).length === 1;
    default:
      return false;
  }
}

function isLocal(value: unknown): value is Local {
  return typeof value === "object" && value !== null && "id" in value && "mutable" in value && "name" in value;
}

function isDecl(value: unknown): value is TypeDecl {
  return typeof value === "object" && value !== null && "shape" in value && "cases" in value;
}

function isNeed(value: unknown): value is Need {
  return (
    typeof value === "object" &&
    value !== null &&
    "path" in value &&
    Array.isArray((value as Need).path) &&
    !("kind" in value)
  );
}

function inline(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (isType(value)) return typeToText(zonk(value));
  if (isLocal(value)) return `${value.mutable ? "var " : ""}${value.name}: ${typeToText(zonk(value.type))}`;
  if (isDecl(value)) return value.name;
  if (isNeed(value)) return needText(value);
  return undefined;
}

export function dumpChecked(node: unknown): string {
  const lines: string[] = [];
  write(node, "", "", lines);
  return `${lines.join("\n")}\n`;
}

function write(node: unknown, indent: string, label: string, lines: string[]): void {
  if (node === undefined) {
    // An argument left out of a call: the parameter's default applies.
    lines.push(`${indent}${label}(default)`);
    return;
  }
  const simple = inline(node);
  if (simple !== undefined) {
    lines.push(`${indent}${label}${simple}`);
    return;
  }
  if (Array.isArray(node)) {
    lines.push(`${indent}${label.replace(/: $/, ":")}`);
    for (const item of node) write(item, `${indent}  `, "", lines);
    return;
  }
  const object = node as Record<string, unknown>;
  // Parts without a kind of their own (an arm, a branch, a parameter) show as `-`.
  let head = `${indent}${label}${typeof object["kind"] === "string" ? object["kind"] : "-"}`;
  const children: [string, unknown][] = [];
  for (const [key, value] of Object.entries(object)) {
    if (key === "kind" || key === "span" || key === "syntax" || value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    const text = inline(value);
    if (text !== undefined && (TYPE_KEYS.has(key) || !Array.isArray(value))) {
      head += key === "type" ? ` : ${text}` : ` ${key}=${text}`;
    } else if (Array.isArray(value) && value.every((v) => inline(v) !== undefined)) {
      head += ` ${key}=[${value.map(inline).join(", ")}]`;
    } else {
      children.push([key, value]);
    }
  }
  lines.push(head.trimEnd());
  for (const [key, value] of children) write(value, `${indent}  `, `${key}: `, lines);
}
