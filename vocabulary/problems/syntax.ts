// The syntax problems (E-SYN-*), a file that cannot be read (E-FILE), and a
// check `renyi mcp` stopped at its limits (E-CHECK-LIMIT).

import { problem } from "./entry.js";

/** A program that has no problem at all, for the rows whose fix is elsewhere. */
const HELLO = `function main()
  needs console
  console.print("hello")
end`;

/**
 * What a construct looks like, shown as the hint of E-SYN-EXPECTED where the
 * parser knows which construct it was reading. The parser names the construct;
 * the words are here. `name` is the name already read (a type's, a var's).
 */
const SYNTAX_GUIDES = {
  use: () => "For example: `use weather`, `use lib.weather`, `use lib.weather as w`.",
  "type-name": () => "For example: `type Forecast is record`.",
  "type-is": (name: string) => `For example: \`type ${name} is record\` or \`type ${name} is variant\`.`,
  "type-kind": (name: string) =>
    `For example: \`type ${name} is record\` and one \`field: Type\` a line, then \`end\`.`,
  field: () => "For example: `temperature: Float`.",
  "json-key": () => 'For example: `wind_speed: Int from json "windspeed"`.',
  case: () => "For example: `Circle(radius: Float)` or `Empty`.",
  "function-name": () => "For example: `function fetch(city: Text) returns Forecast`.",
  "test-name": () => 'For example: `test "the forecast for Berlin is read"`.',
  recording: () => 'For example: `replays "fixtures/weather/berlin.json"`.',
  "recording-part": () =>
    'For example: `replays "fixtures/weather/berlin.json" calls 1 to 3` or `... unused console, time`.',
  otherwise: () =>
    "For example: `let n be text.to_int() otherwise 0`, `... otherwise fail`, or `otherwise` followed by `when` " +
    "arms and `end`.",
  member: () => "For example `forecast.temperature` or `name.upper()`.",
  with: () => "For example: `point with x: 3, y: 4`.",
  "missing-expression": () => "Something is missing before the end of the line.",
  interpolation: () => 'An interpolation holds one expression: "{user.name}".',
  "empty-parentheses": () => "Renyi has no empty tuple; the value that means nothing is `nothing`.",
  "pair-size": () => "For more values, declare a record: `type Triple is record ... end`.",
  map: () => 'A map is written `{"a": 1, "b": 2}`.',
  "if-value": () => 'As a value, `if` is written on one line: `if n > 0 then "positive" else "not positive"`.',
  "if-value-else": () => "For example: `if n > 0 then n else 0`.",
  "query-end": () => "A query ends with `select`: `from x in items where x > 0 select x`.",
  "query-in": () => "For example: `from person in people`.",
  "query-sort": () => "For example: `sort by person.age descending`.",
  "query-group": () => "For example: `group by order.customer into orders`.",
  concurrently: () => "For example: `concurrently at most 4 at a time select fetch(url) otherwise fail`.",
  capability: () =>
    'Capabilities are written like `console`, `network.http("api.example.com")` or `filesystem.read("data")`.',
  scope: () => 'A scope is one literal: `network.http("api.example.com")`, `network.socket(8080)`.',
  budget: () => "A budget is written `at most 60 per minute`; the units are second, minute, hour, day and run.",
  guard: () => 'A guard is written `only to network.http("api.example.com") or console`.',
  pattern: () =>
    'Patterns are literals (`0`, `"a"`), `_`, names, cases (`Some(x)`, `Shape.Circle(radius: r)`), pairs ' +
    "(`(a, b)`) and lists (`[]`, `[first, ...rest]`).",
  "pair-pattern": () => "A pair pattern is written `(a, b)`.",
  "rest-pattern": () => "For example: `[first, ...rest]`.",
  parameters: () => "A function with no parameters is written `function name()`.",
  parameter: () => "For example: `city: Text` or `retries: Int = 3`.",
  purpose: () => "For example: `purpose: Fetch the forecast for a city.`",
  crash: () => 'For example: `crash with "the list was empty"`.',
  let: () => "A binding is written `let name be value`, for example `let total be 0`.",
  var: () => "For example: `var count be 0`.",
  set: (name: string) => `For example: \`set ${name} to ${name} + 1\`.`,
  block: () => "A block starts on the next line and closes with `end`; on one line write `if c then STATEMENT`.",
  "for-each": () => "A loop is written `for each item in items ... end`.",
  "for-in": () => "For example: `for each (key, value) in prices`.",
  "check-fails": () => 'For example: `check parse("x") fails with ParseError(_, _)`.',
  "run-concurrently": () => "Tasks are started with `run concurrently` and a block closed by `end`.",
  "match-arm": () => "A match lists its cases: `when Shape.Circle(r) then r * r`.",
  "otherwise-arm": () => "Handle each failure: `when HttpError.Timeout(_) then default`.",
  "pair-type": () => "A pair type is written `(Text, Int)`.",
  "function-type": () => "For example: `function(Int, Int) returns Int`.",
  type: () => "For example `Int`, `List<Text>`, `Map<Text, Int>`, `(Text, Int)` or `weather.Forecast`.",
  "fails-with": () => "For example: `returns Forecast or fails with AppError`.",
} satisfies Record<string, (name: string) => string>;

