// The type problems (E-TYPE-*).

import { article, plural, problem, type Rendered } from "./entry.js";

const count = (n: number): string => n.toLocaleString("en-US");

/** The derived abilities (language.md section 6). */
export type Ability = "equality" | "compare" | "hash" | "to_text" | "to_json" | "from_json";

/** How the label under a span says a type lacks the ability. */
const ABILITY_LACK: Readonly<Record<Ability, string>> = {
  equality: "has no equality",
  compare: "has no order",
  hash: "has no hash",
  to_text: "has no text form",
  to_json: "has no JSON form",
  from_json: "cannot be read from JSON",
};

/** What a use of the ability does to a value: `X cannot be ...`. */
const ABILITY_USE: Readonly<Record<Ability, string>> = {
  equality: "compared with `is`",
  compare: "ordered (with `<`, `sort by`, `min` or `max`)",
  hash: "used as a map key, a set item, a group key or with `distinct`",
  to_text: "written as text",
  to_json: "encoded as JSON",
  from_json: "decoded from JSON",
};

/** Why a type lacks an ability: it is (or holds) a function, or a map, a set or Json (which have no order). */
export type Lacking = "function" | "unordered";

const LACKING_NOTE: Readonly<Record<Lacking, string>> = {
  function: "Functions have no equality, order, hash, text or JSON form.",
  unordered: "Maps, sets and Json have no order.",
};

/** Where a value of the wrong type stands: what the checker expected a type of. */
export type ValuePlace =
  | { readonly of: "receiver"; readonly method: string }
  | { readonly of: "type argument" }
  | { readonly of: "argument"; readonly parameter: string; readonly callee: string }
  | { readonly of: "default"; readonly parameter: string }
  | { readonly of: "failure" }
  | { readonly of: "value" }
  | { readonly of: "crash message" }
  | { readonly of: "new value"; readonly local: string }
  | { readonly of: "returned value" }
  | { readonly of: "else branch" }
  | { readonly of: "condition"; readonly statement: "if" | "while" | "where" }
  | { readonly of: "checked" }
  | { readonly of: "operand"; readonly operator: "not" | "and" | "or"; readonly side?: "left" | "right" }
  | { readonly of: "list index" }
  | { readonly of: "field"; readonly field: string }
  | { readonly of: "range"; readonly end: "start" | "end" }
  | { readonly of: "list item" }
  | { readonly of: "map key" }
  | { readonly of: "map value" }
  | { readonly of: "parameter"; readonly parameter: string }
  | { readonly of: "function value" }
  | { readonly of: "otherwise value" }
  | { readonly of: "arm value" }
  | { readonly of: "count"; readonly clause: "take" | "drop" };

/** The subject of "… should be a Text": the place, as a sentence starts with it. */
function placeText(place: ValuePlace): string {
  switch (place.of) {
    case "receiver":
      return `The value before \`.${place.method}\``;
    case "type argument":
      return "The type given to `as:`";
    case "argument":
      return `The argument \`${place.parameter}\` of \`${place.callee}\``;
    case "default":
      return `The default of \`${place.parameter}\``;
    case "failure":
      return "The failure";
    case "value":
      return "This value";
    case "crash message":
      return "The message of `crash`";
    case "new value":
      return `The new value of \`${place.local}\``;
    case "returned value":
      return "The returned value";
    case "else branch":
      return "The `else` branch";
    case "condition":
      return `The condition of \`${place.statement}\``;
    case "checked":
      return "What `check` checks";
    case "operand":
      return place.side === undefined
        ? `The value after \`${place.operator}\``
        : `The ${place.side} side of \`${place.operator}\``;
    case "list index":
      return "A list index";
    case "field":
      return `The field \`${place.field}\``;
    case "range":
      return `The ${place.end} of a range`;
    case "list item":
      return "This item of the list";
    case "map key":
      return "This key of the map";
    case "map value":
      return "This value of the map";
    case "parameter":
      return `The parameter \`${place.parameter}\``;
    case "function value":
      return "The value of this function";
    case "otherwise value":
      return "The value after `otherwise`";
    case "arm value":
      return "The value of this arm";
    case "count":
      return `The count of \`${place.clause}\``;
  }
}

/** A place whose rule is worth saying in the hint, whatever the types. */
const PLACE_HINT: Partial<Record<ValuePlace["of"], string>> = {
  "list item": "Every item of a list has the type of the first.",
  "otherwise value":
    "The value after `otherwise` stands in for what the call would have given, so it has the same type.",
  "arm value": "Every arm gives a value of the same type.",
};

