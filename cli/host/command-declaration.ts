// A command of `renyi` or `renyic` as data: its name, arguments, summary,
// flags and exit codes, declared once beside the code that reads them. Its
// usage text, the list its refusal of an unknown flag names, cac's options and
// help, spec/cli.md and the README's table of commands are all made from the
// declaration (cli/commands/catalogue.ts gathers them), so none is written twice.

/** One flag a command takes, before its file where the command has one. */
export interface FlagDeclaration {
  readonly name: `--${string}`;
  /** The placeholder of its value, as usage shows it (N, FILE, CAP=N/UNIT); absent for a flag that takes none. */
  readonly value?: string;
  /** What it does: one sentence, without its default, which `default` gives. */
  readonly says: string;
  /** Its default as shown, when it has one. */
  readonly default?: string;
  /** The most it may be given, when a value above it is refused. */
  readonly most?: string;
  /** Whether it may be given again and again, each adding to the last. */
  readonly repeatable?: boolean;
  /** The heading of the group the flag is listed under, when the command's flags are listed in groups. */
  readonly group?: string;
}

export interface ArgumentDeclaration {
  /** Its placeholder, as usage shows it: FILE, REC. */
  readonly name: string;
  readonly says: string;
  readonly optional?: boolean;
  /** Whether it may be given any number of times (none included). */
  readonly many?: boolean;
}

export interface ExitCode {
  readonly code: number;
  readonly means: string;
}

export interface CommandDeclaration {
  readonly program: "renyi" | "renyic";
  readonly name: string;
  readonly arguments: readonly ArgumentDeclaration[];
  /** What follows the arguments and belongs to the program, when something does: `[program options]`. */
  readonly rest?: string;
  /** One line: what the command does. */
  readonly summary: string;
  /** More about it, in paragraphs (separated by an empty line), each wrapped where it is shown. */
  readonly description?: string;
  readonly flags: readonly FlagDeclaration[];
  /** Where its flags go, when that matters: "before the file". */
  readonly flagsWhere?: string;
  /** The heading of its flags' list, when they are not in groups: "Options". */
  readonly flagsHeading?: string;
  /** Another command whose flags it takes as well, but those named in `except`. */
  readonly alsoTakes?: { readonly command: string; readonly except: readonly string[] };
  /** Paragraphs shown after the flags. */
  readonly notes?: string;
  /** Its exit codes, when it has its own; absent for a command whose codes are the common ones (0 done, 3 refused). */
  readonly exitCodes?: readonly ExitCode[];
}

/** The width help text is wrapped to. */
const WIDTH = 92;
/** The column a flag's text starts in. */
const FLAG_COLUMN = 27;

/** A flag as usage shows it: `--fuel N`, or `--json` for one without a value. */
export function flagText(flag: FlagDeclaration): string {
  return flag.value === undefined ? flag.name : `${flag.name} ${flag.value}`;
}

/** What a flag does, with its default, its most and whether it repeats, in one sentence. */
export function flagSays(flag: FlagDeclaration): string {
  const more: string[] = [];
  if (flag.default !== undefined && flag.default === flag.most) more.push(`default and most ${flag.default}`);
  else {
    if (flag.default !== undefined) more.push(`default ${flag.default}`);
    if (flag.most !== undefined) more.push(`at most ${flag.most}`);
  }
  if (flag.repeatable === true) more.push("repeatable");
  return more.length === 0 ? flag.says : `${flag.says} (${more.join("; ")})`;
}

/** The command's arguments as usage shows them: `REC [FILE]`, `[FILE]...`. */
function argumentsText(command: CommandDeclaration): string {
  const words = command.arguments.map((a) => {
    const word = a.optional === true || a.many === true ? `[${a.name}]` : a.name;
    return a.many === true ? `${word}...` : word;
  });
  if (command.rest !== undefined) words.push(command.rest);
  return words.join(" ");
}

/** The usage line: `renyi run [options] FILE [program options]`. */
export function usageLine(command: CommandDeclaration): string {
  const options = command.flags.length > 0 || command.alsoTakes !== undefined ? " [options]" : "";
  const args = argumentsText(command);
  return `${command.program} ${command.name}${options}${args === "" ? "" : ` ${args}`}`;
}

