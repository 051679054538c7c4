// cac's commands and options registered from their declarations
// (catalogue.ts), so that what `renyi --help`, `renyic --help` and `renyi CMD
// --help` show is the declarations' own words, and cac reads no flag that is
// not declared.

import type { CAC, Command } from "cac";
import { type CommandDeclaration, exitCodesText, flagSays, wrap } from "../host/command-declaration.js";

/** The command's arguments as cac reads them: `<file>`, `[code]`, `[...paths]`. */
function cacArguments(command: CommandDeclaration): string[] {
  return command.arguments.map((a) => {
    const name = a.name.toLowerCase();
    return a.many === true ? `[...${name}s]` : a.optional === true ? `[${name}]` : `<${name}>`;
  });
}

/** Registers `command` and its flags with cac; the caller adds the action. */
export function declare(cli: CAC, command: CommandDeclaration): Command {
  const registered = cli.command([command.name, ...cacArguments(command)].join(" "), command.summary);
  for (const flag of command.flags)
    registered.option(
      flag.value === undefined ? flag.name : `${flag.name} <${flag.value.toLowerCase()}>`,
      flagSays(flag),
    );
  return registered;
}

/**
 * cac's help, and beside the usage and options it shows for a command, the
 * command's description and its exit codes, from its declaration.
 */
export function helpFromDeclarations(cli: CAC, commands: readonly CommandDeclaration[]): void {
  cli.help((sections) => {
    const command = commands.find((c) => c.name === cli.matchedCommandName);
    if (command === undefined) return sections;
    const about = [command.summary, ...(command.description === undefined ? [] : [command.description])];
    const usage = sections.findIndex((s) => s.title === "Usage");
    const more = [{ body: wrap(about.join("\n\n")).join("\n") }];
    if (command.exitCodes !== undefined) sections.push({ body: wrap(exitCodesText(command.exitCodes)).join("\n") });
    sections.splice(usage + 1, 0, ...more);
    return sections;
  });
}
