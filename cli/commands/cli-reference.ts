// spec/cli.md below its hand-written introduction, and the table of commands
// in README.md between its markers, made from the catalogue of commands
// (catalogue.ts): written by `npm run cli-reference` (scripts/cli-reference.mjs)
// and checked by a test that fails when either is stale.

import {
  type ArgumentDeclaration,
  type CommandDeclaration,
  type FlagDeclaration,
  flagGroups,
  flagText,
  listed,
  usageLine,
} from "../host/command-declaration.js";
import { ALL_COMMANDS } from "./catalogue.js";

const CLI_MARKER =
  "<!-- Generated from the declarations of the commands (cli/commands/catalogue.ts) by `npm run cli-reference`: edit the declarations, not what follows. -->";
const README_START = "<!-- commands:start -->";
const README_END = "<!-- commands:end -->";

/** Text as Markdown shows it: a `<` would open an HTML tag (`<redacted>`). */
const prose = (text: string): string => text.replace(/</g, "&lt;");
/** A table cell's text: a `|` would end the cell. */
const cell = (text: string): string => prose(text).replace(/\|/g, "\\|");

/** The heading's anchor, as GitHub makes it: `renyi run` → `renyi-run`. */
function anchorOf(command: CommandDeclaration): string {
  return `${command.program}-${command.name}`;
}

function argumentRow(a: ArgumentDeclaration): string {
  const how = a.many === true ? " (any number)" : a.optional === true ? " (optional)" : "";
  return `| \`${a.name}\` | ${cell(a.says)}${how} |`;
}

function flagRow(flag: FlagDeclaration): string {
  const more = [
    ...(flag.most !== undefined ? [`at most ${flag.most}`] : []),
    ...(flag.repeatable === true ? ["repeatable"] : []),
  ];
  const says = more.length === 0 ? flag.says : `${flag.says} (${more.join("; ")})`;
  return `| \`${flagText(flag)}\` | ${cell(says)} | ${cell(flag.default ?? "")} |`;
}

/** One command's section of spec/cli.md. */
function section(command: CommandDeclaration): string {
  const parts = [`## ${command.program} ${command.name}`, `\`${usageLine(command)}\``, prose(command.summary)];
  if (command.description !== undefined) parts.push(prose(command.description));
  if (command.arguments.length > 0)
    parts.push(["| Argument | |", "|---|---|", ...command.arguments.map(argumentRow)].join("\n"));
  for (const group of flagGroups(command))
    parts.push(
      `${group.heading}:`,
      ["| Flag | What it does | Default |", "|---|---|---|", ...group.flags.map(flagRow)].join("\n"),
    );
  if (command.flags.length === 0 && command.alsoTakes === undefined) parts.push("It takes no flag but `--help`.");
  if (command.alsoTakes !== undefined) {
    const { command: other, except } = command.alsoTakes;
    parts.push(
      `It takes the flags of [\`${command.program} ${other}\`](#${command.program}-${other}) as well${except.length === 0 ? "" : `, but ${listed(except.map((e) => `\`${e}\``))}`}.`,
    );
  }
  if (command.notes !== undefined) parts.push(prose(command.notes));
  if (command.exitCodes !== undefined)
    parts.push(
      [
        "| Exit code | Meaning |",
        "|---|---|",
        ...command.exitCodes.map((c) => `| ${c.code} | ${cell(c.means)} |`),
      ].join("\n"),
    );
  return parts.join("\n\n");
}

/** spec/cli.md: its introduction as written (everything above the marker), then every command's section. */
export function regeneratedCliReference(written: string): string {
  const at = written.indexOf(CLI_MARKER);
  const introduction = at === -1 ? `${written.trimEnd()}\n\n` : written.slice(0, at);
  const contents = ALL_COMMANDS.map((c) => `- [${c.program} ${c.name}](#${anchorOf(c)}): ${prose(c.summary)}`).join(
    "\n",
  );
  return `${introduction}${CLI_MARKER}\n\n${contents}\n\n${ALL_COMMANDS.map(section).join("\n\n")}\n`;
}

/** The table of commands README.md shows between its markers, or undefined when it has lost them. */
export function regeneratedReadme(readme: string): string | undefined {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start === -1 || end < start) return undefined;
  const rows = ALL_COMMANDS.map(
    (c) => `| [\`${c.program} ${c.name}\`](spec/cli.md#${anchorOf(c)}) | ${cell(c.summary)} |`,
  );
  const table = ["| Command | What it does |", "|---|---|", ...rows].join("\n");
  return `${readme.slice(0, start + README_START.length)}\n${table}\n${readme.slice(end)}`;
}