/** "A, B and C", for a list in a sentence. */
export function listed(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * A flag that takes one value, given a second time: refused, as cargo and rustc refuse it, rather
 * than the last one taken without a word (a wrapper's `--timeout 2` undone by a later
 * `--timeout 1000`). `seen` holds the flags given so far; a repeatable flag is never refused.
 */
export function givenTwiceProblem(seen: Set<string>, flag: FlagDeclaration): string | undefined {
  if (flag.repeatable === true) return undefined;
  if (seen.has(flag.name)) return `${flag.name} is given twice; it takes one value`;
  seen.add(flag.name);
  return undefined;
}

/** The refusal of a flag (or of an argument, for a command that takes none) the command does not take, naming the flags it does. */
export function unknownFlagProblem(
  command: CommandDeclaration,
  name: string,
  what: "option" | "argument" = "option",
): string {
  const own = command.flags.map(flagText);
  const also = command.alsoTakes === undefined ? [] : [`those of \`${command.program} ${command.alsoTakes.command}\``];
  const where = command.flagsWhere === undefined ? "" : `, ${command.flagsWhere}`;
  const which =
    own.length + also.length === 0
      ? "it takes none"
      : own.length + also.length === 1
        ? `its only option is ${[...own, ...also][0]}`
        : `its options are ${listed([...own, ...also])}${where}`;
  const word = what === "option" ? name : JSON.stringify(name);
  return `\`${command.program} ${command.name}\` has no ${what} ${word}; ${which}`;
}

/** The flag a command line's word names, `--fuel` or `--fuel=5`, and the value given with it. */
export function splitFlag(word: string): { name: string; inline?: string } {
  const eq = word.indexOf("=");
  return eq > 0 ? { name: word.slice(0, eq), inline: word.slice(eq + 1) } : { name: word };
}

/** Text wrapped to `width` columns, each line after `indent` spaces; paragraphs stay apart. */
export function wrap(text: string, width = WIDTH, indent = 0): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n\n")) {
    if (lines.length > 0) lines.push("");
    let line = "";
    for (const word of paragraph.split(/\s+/).filter((w) => w !== "")) {
      if (line !== "" && indent + line.length + 1 + word.length > width) {
        lines.push(" ".repeat(indent) + line);
        line = word;
      } else line = line === "" ? word : `${line} ${word}`;
    }
    if (line !== "") lines.push(" ".repeat(indent) + line);
  }
  return lines;
}

/** The flags' lines of a usage text: the flag, then what it does, wrapped beside it. */
function flagLines(flags: readonly FlagDeclaration[]): string[] {
  return flags.flatMap((flag) => entryLines(flagText(flag), flagSays(flag)));
}

/** A flag's or an argument's lines: its name, then what it does, wrapped beside it. */
function entryLines(name: string, says: string): string[] {
  const left = `  ${name}`;
  const column = Math.max(FLAG_COLUMN, left.length + 2);
  const [first = "", ...more] = wrap(says, WIDTH - FLAG_COLUMN);
  return [`${left.padEnd(column)}${first}`, ...more.map((line) => `${" ".repeat(FLAG_COLUMN)}${line}`)];
}

/** The exit codes in one sentence: `0 finished, 1 failed and 3 refused`. */
export function exitCodesText(codes: readonly ExitCode[]): string {
  return `Exit codes: ${codes.map((c) => `${c.code} ${c.means}`).join("; ")}.`;
}

/** The flags under their headings, in the order declared. */
export function flagGroups(command: CommandDeclaration): { heading: string; flags: FlagDeclaration[] }[] {
  const groups: { heading: string; flags: FlagDeclaration[] }[] = [];
  for (const flag of command.flags) {
    const heading =
      flag.group ??
      `${command.flagsHeading ?? "Options"}${command.flagsWhere === undefined ? "" : ` (${command.flagsWhere})`}`;
    const last = groups[groups.length - 1];
    if (last?.heading === heading) last.flags.push(flag);
    else groups.push({ heading, flags: [flag] });
  }
  return groups;
}

/** The text `renyi CMD --help` prints for a command it reads by hand. */
export function usageText(command: CommandDeclaration): string {
  const parts: string[][] = [[`Usage: ${usageLine(command)}`], wrap(command.summary)];
  if (command.description !== undefined) parts.push(wrap(command.description));
  if (command.arguments.length > 0)
    parts.push(["Arguments:", ...command.arguments.flatMap((a) => entryLines(a.name, a.says))]);
  for (const group of flagGroups(command)) parts.push([...wrap(`${group.heading}:`), ...flagLines(group.flags)]);
  if (command.alsoTakes !== undefined) {
    const except = command.alsoTakes.except;
    parts.push(
      wrap(
        `It takes the options of \`${command.program} ${command.alsoTakes.command}\` as well (${command.program} ${command.alsoTakes.command} --help)${except.length === 0 ? "" : `, but ${listed(except)}`}.`,
      ),
    );
  }
  if (command.notes !== undefined) parts.push(wrap(command.notes));
  if (command.exitCodes !== undefined) parts.push(wrap(exitCodesText(command.exitCodes)));
  return `${parts.map((p) => p.join("\n")).join("\n\n")}\n`;
}
