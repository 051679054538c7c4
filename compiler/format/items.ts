// The top level: `use` lines, types, functions and tests, each starting a line
// at the left margin, their bodies one step in.

import type { Item } from "../parse/tree.js";
import type { Lines } from "./lines.js";
import { findAhead } from "./source-text.js";
import { block, endLine, headerLines, needsList, params, signatureTail, unusedList } from "./statements.js";
import { path, raw, typeText, writeType } from "./types.js";

export function item(o: Lines, it: Item): void {
  const src = o.src;
  o.start(0, it.span.start);
  switch (it.kind) {
    case "Use":
      o.write(`use ${path(it.path)}${it.alias ? ` as ${it.alias.name}` : ""}`);
      break;
    case "TypeDef": {
      o.write(it.public ? "public type " : "type ");
      o.write(it.name.name);
      if (it.typeParams.length > 0) o.write(typeParams(it.typeParams));
      o.write(it.body.kind === "RecordBody" ? " is record" : " is variant");
      o.open();
      headerLines(o, 1, it.purpose, undefined);
      const members = it.body.kind === "RecordBody" ? it.body.fields : it.body.cases;
      for (const member of members) {
        o.start(1, member.span.start);
        if (member.kind === "FieldDecl") {
          o.write(member.name.name);
          o.write(": ");
          writeType(o, member.type);
          if (member.jsonKey !== undefined) {
            o.write(" from json ");
            o.write(raw(src, member.jsonKey));
          }
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
      o.write(it.public ? "public function " : "function ");
      o.write(it.name.name);
      if (it.typeParams.length > 0) o.write(typeParams(it.typeParams));
      params(o, findAhead(src, it.name.span.end, "("), it.params);
      signatureTail(o, it);
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
      if (it.calls !== undefined) o.write(` calls ${raw(src, it.calls.first)} to ${raw(src, it.calls.last)}`);
      if (it.unused !== undefined) {
        o.write(" ");
        unusedList(o, it.unused);
      }
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
