// Failures and exhaustiveness (E-FAIL-*, E-MATCH-*, W-MATCH-*).

import { article, plural, problem } from "./entry.js";
import { capitalised, ownerText, type Owner } from "./grants.js";

/** Which construct's arms: a `match`, or the arms of an `otherwise`. */
export type ArmsOf = "match" | "otherwise";

const coveredWhat = (construct: ArmsOf): string => (construct === "otherwise" ? "failure" : "value");

const steps = (n: number): string => n.toLocaleString("en-US");

// The arms of a match that crosses 14 Boolean fields, each arm fixing three of
// them: checking it for missing cases needs more than a million steps.
const CROSSING_ARMS = [
  "f2: false, f9: true, f1: false",
  "f12: false, f7: true, f13: true",
  "f7: false, f0: true, f6: false",
  "f4: true, f11: false, f3: true",
  "f0: true, f13: false, f10: true",
  "f6: true, f11: false, f0: false",
  "f8: true, f3: true, f5: false",
  "f4: true, f0: true, f6: false",
  "f1: false, f11: true, f5: false",
  "f4: false, f9: true, f7: false",
  "f3: false, f11: true, f6: false",
  "f8: false, f11: true, f10: false",
  "f10: true, f8: false, f1: false",
  "f7: false, f11: true, f0: false",
  "f11: false, f9: true, f12: true",
  "f8: true, f3: true, f0: false",
  "f8: false, f5: false, f9: false",
  "f10: true, f8: false, f9: true",
  "f8: true, f12: false, f13: true",
  "f7: true, f5: false, f9: false",
  "f13: false, f5: true, f6: false",
  "f7: true, f9: true, f0: true",
  "f13: false, f1: true, f8: true",
  "f1: true, f0: false, f7: true",
  "f4: true, f1: false, f9: false",
  "f1: false, f2: true, f12: false",
  "f10: false, f11: false, f4: false",
  "f7: false, f1: false, f0: false",
  "f6: false, f12: true, f3: false",
  "f11: false, f8: true, f3: true",
  "f0: true, f6: true, f2: false",
  "f11: false, f8: true, f10: false",
  "f3: true, f8: false, f10: false",
  "f10: true, f13: false, f6: true",
  "f3: true, f0: true, f4: false",
  "f4: false, f11: false, f2: true",
  "f0: true, f8: false, f13: true",
  "f13: true, f12: false, f11: true",
  "f5: false, f1: true, f3: false",
  "f1: false, f10: false, f6: true",
  "f5: false, f9: true, f6: true",
  "f3: true, f5: false, f9: false",
  "f3: true, f4: false, f10: false",
  "f13: false, f10: true, f8: true",
  "f11: true, f0: true, f1: true",
  "f8: false, f3: false, f4: false",
  "f5: false, f13: true, f1: false",
  "f2: true, f9: false, f8: true",
  "f6: true, f1: true, f13: false",
  "f1: false, f9: true, f12: true",
  "f9: false, f1: false, f4: true",
  "f7: true, f4: false, f1: true",
  "f9: true, f10: false, f0: true",
  "f13: true, f12: true, f0: false",
  "f2: true, f1: true, f7: true",
  "f11: false, f1: false, f6: false",
];

