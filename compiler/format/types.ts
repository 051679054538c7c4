// Types, patterns and grant items, which always print on one line: as strings,
// or, for a type where it stands in a line, written piece by piece.

import type { CapabilityRef, GrantItem, Ident, Pattern, TypeExpr } from "../parse/tree.js";
import type { Lines } from "./lines.js";

/**
 * What follows a type where it stands: nothing that could join it (`end`), a comma of a list, or more of
 * an enclosing function type (`or fails with`, `needs`), which a function type without parentheses would take.
 */
type TypeTail = "end" | "comma" | "more";

export function typeText(src: string, type: TypeExpr, tail: TypeTail = "end"): string {
  switch (type.kind) {
    case "NamedType": {
      const name = path(type.path);
      if (type.args.length === 0) return name;
      return `${name}<${type.args.map((t, i) => typeText(src, t, i < type.args.length - 1 ? "comma" : "end")).join(", ")}>`;
    }
    case "PairType":
      return `(${typeText(src, type.first, "comma")}, ${typeText(src, type.second)})`;
    case "FunctionType": {
      const params = type.params.map((t, i) => typeText(src, t, i < type.params.length - 1 ? "comma" : "end"));
      let text = `function(${params.join(", ")})`;
      const after = type.fails !== undefined || type.needs !== undefined;
      if (type.returns !== undefined) text += ` returns ${typeText(src, type.returns, after ? "more" : "end")}`;
      if (type.fails !== undefined)
        text += ` or fails with ${typeText(src, type.fails, type.needs !== undefined ? "more" : "end")}`;
      if (type.needs !== undefined) text += ` needs ${type.needs.items.map((g) => grantItemText(src, g)).join(", ")}`;
      // Its `needs` list would take a capability after a comma, its signature the enclosing one's tail.
      const open = (tail === "comma" && type.needs !== undefined) || tail === "more";
      return open ? `(${text})` : text;
    }
  }
}

/** Writes `typeText(o.src, type, tail)` to the current line, a named type's pieces one by one (they make no string). */
export function writeType(o: Lines, type: TypeExpr, tail: TypeTail = "end"): void {
  if (type.kind !== "NamedType") return o.write(typeText(o.src, type, tail));
  const idents = type.path;
  o.write(idents[0]!.name);
  for (let i = 1; i < idents.length; i++) {
    o.write(".");
    o.write(idents[i]!.name);
  }
  if (type.args.length === 0) return;
  o.write("<");
  for (let i = 0; i < type.args.length; i++) {
    if (i > 0) o.write(", ");
    writeType(o, type.args[i]!, i < type.args.length - 1 ? "comma" : "end");
  }
  o.write(">");
}

export function path(idents: readonly Ident[]): string {
  if (idents.length === 1) return idents[0]!.name;
  let text = idents[0]!.name;
  for (let i = 1; i < idents.length; i++) text += `.${idents[i]!.name}`;
  return text;
}

export function raw(src: string, node: { span: { start: number; end: number } }): string {
  return src.slice(node.span.start, node.span.end);
}

export function grantItemText(src: string, item: GrantItem): string {
  let text = capabilityText(src, item.capability);
  if (item.budget !== undefined) text += ` at most ${raw(src, item.budget.count)} per ${item.budget.unit.name}`;
  if (item.guard !== undefined) text += ` only to ${item.guard.sinks.map((s) => capabilityText(src, s)).join(" or ")}`;
  return text;
}

export function capabilityText(src: string, capability: CapabilityRef): string {
  const name = path(capability.path);
  return capability.scope === undefined ? name : `${name}(${raw(src, capability.scope)})`;
}

export function patternText(src: string, pattern: Pattern): string {
  switch (pattern.kind) {
    case "WildcardPattern":
      return "_";
    case "BindPattern":
      return pattern.name.name;
    case "LiteralPattern": {
      const text = raw(src, pattern.value);
      // A negative number is `-` and the literal, with whatever spaces the author left between.
      return text.startsWith("-") ? `-${text.slice(1).trim()}` : text;
    }
    case "CasePattern": {
      const name = path(pattern.path);
      if (pattern.args.length === 0) return name;
      const args = pattern.args.map((a) =>
        a.label === undefined ? patternText(src, a.pattern) : `${a.label.name}: ${patternText(src, a.pattern)}`,
      );
      return `${name}(${args.join(", ")})`;
    }
    case "PairPattern":
      return `(${patternText(src, pattern.first)}, ${patternText(src, pattern.second)})`;
    case "ListPattern": {
      const items = pattern.items.map((p) => patternText(src, p));
      if (pattern.rest !== undefined) items.push(`...${pattern.rest.name?.name ?? "_"}`);
      return `[${items.join(", ")}]`;
    }
  }
}
