// The grant a bundle declares for itself (`export const mainGrant = [...]`),
// read from its syntax tree (the validator's, not parsed again) without running it. `renyi run` compares it with
// the manifest's: a bundle whose own grant is not the one its manifest shows a
// reviewer is refused, even when the run would use the manifest's.

export type Node = { type: string; [key: string]: unknown };

/**
 * The value of `mainGrant` (null when main needs nothing; not declared when the bundle has no main), or why it cannot
 * be read.
 */
export function bundleGrant(
  body: readonly object[],
): { ok: true; declared: boolean; value: unknown } | { ok: false; problem: string } {
  let found: Node | undefined;
  let count = 0;
  for (const statement of body as readonly Node[]) {
    if (statement.type !== "ExportNamedDeclaration") continue;
    for (const specifier of (statement["specifiers"] as Node[] | undefined) ?? []) {
      if ((specifier["exported"] as Node)["name"] === "mainGrant")
        return {
          ok: false,
          problem: "the bundle exports `mainGrant` under another name, which the compiler never writes",
        };
    }
    const declaration = statement["declaration"] as Node | null;
    if (declaration?.type !== "VariableDeclaration") continue;
    for (const declarator of declaration["declarations"] as Node[]) {
      if ((declarator["id"] as Node)["name"] !== "mainGrant") continue;
      if (declaration["kind"] !== "const") return { ok: false, problem: "the bundle's `mainGrant` is not a constant" };
      found = declarator["init"] as Node;
      count++;
    }
  }
  if (count === 0) return { ok: true, declared: false, value: undefined };
  if (count > 1 || found === undefined) return { ok: false, problem: "the bundle declares `mainGrant` more than once" };
  const value = literal(found);
  return value === NOT_LITERAL
    ? { ok: false, problem: "the bundle's `mainGrant` is not written as data, as the compiler writes it" }
    : { ok: true, declared: true, value };
}

export const NOT_LITERAL = Symbol("not a literal");

/** Arrays, objects, texts, numbers and null written out: anything computed is refused. */
export function literal(node: Node): unknown {
  switch (node.type) {
    case "Literal": {
      const value = node["value"];
      return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? value
        : NOT_LITERAL;
    }
    case "ArrayExpression": {
      const out: unknown[] = [];
      for (const element of node["elements"] as (Node | null)[]) {
        const value = element === null ? NOT_LITERAL : literal(element);
        if (value === NOT_LITERAL) return NOT_LITERAL;
        out.push(value);
      }
      return out;
    }
    case "ObjectExpression": {
      const out = Object.create(null) as Record<string, unknown>;
      for (const property of node["properties"] as Node[]) {
        if (
          property.type !== "Property" ||
          property["computed"] ||
          property["method"] ||
          property["shorthand"] ||
          property["kind"] !== "init"
        )
          return NOT_LITERAL;
        const key = property["key"] as Node;
        const name =
          key.type === "Identifier"
            ? (key["name"] as string)
            : key.type === "Literal" && typeof key["value"] === "string"
              ? key["value"]
              : undefined;
        if (name === undefined || name === "__proto__" || name in out) return NOT_LITERAL;
        const value = literal(property["value"] as Node);
        if (value === NOT_LITERAL) return NOT_LITERAL;
        out[name] = value;
      }
      return out;
    }
    default:
      return NOT_LITERAL;
  }
}