export const FAILURE_PROBLEMS = {
  "E-FAIL-UNHANDLED": problem<{ callee: string; failure: string }>({
    title: "A call that can fail, without `otherwise`",
    facts: {
      callee: "the function called, as written (`text.to_int`)",
      failure: "the type it can fail with",
    },
    render: (f) => ({
      message: `\`${f.callee}\` can fail with ${f.failure}, and the failure is not handled`,
      label: `can fail with ${f.failure}`,
      notes: ["Every call that can fail is handled where it is made."],
      hint:
        "Add `otherwise`: `otherwise fail` passes the failure on, `otherwise VALUE` goes on with a value, and " +
        "`otherwise` with `when` arms handles each case.",
    }),
    explanation: `In Renyi a failure is a value of a declared type, never an exception that
travels unseen: every call that can fail is followed by \`otherwise\`, which says what happens
when it does. \`otherwise fail\` passes the failure on (the function must declare
\`or fails with\` a type that can hold it), \`otherwise VALUE\` goes on with a value in its place,
and \`otherwise\` with \`when\` arms handles each kind of failure. Where the function may pass the
failure on, an editor can append \`otherwise fail\` for you.`,
    wrong: `function parse(text: Text) returns Int or fails with ParseError
  let n be text.to_int()
  return n
end`,
    right: `function parse(text: Text) returns Int or fails with ParseError
  let n be text.to_int() otherwise fail
  return n
end`,
  }),

  "E-FAIL-NOTHING": problem<{ problem: "otherwise" | "check" }>({
    title: "`otherwise` (or `check ... fails with`) on something that cannot fail",
    facts: { problem: "`otherwise`: the left of an `otherwise`; `check`: the call of a `check ... fails with`" },
    render: (f) =>
      f.problem === "otherwise"
        ? {
            message: "Nothing on the left of `otherwise` can fail",
            label: "this cannot fail",
            hint: "Remove the `otherwise`.",
          }
        : {
            message: "Nothing here can fail, so `check ... fails with` can never pass",
            hint: 'Check one call that can fail: `check parse("x") fails with ParseError(_, _)`.',
          },
    explanation: `\`otherwise\` handles the failure of the one call on its left that can fail; when
nothing there can fail, it would never run, and it most likely means the call is not the one
that was meant. Remove it (an editor can), or move it to the call that can fail. Likewise
\`check ... fails with\` in a test must be about a call that can fail.`,
    wrong: `function double(n: Int) returns Int
  let m be (n * 2) otherwise 0
  return m
end`,
    right: `function double(n: Int) returns Int
  let m be n * 2
  return m
end`,
  }),

  "E-FAIL-TWO": problem<{ problem: "otherwise" | "check" }>({
    title: "Two calls that can fail under one `otherwise`",
    facts: { problem: "`otherwise`: on the left of an `otherwise`; `check`: in a `check ... fails with`" },
    render: (f) =>
      f.problem === "otherwise"
        ? {
            message: "Two calls on the left of this `otherwise` can fail, so it is unclear which failure it handles",
            label: "a second call that can fail",
            related: ["the first"],
            hint: "Handle each call where it is made: bind the first with `let x be f() otherwise ...`, then use `x`.",
          }
        : {
            message: "Two calls here can fail, so it is unclear which failure the check is about",
            hint: 'Check one call that can fail: `check parse("x") fails with ParseError(_, _)`.',
          },
    explanation: `One \`otherwise\` handles the failure of one call. With two calls that can fail on
its left, a reader cannot tell which failure \`error\` is, nor which call's value a default
replaces. Handle each call where it is made, binding its value with \`let\`.`,
    wrong: `function add(a: Text, b: Text) returns Int
  let sum be (a.to_int() + b.to_int()) otherwise 0
  return sum
end`,
    right: `function add(a: Text, b: Text) returns Int
  let x be a.to_int() otherwise 0
  let y be b.to_int() otherwise 0
  return x + y
end`,
  }),

  "E-FAIL-WRAP": problem<{ failing: string; own: string; owner: Owner; holders: string[]; call?: string }>({
    title: "A failure passed on that the function's failure type cannot hold",
    facts: {
      failing: "the type of the failure passed on",
      own: "the failure type of the function",
      owner: "the function passing it on",
      holders:
        "the cases of the function's failure type whose single field has the failing type (none, or more than one)",
      call: "the library call that passes its own failure on into its function's failure type (`database.transaction`)",
    },
    render: (f) => ({
      message:
        f.call !== undefined
          ? `\`${f.call}\` passes ${article(f.failing)} of its own (BEGIN, COMMIT) on into its work's failure type ` +
            `${f.own}, which has ${f.holders.length === 0 ? "no case" : `${f.holders.length} cases`} holding ` +
            `${article(f.failing)}`
          : f.holders.length === 0
            ? `This passes on ${article(f.failing)}, but ${ownerText(f.owner)} fails with ${f.own}, which has no ` +
              `case holding ${article(f.failing)}`
            : `${f.own} has ${f.holders.length} cases holding ${article(f.failing)}, so it is unclear which one to ` +
              `wrap it in`,
      label: `${f.failing} cannot become ${f.own}`,
      notes: [
        "`otherwise fail` wraps a failure into the one case of the function's failure type whose single field " +
          "has the failing type.",
      ],
      hint:
        f.call !== undefined
          ? f.holders.length === 0
            ? `Add a case to ${f.own}: \`Database(error: ${f.failing})\`.`
            : `Leave one case of ${f.own} holding ${article(f.failing)} (it has ${f.holders.join(", ")}), or give the work a failure type of its own with one.`
          : f.holders.length === 0
            ? `Add a case to ${f.own}: \`${f.failing.replace(/Error$/, "") || "Wrapped"}(error: ${f.failing})\`, or ` +
              `say which value to fail with: \`otherwise fail with ${f.own}.Case(...)\`.`
            : `Say which: \`otherwise fail with ${f.own}.${f.holders[0]}(error)\`.`,
    }),
    explanation: `A function fails with one declared type. Passing on a failure of another type
(\`otherwise fail\`, or a bare \`fail\` in an \`otherwise\`'s arms) wraps it into the one case of
the function's failure type that holds exactly that type, such as \`Parse(error: ParseError)\`.
When no case holds it, add one; when several do, say which with \`otherwise fail with
AppError.Case(error)\`.`,
    wrong: `type AppError is variant
  Network(error: HttpError)
end

function read(text: Text) returns Int or fails with AppError
  let n be text.to_int() otherwise fail
  return n
end`,
    right: `type AppError is variant
  Network(error: HttpError)
  Parse(error: ParseError)
end

function read(text: Text) returns Int or fails with AppError
  let n be text.to_int() otherwise fail
  return n
end`,
  }),

  "E-FAIL-CANNOT": problem<{ problem: "fail with" | "pass on"; owner: Owner; failure: string }>({
    title: "A failure in a function that cannot fail",
    facts: {
      problem:
        "`fail with`: a failure given with `fail with`; `pass on`: a failure passed on with `otherwise fail` or `fail`",
      owner: "the function (or test, or function value) that has no `or fails with`",
      failure: "the type of the failure",
    },
    render: (f) =>
      f.problem === "fail with"
        ? {
            message: `${capitalised(ownerText(f.owner))} cannot fail: it has no \`or fails with\``,
            label: "a failure with nowhere to go",
            hint: `Declare the failure in the signature: \`... or fails with ${f.failure}\`, or handle it here.`,
          }
        : {
            message: `${capitalised(ownerText(f.owner))} cannot fail, so it cannot pass on this ${f.failure}`,
            label: `a ${f.failure} with nowhere to go`,
            hint:
              `Declare the failure in the signature: \`... or fails with ${f.failure}\`, or handle it here with a ` +
              `default value or \`when\` arms.`,
          },
    explanation: `Whether a function can fail, and with what, is part of its signature
(\`... or fails with ParseError\`), so that its callers know they must handle it. A function
without \`or fails with\` cannot fail: a \`fail\` in it, or an \`otherwise fail\` passing a
failure on, has nowhere to go. Declare the failure type, or handle the failure where it happens.`,
    wrong: `function parse(text: Text) returns Int
  let n be text.to_int() otherwise fail
  return n
end`,
    right: `function parse(text: Text) returns Int or fails with ParseError
  let n be text.to_int() otherwise fail
  return n
end`,
  }),

  "E-FAIL-PASS": problem({
    title: "A bare `fail` with no failure being handled",
    facts: {},
    render: () => ({
      message: "A bare `fail` passes on a failure, and there is none being handled here",
      label: "no failure to pass on",
      hint:
        'Give the failure: `fail with AppError.Invalid(reason: "...")`. A bare `fail` belongs in the arms of an ' +
        "`otherwise`.",
    }),
    explanation: `A bare \`fail\` passes on the failure an \`otherwise\` is handling, from inside its
\`when\` arms. Anywhere else there is no failure to pass on: say which failure with
\`fail with VALUE\`.`,
    wrong: `type AppError is variant
  Invalid(reason: Text)
end

function check_age(age: Int) or fails with AppError
  if age < 0
    fail
  end
end`,
    right: `type AppError is variant
  Invalid(reason: Text)
end

function check_age(age: Int) or fails with AppError
  if age < 0
    fail with AppError.Invalid(reason: "negative age")
  end
end`,
  }),

  "E-MATCH-MISSING": problem<{ construct: ArmsOf; missing: string; subject: string }>({
    title: "Arms that do not cover every value",
    facts: {
      construct: "`match`, or `otherwise` (its `when` arms)",
      missing: "a pattern no arm matches, as it would be written",
      subject: "the type of the value matched",
    },
    render: (f) => ({
      message: `This ${f.construct} does not cover every ${coveredWhat(f.construct)}: \`${f.missing}\` is not handled`,
      label: `\`${f.missing}\` not covered`,
      notes: [`The ${coveredWhat(f.construct)} is ${article(f.subject)}.`],
      hint:
        `Add an arm for it: \`when ${f.missing} then ...\`, or \`when _ then ...\` for every other ` +
        `${coveredWhat(f.construct)}.`,
    }),
    explanation: `The arms of a \`match\` (and of an \`otherwise\`) must together cover every value
the subject can have, so that no value falls through at run time, and so that adding a case to
a variant shows every place that must handle it. The message shows one value no arm matches.
Add an arm for it, or \`when _\` for all the others.`,
    wrong: `type Shape is variant
  Circle(radius: Float)
  Empty
end

function area(shape: Shape) returns Float
  match shape
    when Shape.Circle(radius) then return 3.14 * radius * radius
  end
end`,
    right: `type Shape is variant
  Circle(radius: Float)
  Empty
end

function area(shape: Shape) returns Float
  match shape
    when Shape.Circle(radius) then return 3.14 * radius * radius
    when Shape.Empty then return 0.0
  end
end`,
  }),

  "E-MATCH-TOO-COMPLEX": problem<{
    construct: ArmsOf;
    arms: number;
    alone: boolean;
    steps: number;
    programSteps: number;
  }>({
    title: "Arms too complex to check for missing cases",
    facts: {
      construct: "`match`, or `otherwise` (its `when` arms)",
      arms: "how many arms it has",
      alone:
        "true when this one match needs more than its own steps; false when the program's matches together ran out",
      steps: "the steps one match may take",
      programSteps: "the steps all the matches of a program may take together",
    },
    render: (f) => ({
      message: f.alone
        ? `This ${f.construct} is too complex to check for missing cases: its ${plural(f.arms, "arm")} need more ` +
          `than ${steps(f.steps)} steps`
        : `This ${f.construct} (${plural(f.arms, "arm")}) cannot be checked for missing cases: with the ones ` +
          `before it, this program's matches need more than ${steps(f.programSteps)} steps`,
      label: "too complex to check",
      notes: [
        f.alone
          ? `Checking that arms cover every value can take time that grows exponentially with their number; each ` +
            `${f.construct} may take ${steps(f.steps)} steps, and a program's matches ${steps(f.programSteps)} ` +
            `together.`
          : `Each match may take ${steps(f.steps)} steps, and a program's matches ${steps(f.programSteps)} together.`,
      ],
      hint: "Split it: match on one field or part first, then on the rest in a nested `match` or a helper function.",
    }),
    explanation: `Checking that arms cover every value can take time that grows exponentially with
the number of arms whose patterns cross each other (each fixing a few of many fields). So that
no program can make checking slow, each match may take a million steps and a program's matches
ten million together; a match past that is refused rather than left unchecked. Split it: match
on one field first, then on the rest in nested matches or helper functions.`,
    wrong: tooComplexMatch(),
    right: `type Flags is record
  fast: Boolean
  safe: Boolean
end

function pick(flags: Flags) returns Int
  return match flags
    when Flags(fast: true, safe: true) then 0
    when Flags(fast: true) then 1
    when _ then 2
  end
end`,
  }),

  "E-MATCH-REFUTABLE": problem<{ type: string; binding: "let" | "for each" }>({
    title: "A `let` or `for each` pattern that does not match every value",
    facts: {
      type: "the type of the value bound",
      binding: "`let` or `for each`",
    },
    render: (f) => ({
      message: `This pattern does not match every ${f.type}, and \`${f.binding}\` has no way to handle the rest`,
      label: "some values do not match",
      hint: "Use `match` with an arm for the other values.",
    }),
    explanation: `A pattern in \`let\` or \`for each\` takes a value apart; it must match every value
of its type, because there is no other arm to go to when it does not. \`let [head, ...rest] be
items\` fails on an empty list, for example. Use \`match\`, with an arm for the other values.`,
    wrong: `function first(items: List<Int>) returns Int
  let [head, ...rest] be items
  return head
end`,
    right: `function first(items: List<Int>) returns Int
  match items
    when [head, ...rest] then return head
    when [] then return 0
  end
end`,
  }),

  "W-MATCH-UNREACHABLE": problem({
    title: "An arm no value can reach",
    facts: {},
    render: () => ({
      message: "This arm can never be reached: the arms above match every value it would",
      label: "unreachable",
      hint: "Remove it, or move it above the arm that catches its values.",
    }),
    explanation: `Arms are tried in order, and the first that matches wins. An arm after others
that already match all its values never runs: usually a more general arm (\`when _\`) was put
before a particular one. Move the particular arm up, or remove it.`,
    wrong: `function sign(n: Int) returns Text
  match n
    when 0 then return "zero"
    when _ then return "other"
    when 1 then return "one"
  end
end`,
    right: `function sign(n: Int) returns Text
  match n
    when 0 then return "zero"
    when 1 then return "one"
    when _ then return "other"
  end
end`,
  }),
};

function tooComplexMatch(): string {
  const fields = Array.from({ length: 14 }, (_, i) => `  f${i}: Boolean`).join("\n");
  const arms = CROSSING_ARMS.map((fixed, i) => `    when Flags(${fixed}) then ${i}`).join("\n");
  return (
    `type Flags is record\n${fields}\nend\n\nfunction pick(flags: Flags) returns Int\n  return match flags\n` +
    `${arms}\n    when _ then -1\n  end\nend`
  );
}