export type SyntaxGuide = keyof typeof SYNTAX_GUIDES;

/** The titles of the suggested edits syntax problems offer. */
export const EDIT_TITLES = {
  insert: (text: string) => `Insert \`${text}\``,
  replace: (written: string, by: string) => `Replace \`${written}\` with \`${by}\``,
};

/** What opened the bracket or block an E-SYN-EXPECTED points back to; the related label names it. */
const OPENERS = {
  bracket: "opened here",
  otherwise: "the arms belong to this `otherwise`",
  arguments: "the argument list opens here",
  interpolation: "the interpolation opens here",
  parenthesis: "the parenthesis opens here",
  parameters: "the parameters open here",
  list: "the list opens here",
  map: "the map opens here",
  match: "the `match` starts here",
  function: "the function starts here",
} as const;

export type Opener = keyof typeof OPENERS;

/** Why a file could not be read (E-FILE), as data; `unreadableReason` says it in words. */
export type Unreadable =
  | { reason: "missing" }
  | { reason: "permission" }
  | { reason: "folder" }
  | {
      reason: "not-regular";
      kind: "a FIFO (named pipe)" | "a device" | "a socket" | "a symbolic link" | "something else";
    }
  | { reason: "too-large"; limitMiB: number }
  | { reason: "system"; error: string };

/** The reason a file could not be read, as a clause (`there is no such file`). */
export function unreadableReason(u: Unreadable): string {
  switch (u.reason) {
    case "missing":
      return "there is no such file";
    case "permission":
      return "permission denied";
    case "folder":
      return "it is a folder, not a regular file";
    case "not-regular":
      return u.kind === "something else" ? "it is not a regular file" : `it is ${u.kind}, not a regular file`;
    case "too-large":
      return `it is larger than the ${u.limitMiB.toLocaleString("en")} MiB a file may have here`;
    case "system":
      return u.error;
  }
}