/** How to turn one type into the other, when Renyi has a way to. */
function conversionHint(found: string, expected: string, failingFunction: boolean): string | undefined {
  if (failingFunction)
    return (
      "A function that can fail cannot be passed where one that cannot is expected. For each item, use a query: " +
      "`from item in items select f(item) otherwise fail`."
    );
  if (found === "Int" && expected === "Float") return "Renyi does not convert numbers by itself: write `n.to_float()`.";
  if (found === "Float" && expected === "Int")
    return "Renyi does not convert numbers by itself: use `math.round(x)`, `math.floor(x)` or `math.ceil(x)`.";
  if (expected === "Text" && (found === "Int" || found === "Float" || found === "Boolean"))
    return 'Write it as text with interpolation: `"{value}"`, or `value.to_text()`.';
  if (found === "Text" && expected === "Int") return "Read a number from text with `t.to_int() otherwise ...`.";
  if (expected.startsWith("Optional<") && found === expected.slice(9, -1)) return "Wrap the value: `Some(value)`.";
  return undefined;
}

type Mismatch =
  | { problem: "expected"; place: ValuePlace; expected: string; found: string; failingFunction?: true }
  | { problem: "numeric function"; callee: string; found: string }
  | { problem: "index"; found: string }
  | { problem: "with"; found: string }
  | { problem: "iterate"; construct: "for each" | "from"; found: string }
  | { problem: "pattern"; pattern: string; found: string }
  | { problem: "concurrency limit" };

/** What a construct does with its collection. */
type Iterating = "for each" | "from";
const ITERATES: Readonly<Record<Iterating, string>> = { "for each": "goes through", from: "reads" };

function renderMismatch(f: Mismatch): Rendered {
  switch (f.problem) {
    case "expected": {
      const hint = PLACE_HINT[f.place.of] ?? conversionHint(f.found, f.expected, f.failingFunction === true);
      return {
        message: `${placeText(f.place)} should be ${article(f.expected)}, but it is ${article(f.found)}`,
        label: `this is ${f.found}`,
        notes: [`expected: ${f.expected}`, `found:    ${f.found}`],
        ...(hint === undefined ? {} : { hint }),
      };
    }
    case "numeric function":
      return { message: `\`${f.callee}\` works on Int and Float, not on ${f.found}`, label: "not a number" };
    case "index":
      return {
        message: `Only a list can be indexed with \`[...]\`, and this is ${article(f.found)}`,
        label: "not a list",
        ...(f.found.startsWith("Map<") ? { hint: "Look a key up with `m.get(key)`, which gives an Optional." } : {}),
      };
    case "with":
      return { message: `\`with\` copies a record, and this is ${article(f.found)}`, label: "not a record" };
    case "iterate":
      return {
        message: `\`${f.construct}\` ${ITERATES[f.construct]} a list, a set or a map, and this is ${article(f.found)}`,
        label: "not a collection",
      };
    case "pattern":
      return {
        message: `This pattern matches ${article(f.pattern)}, but the value is ${article(f.found)}`,
        label: `a pattern for ${article(f.pattern)}`,
      };
    case "concurrency limit":
      return {
        message: "At least one task must run at a time",
        hint: "For example: `concurrently at most 4 at a time`.",
      };
  }
}

/** A parameter as the note "It takes ..." lists it. */
export interface SlotFact {
  readonly name: string;
  readonly type: string;
  readonly optional: boolean;
}

const takes = (slots: readonly SlotFact[]): string =>
  `It takes ${slots.length === 0 ? "no arguments" : slots.map((s) => `\`${s.name}: ${s.type}\`${s.optional ? " (optional)" : ""}`).join(", ")}.`;

type Arguments =
  | { problem: "too many"; callee: string; slots: SlotFact[] }
  | { problem: "unknown label"; callee: string; label: string; slots: SlotFact[]; suggestion?: string }
  | { problem: "repeated"; label: string }
  | { problem: "missing"; callee: string; missing: string[]; slots: SlotFact[] }
  | { problem: "type expected"; parameter: string }
  | { problem: "type not taken" }
  | { problem: "labels on a function value" }
  | { problem: "ability takes none"; ability: "to_text" | "to_json" }
  | { problem: "pattern too many"; pattern: string; fields: number }
  | { problem: "case has fields"; type: string; case: string; fields: string[] };

function renderArguments(f: Arguments): Rendered {
  switch (f.problem) {
    case "too many":
      return {
        message: `\`${f.callee}\` takes ${plural(f.slots.length, "argument")}, but more are given`,
        label: "one too many",
        notes: [takes(f.slots)],
      };
    case "unknown label":
      return {
        message: `\`${f.callee}\` has no parameter named \`${f.label}\``,
        label: "unknown label",
        notes: [takes(f.slots)],
        ...(f.suggestion === undefined ? {} : { hint: `Did you mean \`${f.suggestion}\`?` }),
      };
    case "repeated":
      return { message: `\`${f.label}\` is given twice`, label: "given again here" };
    case "missing":
      return {
        message:
          `\`${f.callee}\` needs ${f.missing.map((m) => `\`${m}\``).join(", ")}, which ` +
          `${f.missing.length === 1 ? "is" : "are"} not given`,
        label: `missing ${f.missing.join(", ")}`,
        notes: [takes(f.slots)],
      };
    case "type expected":
      return { message: `\`${f.parameter}:\` takes a type, such as \`as: Reading\``, label: "a type goes here" };
    case "type not taken":
      return {
        message: "Only `as:` of a library function takes a type",
        hint:
          "`as:` is how `json.decode` and `database.query` learn the type to read: " +
          "`json.decode(body, as: Reading)`.",
      };
    case "labels on a function value":
      return { message: "A function value takes its arguments by position, without labels", label: "no labels here" };
    case "ability takes none":
      return { message: `\`${f.ability}\` takes no arguments`, label: "no arguments here" };
    case "pattern too many":
      return {
        message: `\`${f.pattern}\` has ${plural(f.fields, "field")}, but this pattern gives more`,
        label: "one too many",
      };
    case "case has fields":
      return {
        message: `\`${f.type}.${f.case}\` has fields, so it is built with them`,
        hint: `For example: \`${f.type}.${f.case}(${f.fields.map((name) => `${name}: ...`).join(", ")})\`.`,
      };
  }
}

