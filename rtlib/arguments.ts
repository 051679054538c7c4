// main's parameters from the program's command line (spec/language.md, section 15):
// `--city Paris`, `--city=Paris`, `--verbose` for a Boolean, and the words
// left over for `arguments: List<Text>`.

export interface MainParameter {
  readonly name: string;
  /** Text, Int, Float or Boolean (the Optional's item for an Optional). */
  readonly type: string;
  readonly optional: boolean;
  readonly hasDefault: boolean;
  readonly words: boolean;
  /** A literal default as written (`3`, `"metric"`), for `--help`; absent when computed. */
  readonly default?: string;
}

/** main's arguments; why they were refused; or `--help` was asked for, and main does not run. */
export type Converted = { ok: true; values: unknown[] } | { ok: false; message: string } | { ok: false; help: true };

export interface Optionals {
  none: unknown;
  some: (value: unknown) => unknown;
}

function convert(type: string, text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  switch (type) {
    case "Text":
      return { ok: true, value: text };
    case "Int":
      if (/^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text))) return { ok: true, value: Number(text) };
      return { ok: false, why: "a whole number, such as 42" };
    case "Float":
      if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return { ok: true, value: Number(text) };
      return { ok: false, why: "a number, such as 21.5" };
    case "Boolean":
      if (text === "true" || text === "false") return { ok: true, value: text === "true" };
      return { ok: false, why: "true or false" };
    default:
      return { ok: false, why: `a value of type ${type}` };
  }
}

const optionName = (name: string) => `--${name.replace(/_/g, "-")}`;

function usage(parameters: readonly MainParameter[]): string {
  if (parameters.length === 0) return "This program takes no options.";
  const left = (p: MainParameter) => (p.words ? "WORDS..." : `${optionName(p.name)} ${p.type.toUpperCase()}`);
  const width = Math.max(18, ...parameters.map((p) => left(p).length)) + 2;
  const right = (p: MainParameter) =>
    p.words
      ? `${p.name}: the words after the options`
      : p.hasDefault
        ? `(optional, default ${p.default ?? "set by the program"})`
        : p.optional
          ? "(optional)"
          : "(required)";
  return parameters.map((p) => `  ${left(p).padEnd(width)}${right(p)}`).join("\n");
}

/**
 * What `--help` after the program's file prints: main's purpose, then its
 * options from main's parameters (a default is main's own: shown as optional).
 */
export function helpText(purpose: string | undefined, parameters: readonly MainParameter[]): string {
  const options = parameters.length === 0 ? usage(parameters) : `Options:\n${usage(parameters)}`;
  return `${purpose === undefined ? "" : `${purpose}\n\n`}${options}\n`;
}

export function convertArguments(
  parameters: readonly MainParameter[],
  argv: readonly string[],
  optionals: Optionals,
): Converted {
  const values: unknown[] = parameters.map(() => undefined);
  const given = new Set<number>();
  const words: string[] = [];
  const byName = (raw: string) =>
    parameters.findIndex((p) => !p.words && (optionName(p.name) === raw || `--${p.name}` === raw));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const raw = eq < 0 ? arg : arg.slice(0, eq);
    const index = byName(raw);
    // `--help` asks for helpText, unless main has a parameter named help, which then has it.
    if (index < 0 && raw === "--help") return { ok: false, help: true };
    if (index < 0) return { ok: false, message: `the program has no option ${raw}\n${usage(parameters)}` };
    const parameter = parameters[index]!;
    let text: string;
    if (eq >= 0) text = arg.slice(eq + 1);
    else if (parameter.type === "Boolean") text = "true";
    else if (i + 1 < argv.length) text = argv[++i]!;
    else
      return {
        ok: false,
        message: `${raw} needs a value: ${convert(parameter.type, "").ok ? "" : (convert(parameter.type, "\u0000") as { why: string }).why}`,
      };
    if (given.has(index)) return { ok: false, message: `${raw} is given twice` };
    const converted = convert(parameter.type, text);
    if (!converted.ok) return { ok: false, message: `${raw} takes ${converted.why}, not ${JSON.stringify(text)}` };
    given.add(index);
    values[index] = parameter.optional ? optionals.some(converted.value) : converted.value;
  }
  const wordsIndex = parameters.findIndex((p) => p.words);
  if (wordsIndex >= 0) {
    values[wordsIndex] = words;
    given.add(wordsIndex);
  } else if (words.length > 0) {
    return {
      ok: false,
      message: `the program takes no words besides its options, but was given ${words.map((w) => JSON.stringify(w)).join(" ")}\n${usage(parameters)}`,
    };
  }
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i]!;
    if (given.has(i)) continue;
    if (p.optional && !p.hasDefault) values[i] = optionals.none;
    else if (!p.hasDefault)
      return { ok: false, message: `the program needs ${optionName(p.name)} (${p.type})\n${usage(parameters)}` };
  }
  return { ok: true, values };
}
