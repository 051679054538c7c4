// The top level: `use` lines, types, functions and tests, each starting a line
// at the left margin, their bodies one step in.

import type { Item } from "../parse/tree.js";
import type { Lines } from "./lines.js";
import { findAhead } from "./source-text.js";
import { block, endLine, headerLines, needsList, params } from "./statements.js";
import { path, raw, typeText } from "./types.js";

export function item(o: Lines, it: Item): void {
  const src = o.src;
  o.start(0, it.span.start);
  switch (it.kind) {
    case "Use":
      o.write(`use ${path(it.path)}${it.alias ? ` as ${it.alias.name}` : ""}`);
      break;
    case "TypeDef": {
      const kind = it.body.kind === "RecordBody" ? "record" : "variant";
      o.write(`${it.public ? "public " : ""}type ${it.name.name}${typeParams(it.typeParams)} is ${kind}`);
      o.open();
      headerLines(o, 1, it.purpose, undefined);
      const members = it.body.kind === "RecordBody" ? it.body.fields : it.body.cases;
      for (const member of members) {
        o.start(1, member.span.start);
        if (member.kind === "FieldDecl") {
          o.write(`${member.name.name}: ${typeText(src, member.type)}`);
          if (member.jsonKey !== undefined) o.write(` from json ${raw(src, member.jsonKey)}`);
        } else {
          const fields = member.fields.map(
            (f, i) => `${f.name.name}: ${typeText(src, f.type, i < member.fields.length - 1 ? "comma" : "end")}`,
          );
          o.write(fields.length === 0 ? member.name.name : `${member.name.name}(${fields.join(", ")})`);
        }
        o.reach(member.span.end);
      }
      endLine(o, 0, it.body.span.end);
      break;
    }
    case "FunctionDef":
      o.write(`${it.public ? "public " : ""}function ${it.name.name}${typeParams(it.typeParams)}`);
      params(o, findAhead(src, it.name.span.end, "("), it.params);
      if (it.returns !== undefined) o.write(` returns ${typeText(src, it.returns, it.fails ? "more" : "end")}`);
      if (it.fails !== undefined) o.write(` or fails with ${typeText(src, it.fails)}`);
      o.open();
      headerLines(o, 1, it.purpose, it.needs);
      block(o, it.body, 1);
      endLine(o, 0, it.body.span.end);
      break;
    case "TestDef":
      o.write(`test ${raw(src, it.name)}`);
      if (it.needs !== undefined) {
        o.write(" ");
        needsList(o, it.needs);
      }
      if (it.replays !== undefined) o.write(` replays ${raw(src, it.replays)}`);
      o.open();
      block(o, it.body, 1);
      endLine(o, 0, it.body.span.end);
      break;
  }
  o.reach(it.span.end);
}

function typeParams(params: readonly { name: string }[]): string {
  return params.length === 0 ? "" : `<${params.map((p) => p.name).join(", ")}>`;
}
