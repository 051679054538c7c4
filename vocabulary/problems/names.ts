// The name problems (E-NAME-*): a name that is unknown, declared twice, shadowed, or not public.

import { article, problem } from "./entry.js";

/** `Did you mean ...?`, when the checker found a name close to the one written. */
function didYouMean(suggestion: string | undefined): { hint?: string } {
  return suggestion === undefined ? {} : { hint: `Did you mean \`${suggestion}\`?` };
}

/** `` `a`, `b` `` */
function listed(names: readonly string[]): string {
  return names.map((n) => `\`${n}\``).join(", ");
}

const suggestionFact = "a declared name close to the one written, when there is one (an editor can put it in)";

export const NAME_PROBLEMS = {
  "E-NAME-UNKNOWN": problem<
    | { problem: "value"; name: string; variant?: string; suggestion?: string }
    | { problem: "constructor"; name: string; variant?: string; suggestion?: string }
    | { problem: "set"; name: string }
  >({
    title: "A name that nothing declares",
    facts: {
      problem:
        "`value` (a name used as a value), `constructor` (a capitalised name called) or `set` (the target of `set`)",
      name: "the name as written",
      variant: "the variant that has a case of this name, when one does",
      suggestion: suggestionFact,
    },
    render: (f) => {
      switch (f.problem) {
        case "set":
          return {
            message: `There is no local named \`${f.name}\` to set`,
            label: "unknown name",
            hint: `Declare it first: \`var ${f.name} be ...\`.`,
          };
        case "value":
          return {
            message: `There is nothing named \`${f.name}\` here`,
            label: "unknown name",
            ...(f.variant !== undefined
              ? { hint: `Cases are written with their type: \`${f.variant}.${f.name}\`.` }
              : didYouMean(f.suggestion)),
          };
        case "constructor":
          return {
            message: `There is no record or case named \`${f.name}\` here`,
            label: "unknown name",
            ...(f.variant !== undefined
              ? { hint: `Cases are written with their type: \`${f.variant}.${f.name}(...)\`.` }
              : f.name === "Pair"
                ? { hint: 'A pair is written in parentheses: `(1, "one")` is a `Pair<Int, Text>`.' }
                : didYouMean(f.suggestion)),
          };
      }
    },
    explanation: `The name is not a local, a parameter, a function of this module, a type or a case
here. Often it is misspelt (the hint names the closest declared name, and an editor can put it
in), declared in a block that has ended, or a case written without its type (\`Circle\` for
\`Shape.Circle\`). Renyi has no global names besides the library's modules: \`eval\`,
\`require\` and \`globalThis\` do not exist.`,
    wrong: `function total(prices: List<Int>) returns Int
  var sum be 0
  for each price in prices
    set sum to sum + price
  end
  return summ
end`,
    right: `function total(prices: List<Int>) returns Int
  var sum be 0
  for each price in prices
    set sum to sum + price
  end
  return sum
end`,
  }),

  "E-NAME-UNKNOWN-TYPE": problem<{ name: string; module?: string; suggestion?: string }>({
    title: "A type that nothing declares",
    facts: {
      name: "the type's name as written",
      module: "the module it was looked up in, when the path names one",
      suggestion: suggestionFact,
    },
    render: (f) => ({
      message:
        f.module === undefined
          ? `There is no type named \`${f.name}\``
          : `The module \`${f.module}\` has no type \`${f.name}\``,
      label: "unknown type",
      ...didYouMean(f.suggestion),
    }),
    explanation: `A type is one of the language's (\`Int\`, \`Text\`, \`List<T>\`, ...), one declared with
\`type\` in this module, or a public type of a module brought in with \`use\` and written with
its module's name (\`weather.Forecast\`). Check the spelling: the hint names the closest type.`,
    wrong: `function names(items: List<Strin>) returns Int
  return items.length()
end`,
    right: `function names(items: List<Text>) returns Int
  return items.length()
end`,
  }),

  "E-NAME-UNKNOWN-FIELD": problem<
    | { problem: "no-such-field"; type: string; field: string; fields: readonly string[]; suggestion?: string }
    | { problem: "not-a-record"; type: string; field: string }
  >({
    title: "A field the record does not have",
    facts: {
      problem: "`no-such-field` (a record or case without it) or `not-a-record` (a value that has no fields at all)",
      type: "the record's or case's name, or the value's type",
      field: "the field as written",
      fields: "the fields the record or case has",
      suggestion: suggestionFact,
    },
    render: (f) =>
      f.problem === "not-a-record"
        ? {
            message: `${article(f.type)} has no fields, so it has no \`${f.field}\``,
            label: "not a record",
            hint: `To call a function on it, add parentheses: \`.${f.field}()\`.`,
          }
        : {
            message: `${f.type} has no field \`${f.field}\``,
            label: "unknown field",
            notes: [
              f.fields.length === 0 ? `${f.type} has no fields.` : `The fields of ${f.type} are ${listed(f.fields)}.`,
            ],
            ...didYouMean(f.suggestion),
          },
    explanation: `A record has the fields its \`type\` declares, no others: reading, updating with
\`with\`, or matching a field it lacks is refused. The note lists the fields it has. A value that
is not a record (a Text, a List) has no fields at all; its functions are called with
parentheses: \`name.length()\`.`,
    wrong: `type Point is record
  x: Int
  y: Int
end

function height(p: Point) returns Int
  return p.z
end`,
    right: `type Point is record
  x: Int
  y: Int
end

function height(p: Point) returns Int
  return p.y
end`,
  }),

  "E-NAME-UNKNOWN-CASE": problem<
    | { problem: "no-such-case"; type: string; name: string; cases?: readonly string[]; suggestion?: string }
    | { problem: "bare"; name: string; variant?: string; cases?: readonly string[] }
    | { problem: "no-variant"; path: string }
  >({
    title: "A case the variant does not have",
    facts: {
      problem:
        "`no-such-case` (`Shape.Square`), `bare` (a capitalised name in a pattern that is no case or record) or " +
        "`no-variant` (a path that names no variant)",
      type: "the type the case was looked up in",
      name: "the case as written",
      cases: "the cases the variant has",
      variant: "for `bare`: the variant being matched, when it is one",
      path: "for `no-variant`: the path before the case, as written",
      suggestion: suggestionFact,
    },
    render: (f) => {
      switch (f.problem) {
        case "no-such-case":
          return {
            message: `${f.type} has no case \`${f.name}\``,
            label: "unknown case",
            ...(f.cases === undefined ? {} : { notes: [`The cases of ${f.type} are ${listed(f.cases)}.`] }),
            ...didYouMean(f.suggestion),
          };
        case "bare":
          return {
            message: `There is no case or record named \`${f.name}\``,
            label: "unknown case",
            ...(f.variant === undefined || f.cases === undefined
              ? {}
              : { hint: `The cases of ${f.variant} are ${listed(f.cases.map((c) => `${f.variant}.${c}`))}.` }),
          };
        case "no-variant":
          return { message: `There is no variant \`${f.path}\``, label: "unknown variant" };
      }
    },
    explanation: `A variant has the cases its \`type\` declares. A case is written with its type
(\`Shape.Circle\`), or alone in a pattern matching a value of that variant. The note lists the
cases there are; the hint names the closest one, which an editor can put in.`,
    wrong: `type Shape is variant
  Circle(radius: Float)
  Empty
end

function nothing_to_draw() returns Shape
  return Shape.Blank
end`,
    right: `type Shape is variant
  Circle(radius: Float)
  Empty
end

function nothing_to_draw() returns Shape
  return Shape.Empty
end`,
  }),

  "E-NAME-UNKNOWN-FUNCTION": problem<
    | { problem: "module"; module: string; name: string; suggestion?: string }
    | { problem: "method"; type: string; name: string; module?: string; suggestion?: string }
  >({
    title: "A function the module, or the value's type, does not have",
    facts: {
      problem: "`module` (`text.capitalise(...)`) or `method` (`name.uppercase()`)",
      module: "the module looked in (for a method: the module of the value's type, when it has one)",
      type: "for `method`: the value's type",
      name: "the function as written",
      suggestion: suggestionFact,
    },
    render: (f) =>
      f.problem === "module"
        ? {
            message: `The module \`${f.module}\` has no function \`${f.name}\``,
            label: "unknown function",
            ...didYouMean(f.suggestion),
          }
        : {
            message: `${article(f.type)} has no function \`${f.name}\``,
            label: "unknown method",
            ...(f.module !== undefined
              ? {
                  notes: [`Methods of ${f.type} are the functions of the \`${f.module}\` module.`],
                  ...didYouMean(f.suggestion),
                }
              : {
                  notes: [
                    `A value's methods come from the module of its type; ${f.type} has none besides \`to_text\` ` +
                      `and \`to_json\`.`,
                  ],
                }),
          },
    explanation: `\`module.name(...)\` calls a public function of a module, and \`value.name(...)\` a
function of the module of the value's type (\`"a".upper()\` is \`text.upper("a")\`). The module
has no function of this name: check the spelling (the hint names the closest) or the library
reference.`,
    wrong: `function shout(name: Text) returns Text
  return name.uppercase()
end`,
    right: `function shout(name: Text) returns Text
  return name.upper()
end`,
  }),

  "E-NAME-MODULE": problem<
    | { problem: "no-file"; module: string; file: string }
    | { problem: "itself" }
    | { problem: "not-used"; module: string }
  >({
    title: "A module that is not there, or not brought in",
    facts: {
      problem:
        "`no-file` (a `use` of a file that does not exist), `itself` (a module that uses itself) or `not-used` " +
        "(a module named without a `use`)",
      module: "the module as written",
      file: "for `no-file`: the file `use` reads, without `.ry`",
    },
    render: (f) => {
      switch (f.problem) {
        case "no-file":
          return {
            message: `There is no module \`${f.module}\``,
            label: "no such module",
            notes: [`\`use ${f.module}\` reads the file \`${f.file}.ry\` beside this one.`],
          };
        case "itself":
          return { message: "A module cannot use itself", label: "this is the module's own file" };
        case "not-used":
          return {
            message: `There is no module \`${f.module}\` here`,
            label: "unknown module",
            hint: `Bring it in at the top of the file: \`use ${f.module}\`.`,
          };
      }
    },
    explanation: `\`use weather\` reads \`weather.ry\` beside the file, and \`use lib.weather\` reads
\`lib/weather.ry\`. A module's types and functions are named through it (\`weather.Forecast\`)
only after its \`use\`. The file must exist, and a module cannot use itself.`,
    wrong: `use missing_module

${'function main()\n  needs console\n  console.print("hello")\nend'}`,
    right: `function main()
  needs console
  console.print("hello")
end`,
  }),

  "E-NAME-MODULE-VALUE": problem<{ name: string; usedAs: "function" | "value" }>({
    title: "A module used as a value",
    facts: { name: "the module's name", usedAs: "`function` (called) or `value`" },
    render: (f) =>
      f.usedAs === "function"
        ? {
            message: `\`${f.name}\` is a module, not a function`,
            hint: `Call one of its functions: \`${f.name}.something(...)\`.`,
          }
        : {
            message: `\`${f.name}\` is a module, not a value`,
            hint: `Use one of its functions: \`${f.name}.something(...)\`.`,
          },
    explanation: `A module (\`list\`, \`text\`, or one brought in with \`use\`) is a namespace, not a
value: it cannot be bound, passed or called. Name one of its functions instead:
\`list.sort(items)\`, or \`list.sort\` as a function value.`,
    wrong: `function main()
  needs console
  let m be list
  console.print("hello")
end`,
    right: `function main()
  needs console
  let sorted be list.sort([3, 1, 2])
  console.print(sorted.length().to_text())
end`,
  }),

  "E-NAME-PRIVATE": problem<{ kind: "function" | "type"; name: string; module: string }>({
    title: "A definition of another module that is not public",
    facts: {
      kind: "`function` or `type`",
      name: "the definition's name",
      module: "the module it belongs to, as written",
    },
    render: (f) => ({
      message: `The ${f.kind} \`${f.name}\` of \`${f.module}\` is not public`,
      label: "private to its module",
      hint:
        f.kind === "function"
          ? `Mark it \`public function ${f.name}\` in \`${f.module}\` (with a \`purpose:\` line) to call it from here.`
          : `Mark it \`public type ${f.name}\` in \`${f.module}\` to use it here.`,
    }),
    explanation: `A module's functions and types are its own unless marked \`public\`; only public ones
may be used from another module. This keeps what a module offers small and deliberate: mark the
definition \`public\` (a public function also says its \`purpose:\`) if other modules need it.`,
    wrong: `-- lib/secret.ry
function key() returns Int
  return 42
end

-- main.ry
use lib.secret

function answer() returns Int
  return secret.key()
end`,
    right: `-- lib/secret.ry
public function key() returns Int
  purpose: The answer.
  return 42
end

-- main.ry
use lib.secret

function answer() returns Int
  return secret.key()
end`,
    described: true,
  }),

  "E-NAME-DUPLICATE": problem<
    | { problem: "type"; name: string; library: boolean }
    | { problem: "use"; name: string; path: string; takenBy: "library" | "use" }
    | { problem: "function" | "module-name" | "field" | "case" | "parameter"; name: string }
  >({
    title: "Two definitions, fields, cases or parameters of one name",
    facts: {
      problem:
        "what is declared twice: `type`, `use`, `function`, `module-name` (a function named like a module), " +
        "`field`, `case` or `parameter`",
      name: "the name declared twice",
      library: "for `type`: whether the first is a type of the standard library",
      path: "for `use`: the module's path",
      takenBy: "for `use`: what already has the name, `library` (a library module) or `use`",
    },
    render: (f) => {
      switch (f.problem) {
        case "type":
          return {
            message: `There is already a type named \`${f.name}\``,
            label: "a second type of this name",
            ...(f.library ? { notes: [`\`${f.name}\` is a type of the standard library, in scope everywhere.`] } : {}),
            hint: "Give this type another name.",
          };
        case "use":
          return {
            message:
              `The name \`${f.name}\` is already taken by ` +
              `${f.takenBy === "library" ? "a library module" : "another `use`"}`,
            hint: `Bring it in under another name: \`use ${f.path} as ${f.name}_module\`.`,
          };
        case "function":
          return {
            message: `There is already a function named \`${f.name}\` in this module`,
            label: "a second definition",
            hint: "Give one of them another name.",
          };
        case "module-name":
          return {
            message: `\`${f.name}\` is already the name of a module`,
            label: "this name is taken",
            hint:
              `Give the function another name, such as \`${f.name}_of\`; \`${f.name}.something(...)\` would be ` +
              `ambiguous.`,
          };
        case "field":
        case "case":
        case "parameter":
          return {
            message: `The ${f.problem} \`${f.name}\` is declared twice`,
            hint: `Give each ${f.problem} its own name.`,
          };
      }
    },
    explanation: `Within a module each type, function and \`use\` has its own name, and within a
definition each field, case and parameter; the standard library's types and modules are in scope
everywhere and count too. Otherwise a reader (and the compiler) could not tell which one a name
means. Rename one of them.`,
    wrong: `type Response is record
  status: Int
end

function main()
  needs console
  console.print("hello")
end`,
    right: `type Reply is record
  status: Int
end

function main()
  needs console
  console.print("hello")
end`,
  }),

  "E-NAME-SHADOWED": problem<{ name: string; where: "function" | "tasks" }>({
    title: "A local bound again in the same function",
    facts: {
      name: "the name bound twice",
      where: "`function` (again in one function) or `tasks` (by two tasks of one `run concurrently`)",
    },
    render: (f) => ({
      message:
        f.where === "function"
          ? `\`${f.name}\` is already a local name here`
          : `\`${f.name}\` is already bound by another task of this \`run concurrently\``,
      label: "a second binding of the same name",
      related: ["first bound here"],
      notes: [
        f.where === "function"
          ? "Within a function each name is bound once, so that a reader always knows which value a name means."
          : "The names tasks bind are in scope after `end`, so each task binds names of its own.",
      ],
      hint: `Choose another name, such as \`${f.name}_2\` or one that says what this value is.`,
    }),
    explanation: `Within a function each name is bound once: a \`let\` may not hide a parameter or an
earlier local, so that a reader always knows which value a name means. The tasks of one \`run
concurrently\` bind names that are all in scope after its \`end\`, so they too must differ. Choose
a name that says what the new value is.`,
    wrong: `function cost(count: Int) returns Int
  let count be count * 2
  return count
end`,
    right: `function cost(count: Int) returns Int
  let doubled be count * 2
  return doubled
end`,
  }),

  "E-NAME-KEYWORD": problem<{ name: string; what: "function" | "parameter" }>({
    title: "A function or parameter named by a keyword",
    facts: { name: "the keyword used as a name", what: "`function` or `parameter`" },
    render: (f) =>
      f.what === "function"
        ? {
            message: `\`${f.name}\` is a keyword, so a function of that name could not be called`,
            label: "a keyword",
            hint: `Choose another name, such as \`${f.name}_all\` or one that says what it does.`,
          }
        : {
            message: `\`${f.name}\` is a keyword, so the function could never use this parameter`,
            label: "a keyword",
            hint: `Choose another name, such as \`${f.name}_value\`.`,
          },
    explanation: `A keyword may stand where a label is read (a field, an argument label), but a
function or a parameter named by one could never be used: \`run()\` starts \`run concurrently\`,
and \`as\` in an expression is not a name. Choose another name.`,
    wrong: `function run() returns Int
  return 1
end`,
    right: `function run_all() returns Int
  return 1
end`,
  }),

  "E-NAME-NOT-VAR": problem<{ name: string }>({
    title: "`set` on a `let`",
    facts: { name: "the local bound with `let`" },
    render: (f) => ({
      message: `\`${f.name}\` is bound with \`let\`, so it cannot be set`,
      label: "not a var",
      related: ["bound here"],
      hint: `Declare it with \`var ${f.name} be ...\` if it has to change.`,
    }),
    explanation: `A \`let\` binds a name to one value for good; only a \`var\` may be given a new value
with \`set\`. Declare the local with \`var\` if it has to change, or bind the new value to a new
name.`,
    wrong: `function count() returns Int
  let n be 0
  set n to n + 1
  return n
end`,
    right: `function count() returns Int
  var n be 0
  set n to n + 1
  return n
end`,
  }),

  "E-NAME-VAR-CAPTURED": problem<{ name: string; inside: "function-value" | "tasks" }>({
    title: "A `var` used in a function value or a concurrent task",
    facts: {
      name: "the `var`",
      inside: "`function-value` (a lambda or `function` value) or `tasks` (`run concurrently`)",
    },
    render: (f) =>
      f.inside === "function-value"
        ? {
            message: `The \`var\` \`${f.name}\` cannot be used inside a function value`,
            label: "a var of the enclosing function",
            related: ["declared here"],
            notes: ["A `var` is local to its function; functions and tasks share no mutable state."],
            hint: `Pass the value in as an argument, or bind it first: \`let ${f.name}_now be ${f.name}\`.`,
          }
        : {
            message: `The \`var\` \`${f.name}\` cannot be used inside \`run concurrently\``,
            label: "a var shared between tasks",
            related: ["declared here"],
            notes: ["Concurrent tasks share no mutable state."],
            hint: `Bind its value before the tasks start: \`let ${f.name}_now be ${f.name}\`.`,
          },
    explanation: `A \`var\` belongs to the function that declares it. A function value may outlive the
call, and concurrent tasks run side by side, so neither may read or set it: they would share
mutable state. Bind its current value with \`let\` first and use that.`,
    wrong: `function add_all(items: List<Int>) returns List<Int>
  var total be 0
  let add be (x: Int) => x + total
  return items.map(add)
end`,
    right: `function add_all(items: List<Int>) returns List<Int>
  var total be 0
  let total_now be total
  let add be (x: Int) => x + total_now
  return items.map(add)
end`,
  }),
};
