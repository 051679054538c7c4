// A readable dump of a syntax tree, for golden tests and `renyi parse`.
//
//   Let @3:3-3:20
//     pattern: BindPattern name=total @3:7-3:12
//     value: IntLiteral value=0 @3:16-3:17
//
// Names (Ident) print inline, flags print only when set, empty lists not at all.

import type { SourceFile } from "../source.js";
import type { Span } from "../source.js";

type AnyNode = { kind: string; span: Span; [key: string]: unknown };

function isNode(value: unknown): value is AnyNode {
  return typeof value === "object" && value !== null && "kind" in value && "span" in value;
}

function isIdent(value: unknown): value is { kind: "Ident"; name: string } {
  return isNode(value) && value.kind === "Ident";
}

export function dumpTree(node: unknown, source: SourceFile): string {
  const lines: string[] = [];
  write(node as AnyNode, "", "", lines, source);
  return `${lines.join("\n")}\n`;
}

function where(span: Span, source: SourceFile): string {
  const a = source.position(span.start);
  const b = source.position(span.end);
  return `@${a.line}:${a.column}-${b.line}:${b.column}`;
}

function write(node: AnyNode, indent: string, label: string, lines: string[], source: SourceFile): void {
  let head = `${indent}${label}${node.kind}`;
  const children: [string, AnyNode | AnyNode[]][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "kind" || key === "span") continue;
    if (isIdent(value)) head += ` ${key}=${value.name}`;
    else if (Array.isArray(value) && value.length > 0 && value.every(isIdent))
      head += ` ${key}=${value.map((i) => i.name).join(".")}`;
    else if (isNode(value)) children.push([key, value]);
    else if (Array.isArray(value)) {
      if (value.length > 0) children.push([key, value as AnyNode[]]);
    } else if (typeof value === "boolean") {
      if (value) head += ` ${key}`;
    } else if (typeof value === "string") head += ` ${key}=${JSON.stringify(value)}`;
    else if (value !== undefined) head += ` ${key}=${String(value)}`;
  }
  lines.push(`${head} ${where(node.span, source)}`);
  for (const [key, value] of children) {
    if (Array.isArray(value)) {
      lines.push(`${indent}  ${key}:`);
      for (const item of value) write(item, `${indent}    `, "", lines, source);
    } else {
      write(value, `${indent}  `, `${key}: `, lines, source);
    }
  }
}