/** The definitions E-TYPE-QUERY-LEAVE's examples share: a function that can fail. */
const CHECKED_PRELUDE = `type Problem is variant
  Negative
end

function checked(n: Int) returns Int or fails with Problem
  if n < 0 then fail with Problem.Negative
  return n
end
`;

export const TYPE_PROBLEMS = {
  "E-TYPE-MISMATCH": problem<Mismatch>({
    title: "A value of another type than expected",
    facts: {
      problem:
        "`expected`: a value where another type is expected; `numeric function`: a number function given " +
        "something else; `index`: `[...]` on what is not a list; `with` on what is not a record; `iterate`: " +
        "`for each` or `from` over what is not a collection; `pattern`: a pattern of another type than its " +
        "value; `concurrency limit`: fewer than one task at a time",
      place: "where the value stands (an argument, a field, the returned value...), with the names that say which",
      expected: "the type expected, as written in a program",
      found: "the type found",
      failingFunction: "set when a function that can fail is given where one that cannot is expected",
      callee: "the library function (`sum`, `abs`)",
      construct: "`for each` or `from`",
      pattern: "what the pattern matches: `pair`, `list`, or a type",
    },
    render: renderMismatch,
    explanation: `Every value has one type, known when the program is checked, and Renyi converts
nothing by itself: an Int is not a Float, a number is not a Text, a value is not an Optional of
it. The message says where a value of which type was expected; the notes show both types. Convert
the value explicitly (\`n.to_float()\`, \`"{n}"\`, \`Some(value)\`), or change the declared type.`,
    wrong: `function label(n: Int) returns Text
  let name: Text be n
  return name
end`,
    right: `function label(n: Int) returns Text
  let name: Text be "{n}"
  return name
end`,
  }),

  "E-TYPE-OPERATOR": problem<
    | { problem: "negate"; found: string }
    | { problem: "different types"; operator: string; left: string; right: string }
    | { problem: "add"; found: string }
    | { problem: "arithmetic"; operator: string; found: string }
  >({
    title: "An operator on values it does not take",
    facts: {
      problem:
        "`negate`: `-` before what is not a number; `different types`: two operands of different types; `add`: " +
        "`+` on values it cannot add; `arithmetic`: `-`, `*`, `/` or `mod` on what is not a number",
      found: "the type of the operand(s)",
      operator: "the operator",
      left: "the type of the left operand",
      right: "the type of the right operand",
    },
    render: (f) => {
      switch (f.problem) {
        case "negate":
          return { message: `\`-\` negates an Int or a Float, not ${article(f.found)}`, label: f.found };
        case "different types": {
          const numbers = (t: string): boolean => t === "Int" || t === "Float";
          return {
            message: `\`${f.operator}\` needs two values of the same type, and these are ${article(f.left)} and ${article(f.right)}`,
            label: `${f.left} ${f.operator} ${f.right}`,
            ...(numbers(f.left) && numbers(f.right)
              ? {
                  hint:
                    "Renyi does not mix Int and Float by itself: convert one side with `n.to_float()` or " +
                    "`math.round(x)`.",
                }
              : {}),
          };
        }
        case "add":
          return { message: `\`+\` adds numbers and joins texts and lists, not ${f.found} values`, label: f.found };
        case "arithmetic":
          return { message: `\`${f.operator}\` works on Int and Float, not on ${f.found}`, label: f.found };
      }
    },
    explanation: `The arithmetic operators take two numbers of the same type (\`+\` also joins two
texts or two lists), and the comparisons two values of the same type. Renyi does not mix Int
and Float by itself, so that no precision is lost unseen: convert one side with \`n.to_float()\`
or \`math.round(x)\`.`,
    wrong: `function average(total: Int, count: Float) returns Float
  return total / count
end`,
    right: `function average(total: Int, count: Float) returns Float
  return total.to_float() / count
end`,
  }),

  "E-TYPE-ARGUMENTS": problem<Arguments>({
    title: "Missing, extra, unknown or repeated arguments",
    facts: {
      problem:
        "which: `too many`, `unknown label`, `repeated`, `missing`, `type expected` (a type for `as:`), " +
        "`type not taken` (a type where a value goes), `labels on a function value`, `ability takes none`, " +
        "`pattern too many` (fields), `case has fields` (a case used without its fields)",
      callee: "the function called, as written",
      slots: "the parameters it takes: name, type, and whether it is optional",
      label: "the label written",
      suggestion: "the parameter closest to the label written, if one is close",
      missing: "the parameters not given",
      parameter: "the parameter that takes a type",
      ability: "`to_text` or `to_json`",
      pattern: "the case or record the pattern takes apart, as written",
      fields: "how many fields it has, or their names",
      type: "the variant",
      case: "its case",
    },
    render: renderArguments,
    explanation: `A call gives each parameter of the function once, by position or by its label
(\`greet("Ada", greeting: "Hi")\`); a parameter with a default may be left out. The message says
which argument is missing, extra, unknown or repeated, and the note lists the parameters the
function takes. A function value (a lambda, or a function passed as a value) takes its arguments
by position only.`,
    wrong: `function greet(name: Text, greeting: Text = "Hello") returns Text
  return "{greeting}, {name}"
end

function welcome() returns Text
  return greet(salutation: "Hi")
end`,
    right: `function greet(name: Text, greeting: Text = "Hello") returns Text
  return "{greeting}, {name}"
end

function welcome() returns Text
  return greet("Ada", greeting: "Hi")
end`,
  }),

  "E-TYPE-ARITY": problem<{ type: string; expected: number; given: number }>({
    title: "The wrong number of type arguments",
    facts: {
      type: "the type, as written (`List`)",
      expected: "how many type arguments it takes",
      given: "how many are given",
    },
    render: (f) => ({
      message:
        `\`${f.type}\` takes ${f.expected === 0 ? "no type arguments" : plural(f.expected, "type argument")}, but ` +
        `${f.given} ${f.given === 1 ? "is" : "are"} given here`,
      label: "wrong number of type arguments",
    }),
    explanation: `A generic type takes a fixed number of type arguments: \`List<Int>\` one,
\`Map<Text, Int>\` two, \`Int\` none. Give exactly as many as the type declares.`,
    wrong: `function count(items: Map<Text>) returns Int
  return items.length()
end`,
    right: `function count(items: Map<Text, Int>) returns Int
  return items.length()
end`,
  }),

  "E-TYPE-NOT-CALLABLE": problem<
    { problem: "variant"; name: string; firstCase?: string } | { problem: "value"; found: string }
  >({
    title: "A call of something that is not a function",
    facts: {
      problem: "`variant`: a variant type called as if it were a record; `value`: a value that is not a function",
      name: "the variant's name",
      firstCase: "its first case, for the example",
      found: "the type of the value called",
    },
    render: (f) =>
      f.problem === "variant"
        ? {
            message: `\`${f.name}\` is a variant: build one of its cases`,
            hint: `For example \`${f.name}.${f.firstCase ?? "Case"}(...)\`.`,
          }
        : { message: `This is ${article(f.found)}, not a function, so it cannot be called`, label: "not a function" },
    explanation: `Only functions (and records, which are built by calling their name) can be
called. A variant is built through one of its cases (\`Shape.Circle(radius: 1.0)\`), and a value
that is not a function cannot be called at all.`,
    wrong: `type Shape is variant
  Circle(radius: Float)
end

function unit() returns Shape
  return Shape(radius: 1.0)
end`,
    right: `type Shape is variant
  Circle(radius: Float)
end

function unit() returns Shape
  return Shape.Circle(radius: 1.0)
end`,
  }),

  "E-TYPE-NOT-VALUE": problem<
    { name: string; shape: "record"; fields: string[] } | { name: string; shape: "variant"; cases: string[] }
  >({
    title: "A type used as a value",
    facts: {
      name: "the type's name",
      shape: "`record` or `variant`",
      fields: "the record's fields",
      cases: "the variant's cases",
    },
    render: (f) => ({
      message: `\`${f.name}\` is a type, not a value`,
      hint:
        f.shape === "record"
          ? `Build one with its fields: \`${f.name}(${f.fields.map((x) => `${x}: ...`).join(", ")})\`.`
          : `Use one of its cases: ${f.cases.map((c) => `\`${f.name}.${c}\``).join(", ")}.`,
    }),
    explanation: `A type's name stands for the type, not for a value of it. Build a record with its
fields (\`Point(x: 1)\`), or name one of a variant's cases (\`Shape.Empty\`).`,
    wrong: `type Point is record
  x: Int
end

function origin() returns Point
  return Point
end`,
    right: `type Point is record
  x: Int
end

function origin() returns Point
  return Point(x: 0)
end`,
  }),

  "E-TYPE-ABILITY": problem<{ type: string; ability: Ability; lacking: string; because: Lacking }>({
    title: "A type without the ability a use needs",
    facts: {
      type: "the type of the value used",
      ability: "the ability the use needs: `equality`, `compare`, `hash`, `to_text`, `to_json` or `from_json`",
      lacking: "the part of the type that lacks it (the type itself, or a type it holds)",
      because: "`function`: it is or holds a function; `unordered`: a map, a set or Json, which have no order",
    },
    render: (f) => ({
      message:
        `${article(f.type)} cannot be ` +
        `${ABILITY_USE[f.ability]}${f.lacking === f.type ? "" : `, because it holds ${article(f.lacking)}`}`,
      label: `${f.type} ${ABILITY_LACK[f.ability]}`,
      notes: [LACKING_NOTE[f.because]],
    }),
    explanation: `Data types have their abilities derived: equality (\`is\`), order (\`<\`, sorting),
a hash (map keys, sets, \`distinct\`), a text and a JSON form. A function has none of them (two
functions cannot be compared, written or sent), and a map, a set or Json has no order. A type
that holds one of those lacks the ability too. Compare, sort or encode the data, not a function.`,
    wrong: `function same(f: function(Int) returns Int) returns Boolean
  return f is f
end`,
    right: `function same(f: function(Int) returns Int) returns Boolean
  return f(1) is f(1)
end`,
  }),

  "E-TYPE-GENERIC-ABILITY": problem<{
    callee: string;
    parameter: string;
    ability: Ability;
    type: string;
    lacking: string;
    because: Lacking;
    via?: { callee: string; parameter: string };
  }>({
    title: "A generic function given a type without an ability its body uses",
    facts: {
      callee: "the generic function called",
      parameter: "its type parameter",
      ability: "the ability its body uses on that parameter",
      type: "the type the call fills the parameter with",
      lacking: "the part of that type that lacks the ability",
      because: "`function`: it is or holds a function; `unordered`: a map, a set or Json, which have no order",
      via: "when the ability is used further down: the generic function the parameter goes to, and its parameter there",
    },
    render: (f) => ({
      message:
        `\`${f.callee}\` needs its \`${f.parameter}\` to be ${ABILITY_USE[f.ability]}, and here \`${f.parameter}\` ` +
        `is ${article(f.type)}${f.lacking === f.type ? "" : `, which holds ${article(f.lacking)}`}`,
      label: `${f.lacking} ${ABILITY_LACK[f.ability]}`,
      related: [
        f.via === undefined
          ? `\`${f.parameter}\` is ${ABILITY_USE[f.ability]} here`
          : `\`${f.parameter}\` goes to \`${f.via.callee}\` here, whose \`${f.via.parameter}\` is ${ABILITY_USE[f.ability]}`,
      ],
      notes: [
        "A type parameter must have every ability its function's body uses on it, there or through the generic " +
          "functions it calls.",
        LACKING_NOTE[f.because],
      ],
      hint:
        f.because === "function"
          ? "Pass data rather than a function: call the function first and pass its result, or a record of the " +
            "values it needs."
          : "Pass a type with an order, such as a list of pairs sorted by their first item, or a record of ordered " +
            "fields.",
    }),
    explanation: `A generic function's type parameter has, implicitly, every ability its body uses
on it: \`encode<T>\` that calls \`json.encode(value)\` needs a \`T\` with a JSON form. A call that
fills the parameter with a type lacking that ability (a function, or a map where an order is
needed) is refused at the call, and the related place shows where the body uses the ability.`,
    wrong: `function encode<T>(value: T) returns Text
  return json.encode(value)
end

function send(double: function(Int) returns Int) returns Text
  return encode(double)
end`,
    right: `function encode<T>(value: T) returns Text
  return json.encode(value)
end

function send(double: function(Int) returns Int) returns Text
  return encode(double(21))
end`,
  }),

  "E-TYPE-NO-RETURN": problem<
    { problem: "function"; name: string; returns: string } | { problem: "function value"; returns: string }
  >({
    title: "A path of a function that returns a value ends without one",
    facts: {
      problem: "`function`: a named function; `function value`: a `function(...) ... end` expression",
      name: "the function's name",
      returns: "the type it returns",
    },
    render: (f) =>
      f.problem === "function"
        ? {
            message: `\`${f.name}\` returns ${article(f.returns)}, but not on every path`,
            label: `returns ${f.returns}`,
            notes: [
              "A path of a function ends with `return`, `fail` or `crash`; an `if` needs its `else`, and every " +
                "arm of a `match` must end, for the paths through them to end.",
            ],
            hint: "Add a `return` at the end of the function, or to the branch that has none.",
          }
        : {
            message: `This function returns ${article(f.returns)}, but not on every path`,
            hint: "End every path with `return`, `fail` or `crash`.",
          },
    explanation: `A function that returns a value must end every path through its body with
\`return\` (or \`fail\`, or \`crash\`): an \`if\` without \`else\`, or a loop, can let a path reach the
end with nothing to return. Add the missing \`return\`.`,
    wrong: `function sign(n: Int) returns Text
  if n > 0
    return "positive"
  end
end`,
    right: `function sign(n: Int) returns Text
  if n > 0
    return "positive"
  end
  return "not positive"
end`,
  }),

  "E-TYPE-RETURN": problem<
    { problem: "in a test" } | { problem: "no value"; returns: string } | { problem: "a value"; found: string }
  >({
    title: "`return` with a value where none is returned, or without one where one is",
    facts: {
      problem:
        "`in a test`: `return` in a test; `no value`: a bare `return` in a function that returns a value; " +
        "`a value`: a value returned from a function that returns nothing",
      returns: "the type the function returns",
      found: "the type of the value returned",
    },
    render: (f) => {
      switch (f.problem) {
        case "in a test":
          return {
            message: "A test does not return a value",
            hint: "A test ends at its `end`; use `check` to test a value.",
          };
        case "no value":
          return {
            message: `This function returns ${article(f.returns)}, so \`return\` needs a value`,
            label: "no value",
            hint: `For example: \`return ${f.returns === "Int" ? "0" : "value"}\`.`,
          };
        case "a value":
          return {
            message: `This function returns nothing, so it cannot return ${article(f.found)}`,
            label: "a value",
            hint: `Declare what it returns: \`... returns ${f.found}\`.`,
          };
      }
    },
    explanation: `What a function returns is declared in its signature (\`returns Int\`); without
\`returns\` it returns nothing. A \`return\` gives a value exactly when the function returns one.
A test returns nothing: it checks values with \`check\`.`,
    wrong: `function log_count(n: Int)
  return n
end`,
    right: `function log_count(n: Int) returns Int
  return n
end`,
  }),

  "E-TYPE-VALUE-ARM": problem<{ construct: "match" | "otherwise" }>({
    title: "An arm that gives no value where one is needed",
    facts: { construct: "`match`, or `otherwise` (its `when` arms)" },
    render: (f) => ({
      message: `This arm gives no value, but the ${f.construct} is used as a value`,
      label: "no value",
      hint: "Write the arm as `when PATTERN then VALUE`, or end it with `return`, `fail`, `crash`, `stop` or `skip`.",
    }),
    explanation: `A \`match\` (or an \`otherwise\` with arms) used as a value gives the value of the
arm that matched, so each arm must give one (\`when 0 then "zero"\`), or leave the function or the
loop (\`return\`, \`fail\`, \`crash\`, \`stop\`, \`skip\`).`,
    wrong: `function describe(n: Int) returns Text
  let text be match n
    when 0 then "zero"
    when _
      let other be "other"
  end
  return text
end`,
    right: `function describe(n: Int) returns Text
  let text be match n
    when 0 then "zero"
    when _ then "other"
  end
  return text
end`,
  }),

  "E-TYPE-INFER": problem<
    { problem: "member"; member: string } | { problem: "local"; local: string; type: string; binding: "let" | "var" }
  >({
    title: "A type nothing pins down",
    facts: {
      problem:
        "`member`: a field or method looked up in a value of unknown type; `local`: a local whose type is not " +
        "fully known",
      member: "the field or method looked up",
      local: "the local's name",
      type: "what is known of its type, `_` for the unknown parts",
      binding: "`let` or `var`",
    },
    render: (f) =>
      f.problem === "member"
        ? {
            message: `I cannot tell what type this is, so I cannot look up \`${f.member}\` in it`,
            hint: "Give the value a type where it is bound: `let item: Item be ...`.",
          }
        : {
            message: `I cannot tell the full type of \`${f.local}\`: nothing here says what it holds`,
            label: `${f.type}, with \`_\` unknown`,
            hint: `Write the type: \`${f.binding} ${f.local}: ${f.type.replace(/_/g, "Text")} be ...\`.`,
          },
    explanation: `Renyi infers the types of locals from their values and their uses, but an empty
list or map, never used, says nothing of what it will hold, and a field cannot be looked up in a
value whose type is not yet known. Write the type where the local is bound:
\`let items: List<Text> be []\`.`,
    wrong: `function f() returns Int
  let items be []
  return 1
end`,
    right: `function f() returns Int
  let items: List<Text> be []
  return 1
end`,
  }),

  "E-TYPE-LOOP-CONTROL": problem<{ statement: "stop" | "skip" }>({
    title: "`stop` or `skip` outside a loop",
    facts: { statement: "`stop` or `skip`" },
    render: (f) => ({
      message: `\`${f.statement}\` is only for loops, and there is no loop around it here`,
      label: "outside a loop",
      hint: "To leave a function early, use `return`.",
    }),
    explanation: `\`stop\` leaves the loop around it and \`skip\` goes on with its next round; outside
a loop they mean nothing. To leave a function early, use \`return\`.`,
    wrong: `function f(n: Int) returns Int
  if n > 3 then stop
  return n
end`,
    right: `function f(n: Int) returns Int
  if n > 3 then return 3
  return n
end`,
  }),

  "E-TYPE-TASK-LEAVE": problem<{ statement: "return" | "stop" | "skip" }>({
    title: "A task of `run concurrently` that tries to leave it",
    facts: { statement: "`return`, or `stop` or `skip` of a loop around the block" },
    render: (f) => ({
      message: `\`${f.statement}\` cannot leave a task of \`run concurrently\``,
      label: `\`${f.statement}\` in a task`,
      notes: [
        "Each statement of `run concurrently` runs as a task of its own, apart from the function and the loops " +
          "around it; the block ends when every task has.",
      ],
      hint:
        f.statement === "return"
          ? "Bind the value in the task (`let result be ...`) and return it after `end`."
          : `Decide after \`end\`, with the values the tasks bound: \`if done then ${f.statement}\`.`,
    }),
    explanation: `Each statement of \`run concurrently\` runs as a task of its own, at the same time
as the others; the block ends when all of them have. A task therefore cannot return from the
function or stop the loop around the block: the other tasks would be left running. Bind values
in the tasks and decide after \`end\`.`,
    wrong: `function first() returns Text
  needs time
  run concurrently
    let started be time.now()
    return "none"
  end
  return "none"
end`,
    right: `function first() returns Text
  needs time
  run concurrently
    let started be time.now()
    let result be "none"
  end
  return result
end`,
  }),

  "E-TYPE-QUERY-LEAVE": problem<{ statement: "return" | "stop" | "skip" }>({
    title: "`return`, `stop` or `skip` that tries to leave a query",
    facts: { statement: "`return`, or `stop` or `skip` of a loop around the query" },
    render: (f) => ({
      message: `\`${f.statement}\` cannot leave a query`,
      label: `\`${f.statement}\` in a query`,
      notes: [
        "A query makes its list from every row it keeps: what its clauses and `select` compute is a value for " +
          "the row, and nothing in them can leave the query halfway.",
      ],
      hint:
        f.statement === "return"
          ? "Give the row a value (`otherwise 0`) or leave it out with `where`, and return after the query."
          : `Leave the row out with \`where\`, or give it a value (\`otherwise 0\`), and decide after the query: ` +
            `\`if done then ${f.statement}\`.`,
    }),
    explanation: `A query (\`from x in items ... select ...\`) makes a list from every row it keeps. An
\`otherwise\` or a \`match\` inside it may run statements, but they cannot leave the query: not
\`return\` from the function, and not \`stop\` or \`skip\` a loop around the query, since the
query's rows would be left half made. Leave rows out with \`where\`, give a failing row a value
with \`otherwise\`, and decide after the query.`,
    wrong: `${CHECKED_PRELUDE}
function total(items: List<Int>) returns Int
  let kept be from n in items select (checked(n) otherwise return 0)
  return kept.sum()
end`,
    right: `${CHECKED_PRELUDE}
function total(items: List<Int>) returns Int
  let kept be from n in items select (checked(n) otherwise 0)
  return kept.sum()
end`,
  }),

  "E-TYPE-CHECK-PLACE": problem({
    title: "`check` outside a test",
    facts: {},
    render: () => ({
      message: "`check` belongs in a test",
      hint: 'Write the check in a `test "..." ... end` block; in a function, use `if` and `crash with` or `fail with`.',
    }),
    explanation: `\`check\` states what a test expects; a failed check fails the test. In a function,
say what happens when a condition does not hold: \`fail with\` a failure its callers handle, or
\`crash with\` a message when it can only be a bug.`,
    wrong: `function f(n: Int) returns Int
  check n > 0
  return n
end`,
    right: `function f(n: Int) returns Int
  return n
end

test "f keeps a positive number"
  check f(2) is 2
end`,
  }),

  "E-TYPE-MAIN": problem<{ problem: "parameter"; parameter: string; type: string } | { problem: "returns" }>({
    title: "A `main` the command line cannot run",
    facts: {
      problem: "`parameter`: a parameter the command line cannot give; `returns`: a `main` that returns a value",
      parameter: "the parameter's name",
      type: "its type",
    },
    render: (f) =>
      f.problem === "parameter"
        ? {
            message: `\`main\`'s parameter \`${f.parameter}\` is ${article(f.type)}, which the command line cannot give`,
            label: "not readable from the command line",
            notes: [
              "Each parameter of `main` is an option (`--city Paris`): Text, Int, Float, Boolean, or an Optional " +
                "of one; `arguments: List<Text>` takes the words after the options.",
            ],
            hint: "Take a Text and read it in the program, for example with `json.decode`.",
          }
        : {
            message: "`main` returns nothing: a run ends finished, failed or crashed, and says so with its exit code",
            label: "main cannot return a value",
            hint: "Print the result with `console.print`, or fail with `fail with ...`.",
          },
    explanation: `\`main\` is called by the command line: each of its parameters is an option
(\`--city Paris\`), so it must be of a type a word can be read as (Text, Int, Float, Boolean, or an
Optional of one), and \`arguments: List<Text>\` takes the remaining words. A run ends finished,
failed or crashed, with an exit code, so \`main\` returns nothing: print the result instead.`,
    wrong: `public function main(items: List<Int>)
  purpose: Add up the items.
  needs console
  console.print("done")
end`,
    right: `public function main(items: Text)
  purpose: Add up the items.
  needs console
  console.print("done")
end`,
  }),
  "E-CHECK-TOO-COMPLEX": problem<
    | { steps: number; base: number; perCharacter: number; characters: number; deep: boolean }
    | { clause: "join" | "sort key"; found: number; most: number }
  >({
    title: "A program too complex to check",
    facts: {
      steps:
        "the steps checking this program's types could take: `base` and `perCharacter` for each character of its " +
        "source",
      base: "the steps every program may take",
      perCharacter: "the steps each character of source adds",
      characters: "how many characters the program's modules hold",
      deep: "true when its types nest deeper than checking can follow, rather than taking too many steps",
      clause:
        "set for a query with too many of one clause: `join` for its `from` clauses (each compiled inside the " +
        "one before), `sort key` for the keys of one `sort by`",
      found: "how many `from` clauses, or sort keys, the query has",
      most: "the most one query may have",
    },
    render: (f) =>
      "clause" in f
        ? {
            message:
              f.clause === "join"
                ? `This query has ${count(f.found)} \`from\` clauses, more than the ${count(f.most)} one query may have`
                : `This \`sort by\` has ${count(f.found)} keys, more than the ${count(f.most)} one query may have`,
            label: "query too long to compile",
            notes: [
              f.clause === "join"
                ? "Each `from` of a query runs inside the one before it, and compiled code may nest only so deep: " +
                  "a query is refused here rather than when it runs."
                : "A query's sort keys are compared one after another in compiled code that nests with each key, " +
                  "and compiled code may nest only so deep.",
            ],
            hint:
              f.clause === "join"
                ? "Join fewer lists in one query: make a list of the rows of some of them first, in a query of its " +
                  "own, and join that."
                : "Sort by fewer keys: a record or pair holding several of them sorts as one key.",
          }
        : tooComplexRendered(f),
    explanation: `Checking a program walks over its types: unifying them, looking for a function
inside one compared with \`is\`, writing one in a message. Types are shared, so
\`let b be (a, a)\` repeated forty times makes a type with forty distinct parts that, read
out in full, would have a trillion; each walk looks at each distinct part once. So that no
program can make checking slow, the walks of a compilation may take two million steps and two
hundred more for each character of its source; a program past that, or whose types nest
deeper than checking can follow, is refused with this code at the definition being checked
(and \`renyi run\` ends the same way). No program written by hand comes near it: give large
values a declared record type instead of nesting pairs or lists line after line.

A query is compiled one \`from\` inside the one before, and compiled code may nest only so
deep; one query may have at most two hundred \`from\` clauses, and one \`sort by\` two hundred
keys: past that, the query is refused with this code at its first \`from\`, by \`renyi check\`
as by \`renyi run\`. Compiled code the bundle validator finds nested more deeply than it reads
is refused with this code too, at the start of the program.`,
    wrong: `A program whose lines each nest the value of the line before twice more (\`let a2 be ((a1, a1), (a1, a1))\`),
for some thousands of lines, and then compares the last with \`is\`.`,
    right: `The same data held in a declared record (\`type Grid is record ... end\`) or a list of
values, whose type stays the same size however many lines build it.`,
    described: true,
  }),
};

/** E-CHECK-TOO-COMPLEX's words for a program whose types take too many steps, or nest too deeply. */
function tooComplexRendered(f: {
  steps: number;
  base: number;
  perCharacter: number;
  characters: number;
  deep: boolean;
}): Rendered {
  return {
    message: f.deep
      ? "This program's types nest too deeply to check"
      : `Checking this program's types needs more than ${count(f.steps)} steps, the most a program of ` +
        `${count(f.characters)} characters may take`,
    label: "checking stopped here",
    notes: [
      `Checking looks at each distinct part of a type once, and may take ${count(f.base)} steps and ` +
        `${count(f.perCharacter)} more for each character of source, so that no program can make it slow; the ` +
        `program is refused rather than checked for minutes.`,
    ],
    hint:
      "Give the large types a name: a record with a field for each part, declared once, rather than a value built " +
      "by nesting pairs or lists many lines deep.",
  };
}