export const SYNTAX_PROBLEMS = {
  "E-FILE": problem<{ path: string } & Unreadable>({
    title: "A file cannot be read",
    facts: {
      path: "the path as it was given",
      reason: "`missing`, `permission`, `folder`, `not-regular`, `too-large` or `system`",
      kind: "for `not-regular`: what the path names instead (a FIFO, a device, a socket, a symbolic link where one is not followed)",
      limitMiB: "for `too-large`: the largest file read, in MiB",
      error: "for `system`: the operating system's error code",
    },
    render: (f) => ({ message: `I cannot read \`${f.path}\`: ${unreadableReason(f)}` }),
    explanation: `The command was given a path that does not lead to a source file it can read: there
is no file there, it may not be read, it is a folder, a FIFO or a device rather than a regular
file, or it is larger than a source file may be (16 MiB). Nothing is checked or run. Check the
path, or the file's permissions.`,
    wrong: "renyi check missing.ry   -- there is no file missing.ry",
    right: "renyi check hello.ry     -- hello.ry is a readable file",
    described: true,
  }),

  "E-SYN-ENCODING": problem<Record<never, never>>({
    title: "A source file is not UTF-8",
    facts: {},
    render: () => ({
      message: "This file is not valid UTF-8",
      label: "the first byte that is not UTF-8",
      notes: ["Renyi source files are UTF-8 text."],
      hint: "Save the file as UTF-8, or check that it is a .ry source file and not a binary.",
    }),
    explanation: `Renyi source files are UTF-8 text. A byte sequence that is not UTF-8 means the file
was saved in another encoding (Latin-1, UTF-16) or is not a source file at all. The position
points at the first byte that is not UTF-8. Save the file as UTF-8.`,
    wrong: 'a .ry file saved as Latin-1 with `"café"` in it (the byte E9 alone)',
    right: "the same file saved as UTF-8 (`é` is the two bytes C3 A9)",
    described: true,
  }),

  "E-SYN-CHARACTER": problem<{ character: string; count: number }>({
    title: "A character that starts no token",
    facts: {
      character: "the first character, as written or as U+XXXX when it cannot be shown",
      count: "how many such characters stand together",
    },
    render: (f) => ({
      message: `I do not know what to do with the character ${f.character}`,
      label: f.count > 1 ? "these characters start no token" : "this character starts no token",
      notes: [
        "Outside a text, Renyi uses ASCII letters, digits, `_`, brackets and the operators " +
          "`+ - * / < <= > >= = => . , :`.",
      ],
      hint: 'Non-ASCII characters belong inside a text: "...".',
    }),
    explanation: `Outside a text, a Renyi program is written in ASCII letters, digits, \`_\`, brackets and
a few operators. Any other character (\`@\`, \`#\`, \`;\`, a non-ASCII letter, a control character)
starts no token. Non-ASCII characters belong inside a text.`,
    wrong: `function main()
  needs console
  console.print("a" @ "b")
end`,
    right: `function main()
  needs console
  console.print("a" + "b")
end`,
  }),

  "E-SYN-NUMBER": problem<
    | { problem: "runs-into-name"; text: string }
    | { problem: "underscore"; text: string }
    | { problem: "too-large"; text: string; type: "Int" | "Float" }
  >({
    title: "A malformed or out-of-range number",
    facts: {
      problem: "`runs-into-name` (`12px`), `underscore` (`1__0`) or `too-large`",
      text: "the number as written",
      type: "for `too-large`: `Int` or `Float`",
    },
    render: (f) => {
      switch (f.problem) {
        case "runs-into-name":
          return {
            message: `\`${f.text}\` is not a number`,
            label: "a number cannot run into letters",
            hint:
              "Numbers are written `42`, `1_000_000`, `21.5` or `1.5e-3`; put a space or an operator between a " +
              "number and a name.",
          };
        case "underscore":
          return {
            message: `\`${f.text}\` is not a number: \`_\` may only stand between two digits`,
            hint: "Group digits like this: `1_000_000`.",
          };
        case "too-large":
          return f.type === "Float"
            ? {
                message: `\`${f.text}\` is too large for a Float`,
                notes: ["A Float is an IEEE double; the largest is about 1.8e308."],
              }
            : {
                message: `\`${f.text}\` is too large for an Int`,
                notes: ["An Int is a whole number from -9_007_199_254_740_991 to 9_007_199_254_740_991 (2^53 - 1)."],
                hint: "Write it as a Float (`1.0e20`) if an approximate value will do.",
              };
      }
    },
    explanation: `A number literal is digits, optionally grouped by single \`_\` between digits, with an
optional fraction and exponent: \`42\`, \`1_000_000\`, \`21.5\`, \`1.5e-3\`. A number that runs into
letters (\`12px\`), an \`_\` that is not between two digits, or a value an Int (up to 2^53 - 1)
or a Float cannot hold is refused rather than read as something else.`,
    wrong: `function main()
  needs console
  let width be 12px
  console.print(width.to_text())
end`,
    right: `function main()
  needs console
  let width be 12
  console.print(width.to_text())
end`,
  }),

  "E-SYN-ESCAPE": problem<
    | { problem: "unknown"; escape: string }
    | { problem: "incomplete-unicode" }
    | { problem: "not-a-character"; hex: string }
  >({
    title: "An unknown or malformed escape in a text",
    facts: {
      problem: "`unknown` (`\\q`), `incomplete-unicode` (`\\u` without braces) or `not-a-character` (`\\u{D800}`)",
      escape: "for `unknown`: the character after the backslash",
      hex: "for `not-a-character`: the hexadecimal digits written",
    },
    render: (f) => {
      switch (f.problem) {
        case "unknown":
          return {
            message: `\`\\${f.escape}\` is not an escape I know`,
            label: "unknown escape",
            hint: 'The escapes are `\\n \\t \\r \\0 \\" \\\\ \\{ \\}` and `\\u{1F600}`; write `\\\\` for a backslash.',
          };
        case "incomplete-unicode":
          return {
            message: "This `\\u` escape is not complete",
            hint: "Write a Unicode character by its hexadecimal number in braces: `\\u{1F600}`.",
          };
        case "not-a-character":
          return {
            message: `\`\\u{${f.hex}}\` is not a Unicode character`,
            notes: ["A character is at most 10FFFF and not a surrogate (D800 to DFFF)."],
          };
      }
    },
    explanation: `Inside a text, a backslash starts an escape: \`\\n \\t \\r \\0 \\" \\\\ \\{ \\}\`, or
\`\\u{...}\` with the hexadecimal number of a Unicode character. Any other character after a
backslash is refused, so that a Windows path or a regular expression is not silently changed:
write \`\\\\\` for a backslash.`,
    wrong: `function main()
  needs console
  console.print("C:\\data")
end`,
    right: `function main()
  needs console
  console.print("C:\\\\data")
end`,
  }),

  "E-SYN-UNCLOSED-TEXT": problem<{ problem: "text"; triple: boolean } | { problem: "interpolation" }>({
    title: "A text or an interpolation is never closed",
    facts: {
      problem: "`text` or `interpolation`",
      triple: 'for `text`: whether it opened with `"""`',
    },
    render: (f) =>
      f.problem === "text"
        ? {
            message: "This text is never closed",
            label: "the text starts here",
            hint: f.triple
              ? 'A `"""` text ends with `"""`.'
              : 'A text ends with `"` on the same line; for a text of several lines write `"""`, and `\\n` for a ' +
                "line break.",
          }
        : {
            message: "This interpolation is never closed",
            label: "the `{` here has no `}`",
            hint:
              'An interpolation holds one expression between `{` and `}`: "{city}". Write `\\{` for a brace in a ' +
              "text.",
          },
    explanation: `A text opened with \`"\` ends with \`"\` on the same line, one opened with \`"""\` ends
with \`"""\`, and an interpolation opened with \`{\` inside a text ends with \`}\`. The line break
(or the end of the file) came first. For a brace in a text, write \`\\{\`.`,
    wrong: `function main()
  needs console
  console.print("hello)
end`,
    right: HELLO,
  }),

  "E-SYN-INTERPOLATION": problem<{ problem: "empty" } | { problem: "not-allowed"; what: string }>({
    title: "An empty interpolation, or one where a plain text is needed",
    facts: {
      problem: '`empty` (`"{}"`) or `not-allowed` (a text that must be plain)',
      what: "for `not-allowed`: what the text is (`the test's name`, `the JSON key`)",
    },
    render: (f) =>
      f.problem === "empty"
        ? {
            message: "This interpolation is empty",
            label: "an expression goes between the braces",
            hint: 'Write `\\{` and `\\}` for braces in a text: "\\{}".',
          }
        : {
            message: `${f.what.charAt(0).toUpperCase()}${f.what.slice(1)} cannot hold an interpolation`,
            label: "an interpolation",
            hint: "Write the text out in full, or write `\\{` for a brace.",
          },
    explanation: `An interpolation \`{...}\` holds one expression whose value is put into the text. An
empty one has nothing to put. Some texts are read before the program runs (a test's name, a
JSON key, a capability's scope) and so must be written out in full, without interpolations.
For a brace in a text, write \`\\{\` and \`\\}\`.`,
    wrong: `function main()
  needs console
  console.print("{}")
end`,
    right: `function main()
  needs console
  console.print("\\{}")
end`,
  }),

  "E-SYN-OPERATOR": problem<{ operator: string; write: string }>({
    title: "An operator of another language",
    facts: { operator: "the operator written (`==`, `!=`, `&&`, `||`, `!`, `%`)", write: "Renyi's word for it" },
    render: (f) => ({
      message: `Renyi has no \`${f.operator}\` operator`,
      label: `write \`${f.write}\` here`,
      hint: "Renyi spells its operators as words: `a is b`, `a is not b`, `a and b`, `a or b`, `not a`, `a mod b`.",
    }),
    explanation: `Renyi spells comparison and logic as words: \`is\` for \`==\`, \`is not\` for \`!=\`,
\`and\`, \`or\`, \`not\`, and \`mod\` for \`%\`. The symbols of other languages are refused, with
the word to write in their place (an editor can make the change).`,
    wrong: `function main()
  needs console
  if 1 + 1 == 2 then console.print("two")
end`,
    right: `function main()
  needs console
  if 1 + 1 is 2 then console.print("two")
end`,
  }),

  "E-SYN-EXPECTED": problem<{
    expected: string;
    found: string;
    guide?: SyntaxGuide;
    name?: string;
    opener?: Opener;
  }>({
    title: "Something else was expected here",
    facts: {
      expected: "what the grammar wanted here, as a phrase (`` `be` after the name ``)",
      found: "what was there instead (`the end of the line`, `` `)` ``, `` the name `x` ``)",
      guide: "the construct being read, when its usual form is worth showing",
      name: "a name already read that the guide's example uses",
      opener: "what opened the bracket or block this belongs to; its place is the related span",
    },
    render: (f) => ({
      message: `I expected ${f.expected}, but found ${f.found}`,
      label: `expected ${f.expected}`,
      ...(f.opener === undefined ? {} : { related: [OPENERS[f.opener]] }),
      ...(f.guide === undefined ? {} : { hint: SYNTAX_GUIDES[f.guide](f.name ?? "Name") }),
    }),
    explanation: `The parser was reading a construct and the next token does not fit it: a word is
missing (\`be\` in \`let\`, \`then\` in a one-line \`if\`), a bracket is not closed, or the line ends
too early. The message says what was expected and what was found; where a bracket was opened
earlier, that place is shown too. When exactly one token is missing, an editor can insert it.`,
    wrong: `function main()
  needs console
  let greeting "hello"
  console.print(greeting)
end`,
    right: `function main()
  needs console
  let greeting be "hello"
  console.print(greeting)
end`,
  }),

  "E-SYN-STATEMENT": problem<{ after: "statement" | "definition"; found: string }>({
    title: "More on a line after a complete statement",
    facts: { after: "`statement` or `definition`: what the line already holds", found: "what follows it on the line" },
    render: (f) =>
      f.after === "statement"
        ? {
            message: `I expected the statement to end here, but found ${f.found}`,
            label: "the statement before this is complete",
            hint: "Put each statement on its own line.",
          }
        : {
            message: `I expected a new line after this definition, but found ${f.found}`,
            label: "expected a new line after this definition",
          },
    explanation: `Each statement, and each definition, stands on its own line. Something follows a
statement that is already complete: often a missing operator (\`a b\` for \`a + b\`) or two
statements written on one line.`,
    wrong: `function main()
  needs console
  let a be 1 2
  console.print(a.to_text())
end`,
    right: `function main()
  needs console
  let a be 12
  console.print(a.to_text())
end`,
  }),

  "E-SYN-KEYWORD": problem<{ keyword: string; expected: string }>({
    title: "A keyword where a name is needed",
    facts: { keyword: "the keyword written", expected: "what the name was to be (`a name for the variable`)" },
    render: (f) => ({
      message: `\`${f.keyword}\` is a keyword, so it cannot be ${f.expected}`,
      label: "a keyword",
      hint:
        `Choose another name, such as \`${f.keyword}_value\`. Keywords may be used as field names and argument ` +
        `labels only.`,
    }),
    explanation: `Words such as \`from\`, \`select\`, \`match\` and \`run\` are keywords: they start
constructs, so they cannot name a local, a parameter or a function. They may still be field
names and argument labels, where a \`:\` follows them. Choose another name.`,
    wrong: `function main()
  needs console
  let from be "Berlin"
  console.print(from)
end`,
    right: `function main()
  needs console
  let origin be "Berlin"
  console.print(origin)
end`,
  }),

  "E-SYN-TOP-LEVEL": problem<{ found: string }>({
    title: "A statement outside a function or test",
    facts: { found: "what stands where a definition should" },
    render: (f) => ({
      message: `I expected a definition: \`use\`, \`type\`, \`function\` or \`test\`, but found ${f.found}`,
      label: "statements belong inside a function or a test",
      hint:
        "A program starts in `function main()`. For example:\n\nfunction main()\n  needs console\n" +
        '  console.print("hello")\nend',
    }),
    explanation: `The top level of a file holds definitions only: \`use\`, \`type\`, \`function\` and
\`test\`. Statements run inside a function; a program starts in \`function main()\`. There are
no global variables: a value every function needs is a function's result or a parameter.`,
    wrong: `let greeting be "hello"

${HELLO}`,
    right: HELLO,
  }),

  "E-SYN-NESTED-DEFINITION": problem<{ definition: string }>({
    title: "A definition inside a block",
    facts: { definition: "the word that starts it: `function`, `type`, `test` or `use`" },
    render: (f) => ({
      message: `A \`${f.definition}\` definition cannot stand inside a block`,
      label: "definitions go at the top level of a file",
      hint:
        f.definition === "function"
          ? "Move the function to the top level, or make it a value: `let double be (x: Int) => x * 2`. A block " +
            "above may also be missing its `end`."
          : "Move it to the top level of the file. A block above may also be missing its `end`.",
    }),
    explanation: `Functions, types and tests are defined at the top level of a file, never inside
another function. A function used in one place only can be a value instead
(\`let double be (x: Int) => x * 2\`). Often this error means a block above lacks its \`end\`.`,
    wrong: `function main()
  needs console
  function double(x: Int) returns Int
    return x * 2
  end
  console.print(double(2).to_text())
end`,
    right: `function double(x: Int) returns Int
  return x * 2
end

function main()
  needs console
  console.print(double(2).to_text())
end`,
  }),

  "E-SYN-UNCLOSED": problem<{ opener: string }>({
    title: "A block still open at the end of the file",
    facts: { opener: "the word that opened the block (`function`, `if`, `type`, ...)" },
    render: (f) =>
      f.opener === "type"
        ? {
            message: "This `type` is never closed",
            label: "this type needs an `end`",
            hint: "Add `end` after the last field or case.",
          }
        : {
            message: `This \`${f.opener}\` is never closed`,
            label: `this \`${f.opener}\` needs an \`end\``,
            notes: ["The file ended while this block was still open."],
            hint:
              "Add `end` where the block finishes. Every `function`, `if`, `for`, `while`, `match`, `test` and " +
              "`type` closes with `end`.",
          },
    explanation: `Every \`function\`, \`if\`, \`for\`, \`while\`, \`match\`, \`test\` and \`type\` closes with
\`end\`. The file ended while the block shown was still open, so an \`end\` is missing, here or
in a block inside it. An editor can add one at the end of the file.`,
    wrong: `function main()
  needs console
  console.print("hello")`,
    right: HELLO,
  }),

  "E-SYN-UNEXPECTED-END": problem<{ word: string; where: "top-level" | "block" }>({
    title: "An `end`, `else` or `when` that closes nothing",
    facts: { word: "`end`, `else` or `when`", where: "`top-level` (between definitions) or `block` (inside one)" },
    render: (f) =>
      f.where === "top-level"
        ? {
            message: "This `end` has nothing to close",
            label: "no open block here",
            hint: "Check the `end`s above: one of them may be one too many, or close a block too early.",
          }
        : {
            message: `This \`${f.word}\` has nothing to close`,
            label: `no open block here takes \`${f.word}\``,
            hint: "Check the `end`s above: one of them may close a block too early.",
          },
    explanation: `An \`end\` closes the innermost open block, \`else\` continues an \`if\` and \`when\`
starts an arm of a \`match\` or an \`otherwise\`. This one has no block to belong to: an \`end\`
above is one too many, or closes its block too early.`,
    wrong: `${HELLO}
end`,
    right: HELLO,
  }),

  "E-SYN-HEADER": problem<{ line: "purpose" | "needs" }>({
    title: "A second `purpose:` or `needs` line",
    facts: { line: "`purpose` or `needs`" },
    render: (f) => ({
      message: `This function already has a \`${f.line}\` line`,
      hint:
        f.line === "needs"
          ? "List every capability in one `needs` line, separated by commas."
          : "Write the purpose on one line.",
    }),
    explanation: `A function's \`purpose:\` and \`needs\` lines each come once, right after its
signature, so that a reviewer finds everything the function may do in one place. List every
capability in one \`needs\` line, separated by commas.`,
    wrong: `function main()
  needs console
  needs time
  console.print(time.to_iso(time.now()))
end`,
    right: `function main()
  needs console, time
  console.print(time.to_iso(time.now()))
end`,
  }),

  "E-SYN-PURPOSE": problem<Record<never, never>>({
    title: "An empty `purpose:`",
    facts: {},
    render: () => ({
      message: "This `purpose:` says nothing",
      label: "a sentence goes here",
      hint: "Say what the definition is for: `purpose: Fetch the forecast for a city.`",
    }),
    explanation: `A \`purpose:\` line is the sentence a reviewer (and \`renyi run --help\`) reads about a
definition. An empty one says nothing: write what the definition is for, or leave the line out.`,
    wrong: `function main()
  purpose:
  needs console
  console.print("hello")
end`,
    right: `function main()
  purpose: Greet the world.
  needs console
  console.print("hello")
end`,
  }),

  "E-SYN-BUDGET": problem<{ problem: "after-guard" } | { problem: "count" | "unit"; found: string }>({
    title: "A malformed budget",
    facts: {
      problem: "`after-guard` (a budget after `only to`), `count` (not a whole number) or `unit` (not a unit)",
      found: "for `count` and `unit`: what stands there",
    },
    render: (f) => {
      const example = "A budget is written `at most 60 per minute`; the units are second, minute, hour, day and run.";
      switch (f.problem) {
        case "after-guard":
          return {
            message: "A budget comes before `only to`",
            label: "move this budget before `only to`",
            hint: 'For example: `network.http("api.example.com") at most 5 per second only to console`.',
          };
        case "count":
          return {
            message: `I expected a whole number: a budget's count is a number literal, but found ${f.found}`,
            label: "expected a whole number: a budget's count is a number literal",
            notes: ["The count is written out so that a reviewer reads it in the signature."],
            hint: example,
          };
        case "unit":
          return {
            message: `I expected a unit: second, minute, hour, day or run, but found ${f.found}`,
            label: "expected a unit: second, minute, hour, day or run",
            hint: example,
          };
      }
    },
    explanation: `A budget bounds how often a capability may be used: \`at most 60 per minute\`. The
count is a whole number written out, so that a reviewer reads it in the signature, the unit is
one of second, minute, hour, day and run, and the budget comes before any \`only to\` guard.`,
    wrong: `function main()
  needs console, network.http("api.example.com") at most many per minute
  console.print("hello")
end`,
    right: `function main()
  needs console, network.http("api.example.com") at most 60 per minute
  console.print("hello")
end`,
  }),

  "E-SYN-TYPE": problem<{ name: string; path: string }>({
    title: "A type name that is not capitalised",
    facts: { name: "the last part of the path, as written", path: "the whole path, as written" },
    render: (f) => ({
      message: `\`${f.name}\` is not a type name`,
      label: "type names start with a capital letter",
      hint: "For example `Int`, `Text`, `List<Int>`, or a type from a module: `weather.Forecast`.",
    }),
    explanation: `Type names start with a capital letter (\`Int\`, \`List<Text>\`, \`weather.Forecast\`),
and the names of values and modules with a small one, so that a reader tells them apart at a
glance. An editor can capitalise the name.`,
    wrong: `function count(items: list<Int>) returns Int
  return items.length()
end`,
    right: `function count(items: List<Int>) returns Int
  return items.length()
end`,
  }),

  "E-SYN-PATTERN": problem<{ problem: "interpolation" } | { problem: "not-a-case"; path: string }>({
    title: "A malformed pattern",
    facts: {
      problem: "`interpolation` (a text pattern with `{...}`) or `not-a-case` (a dotted path ending in a small letter)",
      path: "for `not-a-case`: the path as written",
    },
    render: (f) =>
      f.problem === "interpolation"
        ? {
            message: "A text in a pattern cannot hold an interpolation",
            hint: "Match the text exactly, or bind it to a name and compare it with `is`.",
          }
        : {
            message: `\`${f.path}\` is not a case`,
            label: "a case name starts with a capital letter",
            hint: "Match a variant case such as `Shape.Circle(r)`, or bind the value to a plain name.",
          },
    explanation: `A pattern is a literal, \`_\`, a name, a case (\`Shape.Circle(r)\`), a pair or a list.
A text in a pattern is matched exactly, so it cannot hold an interpolation; a dotted path in a
pattern names a case, whose name is capitalised.`,
    wrong: `function describe(name: Text) returns Text
  let other be "b"
  match name
    when "{other}" then return "the other"
    when _ then return name
  end
end`,
    right: `function describe(name: Text) returns Text
  let other be "b"
  if name is other then return "the other"
  return name
end`,
  }),

  "E-SYN-CHAIN": problem<{ operator: string; kind: "comparison" | "range" }>({
    title: "A comparison or a range chained",
    facts: { operator: "the second operator", kind: "`comparison` or `range`" },
    render: (f) => ({
      message: `\`${f.operator}\` cannot follow another ${f.kind} directly`,
      label: "a second operator of the same kind",
      hint:
        f.kind === "comparison"
          ? "Comparisons do not chain: write `a < b and b < c`."
          : "Put the range in parentheses: `(1 to 3)`.",
    }),
    explanation: `\`1 < x < 3\` reads as a range check in mathematics, but in most languages it compares
a Bool with 3. Renyi refuses the chain: write \`1 < x and x < 3\`. Two ranges in a row are
refused for the same reason.`,
    wrong: `function between(x: Int) returns Boolean
  return 1 < x < 3
end`,
    right: `function between(x: Int) returns Boolean
  return 1 < x and x < 3
end`,
  }),

  "E-SYN-ARGUMENT-ORDER": problem<Record<never, never>>({
    title: "A positional argument after a named one",
    facts: {},
    render: () => ({
      message: "A positional argument cannot follow a named one",
      label: "positional, after a named argument",
      hint: 'Give positional arguments first, then named ones: `fetch("Berlin", retries: 3)`.',
    }),
    explanation: `In a call, positional arguments come first and named ones after them, so that each
positional argument's place is plain to see. Move the positional argument before the named ones,
or name it too.`,
    wrong: `function area(width: Int, height: Int) returns Int
  return width * height
end

function main()
  needs console
  console.print(area(width: 2, 3).to_text())
end`,
    right: `function area(width: Int, height: Int) returns Int
  return width * height
end

function main()
  needs console
  console.print(area(width: 2, height: 3).to_text())
end`,
  }),

  "E-SYN-SET-TARGET": problem<{ name: string }>({
    title: "`set` on a field or an item",
    facts: { name: "the `var` whose field or item was to be set" },
    render: (f) => ({
      message: "`set` changes a local `var`, not a field or an item",
      label: "only a plain name may follow `set`",
      hint: `Values do not change in place; build a new one: \`set ${f.name} to ${f.name} with field: value\`.`,
    }),
    explanation: `Values in Renyi never change in place: a record, a list or a map is the same value
wherever it was passed. \`set\` gives a local \`var\` a new value; to change a field, build a new
record with \`with\` and set the variable to it.`,
    wrong: `type Point is record
  x: Int
  y: Int
end

function moved(p: Point) returns Point
  var q be p
  set q.x to 3
  return q
end`,
    right: `type Point is record
  x: Int
  y: Int
end

function moved(p: Point) returns Point
  var q be p
  set q to q with x: 3
  return q
end`,
  }),

  "E-SYN-QUERY-OPERAND": problem<Record<never, never>>({
    title: "A query used as an operand without parentheses",
    facts: {},
    render: () => ({
      message: "A query used as an operand must be in parentheses",
      label: "this query is an operand",
      hint: "Write `(from x in items select x) + more`, or give the query a name with `let`.",
    }),
    explanation: `A query runs to the end of its \`select\`, so where one stands as the operand of an
operator it is unclear where it ends. Put it in parentheses, or give it a name with \`let\`.`,
    wrong: `function doubled(xs: List<Int>) returns List<Int>
  return [0] + from x in xs select x * 2
end`,
    right: `function doubled(xs: List<Int>) returns List<Int>
  return [0] + (from x in xs select x * 2)
end`,
  }),

  "E-SYN-TOO-DEEP": problem<{ limit: number }>({
    title: "Nesting past the limit",
    facts: { limit: "how many levels expressions, blocks, types and patterns may nest" },
    render: (f) => ({
      message: `This is nested more than ${f.limit} levels deep`,
      label: "too deep here",
      notes: [
        `Expressions, blocks, types and patterns may nest at most ${f.limit} levels; a chain of operators counts ` +
          `one level per operator.`,
      ],
      hint: "Give the inner parts names with `let`, or move them into functions.",
    }),
    explanation: `Expressions, blocks, types and patterns may nest at most 128 levels, so that no
program can make the compiler (or the program it makes) run out of stack. Reading stops at the
first place past the limit. Name the inner parts with \`let\`, or move them into functions.`,
    wrong: `function main()
  needs console
  console.print(${"(".repeat(200)}1${")".repeat(200)}.to_text())
end`,
    right: `function main()
  needs console
  let inner be (((1)))
  console.print(((inner)).to_text())
end`,
  }),

  "E-SYN-TOO-MANY": problem<{ limit: number }>({
    title: "Too many syntax errors in one file",
    facts: { limit: "how many syntax errors a file may have before checking it stops" },
    render: (f) => ({
      message: `Stopped after ${f.limit} syntax errors in this file`,
      notes: ["Fix the first ones and check again; later errors are often caused by earlier ones."],
    }),
    explanation: `Checking a file stops after its 100th syntax error: past that point the file is
most likely not a Renyi program at all (a binary file, a file in another language), and later
errors are usually echoes of earlier ones. Fix the first errors and check again.`,
    wrong: `function main()
${"  let a be )\n".repeat(120)}end`,
    right: HELLO,
  }),

  "E-CHECK-LIMIT": problem<{
    limit: "time" | "memory" | "answer";
    seconds?: number;
    mib?: number;
    characters?: number;
  }>({
    title: "The check of a program sent to `renyi mcp` was stopped at a limit",
    facts: {
      limit: "`time`, `memory`, or `answer` (the diagnostics were too long to send)",
      seconds: "for `time`: the time limit, in seconds (`renyi mcp --check-timeout`)",
      mib: "for `memory`: the heap limit, in MiB (`renyi mcp --check-memory`)",
      characters: "for `answer`: the most characters of JSON an answer may take",
    },
    render: (f) => ({
      message:
        f.limit === "time"
          ? `renyi mcp stopped checking the program after ${f.seconds ?? 0} seconds, its time limit (renyi mcp ` +
            `--check-timeout SECONDS allows more)`
          : f.limit === "memory"
            ? `renyi mcp stopped checking the program when it used ${f.mib ?? 0} MiB of memory, its limit (renyi ` +
              `mcp --check-memory MIB allows more)`
            : `renyi mcp did not send the program's diagnostics: they take more than ` +
              `${(f.characters ?? 0).toLocaleString("en")} characters`,
    }),
    explanation: `\`renyi mcp\` checks each program a client sends (and explains a code, and reads a
recording) in a worker thread of its own, under a time limit (10 seconds) and a memory limit
(512 MiB), so that one request cannot keep the server from answering the others. A program whose
check would take longer or more is stopped there, its thread ended, and the call ends with this
error; the next call is served as usual. The usual cause is a program written to make the
checker's work grow: a type that doubles with each line, a text of types too large to print.
Write the program plainly, or, if it is an honest program that needs more, start the server with
\`--check-timeout SECONDS\` or \`--check-memory MIB\`.`,
    wrong: `function main()
  needs console
  let a0 be 1
  let a1 be (a0, a0)
  -- ... each line a pair of the one before, to a25
  console.print(a25 + 1)
end
-- sent to renyi mcp's check tool`,
    right: `function main()
  needs console
  console.print((1 + 1).to_text())
end`,
    // It takes a server started with its limits, and a program whose check reaches them.
    described: true,
  }),
};
