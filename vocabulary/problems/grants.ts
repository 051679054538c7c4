// Capabilities, needs, grant clauses and purposes (E-CAP-*, E-PURPOSE-*, W-GUARD-*).

import type { ScopeKind } from "../capabilities.js";
import { problem } from "./entry.js";

/**
 * Whose needs (or failures) a problem is about: a named function, a test, or a
 * function value written inside one (`function(...) needs ... end`).
 */
export type Owner =
  | { readonly kind: "function"; readonly name: string }
  | { readonly kind: "test" }
  | { readonly kind: "function value" };

/** `\`greet\``, `this test`, `this function`: the owner as a sentence names it. */
export function ownerText(owner: Owner): string {
  return owner.kind === "function" ? `\`${owner.name}\`` : owner.kind === "test" ? "this test" : "this function";
}

export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const code = (texts: readonly string[]): string => texts.map((t) => `\`${t}\``).join(", ");

const SCOPE_WORD: Readonly<Record<Exclude<ScopeKind, "none" | "port">, { word: string; example: string }>> = {
  host: { word: "host", example: '"api.example.com"' },
  path: { word: "path", example: '"data"' },
  name: { word: "name", example: '"NAME"' },
};

export const GRANT_PROBLEMS = {
  "E-CAP-MISSING": problem<
    | { problem: "call"; callee: string; need: string; owner: Owner; granted: string[]; scoped?: string }
    | { problem: "function value"; need: string; owner: Owner }
  >({
    title: "A call needs a capability its function does not have",
    facts: {
      problem:
        "`call`: a call needs the capability; `function value`: a function value declares needs its definition lacks",
      callee: "the function called, as written (`console.print`)",
      need: "the capability needed, in its text form (`console`, `network.http`)",
      owner: "whose `needs` line lacks it: a function (with its name), a test, or a function value",
      granted: "the capabilities the owner's `needs` line has",
      scoped: 'for a capability that takes a scope, an example with one (`network.http("api.example.com")`)',
    },
    render: (f) =>
      f.problem === "call"
        ? {
            message: `\`${f.callee}\` needs \`${f.need}\`, which the needs of ${ownerText(f.owner)} do not cover`,
            label: `needs ${f.need}`,
            notes: [
              f.granted.length === 0
                ? `${capitalised(ownerText(f.owner))} has no \`needs\` line, so it may use no capability.`
                : `${capitalised(ownerText(f.owner))} needs ${code(f.granted)}.`,
            ],
            hint:
              `Add \`${f.need}\` to the \`needs\` line of ` +
              `${ownerText(f.owner)}${f.scoped === undefined ? "" : `, with a scope if you know it: \`${f.scoped}\``}.`,
          }
        : {
            message: `This function needs \`${f.need}\`, which the needs of ${ownerText(f.owner)} do not cover`,
            hint: `Add \`${f.need}\` to the \`needs\` line of ${ownerText(f.owner)}.`,
          },
    explanation: `A Renyi program has no ambient authority: a function may use a capability
(the console, the network, the file system...) only if its \`needs\` line says so, and a call
of a function that needs a capability passes that need on to its caller. So the needs of
\`main\` are the whole program's grant, and a reviewer reads what a program can do from one line.

Add the capability to the \`needs\` line of the function that makes the call (an editor can do
it for you), and to the needs of its callers up to \`main\`. A capability that takes a scope can
be narrowed: \`network.http("api.example.com")\` allows that host only.`,
    wrong: `function greet(name: Text)
  console.print("Hello, {name}")
end`,
    right: `function greet(name: Text)
  needs console
  console.print("Hello, {name}")
end`,
  }),

  "E-CAP-UNKNOWN": problem<{ capability: string; known: string[]; suggestion?: string }>({
    title: "A `needs` line, or a test's `unused`, names something that is not a capability",
    facts: {
      capability: "the path written (`networking.http`)",
      known: "every capability of the language",
      suggestion: "the known capability closest to what was written, if one is close",
    },
    render: (f) => ({
      message: `\`${f.capability}\` is not a capability`,
      label: "unknown capability",
      notes: [`The capabilities are ${code(f.known)}.`],
      ...(f.suggestion === undefined ? {} : { hint: `Did you mean \`${f.suggestion}\`?` }),
    }),
    explanation: `The capabilities form a fixed tree (\`network\` holds \`network.http\` and
\`network.socket\`, \`filesystem\` holds \`read\`, \`write\` and \`database\`, and so on): a
program cannot invent one, because the runtime's gateway only knows how to grant and check
these. Use one of the names listed, usually the closest to what was written.`,
    wrong: `public function main()
  purpose: Fetch something.
  needs networking.http("api.example.com")
end`,
    right: `public function main()
  purpose: Fetch something.
  needs network.http("api.example.com")
end`,
  }),

  "E-CAP-SCOPE": problem<{ capability: string; wanted: ScopeKind }>({
    title: "A capability's scope is of the wrong kind",
    facts: {
      capability: "the capability scoped (`network.socket`)",
      wanted: "the kind of scope it takes: `none`, `port`, `host`, `path` or `name`",
    },
    render: (f) => ({
      message: `This scope does not fit: ${
        f.wanted === "none"
          ? `\`${f.capability}\` takes no scope`
          : f.wanted === "port"
            ? `\`${f.capability}\` is scoped by a port number, such as \`network.socket(8080)\``
            : `\`${f.capability}\` is scoped by a ${SCOPE_WORD[f.wanted].word} in a text, such as ` +
              `\`${f.capability}(${SCOPE_WORD[f.wanted].example})\``
      }`,
      label: "wrong scope",
    }),
    explanation: `A scope narrows a capability to part of what it allows: a host for
\`network.http\`, a port number for \`network.socket\`, a path for the file system, a variable's
name for \`environment\`. Each capability takes one kind of scope, and some (\`console\`, \`time\`,
\`random\`) take none. Write the scope the capability takes, or leave it out to allow everything
the capability covers.`,
    wrong: `public function main()
  purpose: Serve on a port.
  needs network.socket("eighty")
end`,
    right: `public function main()
  purpose: Serve on a port.
  needs network.socket(8080)
end`,
  }),

  "E-CAP-HOST": problem<{ capability: string; host: string; ascii?: string }>({
    title: "A host not written as the network spells it",
    facts: {
      capability: "the capability scoped (`network.http`)",
      host: "the host as written, with its characters beyond ASCII escaped (`\\u0430`)",
      ascii: "the same host as the network spells it (its punycode form, `xn--...`), when it has one",
    },
    render: (f) => ({
      message:
        `The host \`${f.host}\` has characters beyond ASCII: a host in \`needs\` is written as the network spells ` +
        `it`,
      label: "not ASCII",
      notes: [
        "A letter of another script can look exactly like a Latin one (the Cyrillic `а` and the Latin `a`), so a " +
          "host written with it reads as another host to whoever approves the grant.",
      ],
      hint:
        f.ascii === undefined
          ? "Write the host in ASCII letters, digits, `-` and `.`."
          : `Write \`${f.capability}("${f.ascii}")\`, the host as the network spells it.`,
    }),
    explanation: `A host in a \`needs\` line (\`network.http("api.example.com")\`, and in a guard's \`only to\`) is
compared with the hosts the person allows (\`--allow-host\`, \`renyi mcp\`'s ceiling) and shown to
them when they are asked to approve a grant. Letters of other scripts can look exactly like Latin
ones: \`api.ex\u0430mple.com\`, with a Cyrillic \`\u0430\`, is another host than \`api.example.com\` (the
network knows it as \`api.xn--exmple-4nf.com\`) but reads the same. So a host is written as the
network spells it, in ASCII: a name with letters beyond ASCII in its punycode form (\`xn--\`),
which the edit writes for you.`,
    wrong: `public function main()
  purpose: Fetch something.
  needs network.http("api.ex\u0430mple.com")
end`,
    right: `public function main()
  purpose: Fetch something.
  needs network.http("api.example.com")
end`,
  }),

  "E-CAP-GRANT-CLAUSE": problem<{ clause: "budget" | "guard"; place: "function" | "type" }>({
    title: "A budget or a guard outside `main` and tests",
    facts: {
      clause: "`budget` (`at most N per UNIT`) or `guard` (`only to ...`)",
      place: "where it was written: the `needs` of a `function`, or of a function `type`",
    },
    render: (f) => {
      const clause = f.clause === "budget" ? "`at most N per UNIT`" : "`only to`";
      return {
        message: `A ${f.clause} belongs on \`main\` or a test, not on ${f.place === "type" ? "a function type" : "this function"}`,
        label: `${clause} is not allowed here`,
        notes: [
          `A ${f.clause} is a property of the whole run, like the grant: it is declared where the run starts, so ` +
            `a reviewer reads it in one place.`,
        ],
        hint:
          `Move ${clause} to the matching capability in the \`needs\` line of \`main\` (or of the test), and keep ` +
          `the capability here without it.`,
      };
    },
    explanation: `Budgets (\`at most 60 per minute\`) and guards (\`only to console\`) limit a
whole run, as the grant does, so they are written once, on the \`needs\` line where the run
starts: \`main\`, or a test. A helper function only says which capabilities it uses; the run's
limits apply to its calls all the same. Move the clause to \`main\` (an editor can remove it
from the helper for you).`,
    wrong: `function fetch(url: Text) returns Text or fails with HttpError
  needs network.http("api.example.com") at most 60 per minute
  let response be http.get(url) otherwise fail
  return response.body
end`,
    right: `function fetch(url: Text) returns Text or fails with HttpError
  needs network.http("api.example.com")
  let response be http.get(url) otherwise fail
  return response.body
end`,
  }),

  "E-CAP-REPLAYS-PATH": problem<{ path: string; problem: "absolute" | "climbs" | "folder" | "link" }>({
    title: "A test's recording outside the folder of the test's file",
    facts: {
      path: "the recording's path, as the test's `replays` writes it",
      problem:
        "`absolute` (the path starts at the root or a drive), `climbs` (it holds `..`), `folder` (it names the " +
        "folder itself, not a file in it), or `link` (written beneath the folder, it leads outside it through a " +
        "symbolic link: found when the test runs, and the test fails)",
    },
    render: (f) => ({
      message:
        f.problem === "link"
          ? `the recording "${f.path}" leads outside the folder of the test's file through a symbolic link`
          : f.problem === "folder"
            ? `the recording's path "${f.path}" names the folder of the test's file, not a file beneath it`
            : `the recording's path "${f.path}" leaves the folder of the test's file: ` +
              `${f.problem === "absolute" ? "it is absolute" : "it climbs out with `..`"}`,
      label: "a path beneath the test's folder",
      notes: [
        "A test reads its recording, and `renyi test --refresh` writes it, only beneath the folder of the test's " +
          "own file: a test names no other file of the machine. Nothing is said of whether that file exists or " +
          "what it holds.",
      ],
      hint:
        "Keep the recording beside the test or in a folder below it, for example " +
        '`replays "fixtures/weather/berlin.json"`, and copy a recording made elsewhere there.',
    }),
    explanation: `A test that \`replays\` a recording reads it before it runs, quotes what it finds
wrong in it, and \`renyi test --refresh\` writes it again from a live run of the test's body.
A test is code, written by whoever wrote the program, so the path it names is kept beneath
the folder of the test's own file: one that is absolute or climbs with \`..\` is refused by
the checker, before anything runs, and one that leads outside through a symbolic link (the
folder's real path, and the file's, compared) fails its test where the recording would be
opened, read or written. The refusal says nothing of the file outside: not whether it exists,
not what it holds.`,
    wrong: `test "the forecast is read" needs console replays "../recordings/berlin.json"
  console.print("Berlin")
end`,
    right: `test "the forecast is read" needs console replays "fixtures/berlin.json"
  console.print("Berlin")
end`,
  }),

  "E-CAP-REPLAYS-CALLS": problem<{ first: number; last: number; problem: "zero" | "backwards" }>({
    title: "A test's `calls N to M` that names no part of a recording",
    facts: {
      first: "the first sequence number written",
      last: "the last sequence number written",
      problem:
        "`zero` (a number below 1: a recording's calls are numbered from 1) or `backwards` (the last number is " +
        "below the first)",
    },
    render: (f) => ({
      message:
        f.problem === "backwards"
          ? `\`calls ${f.first} to ${f.last}\` runs backwards: its last call comes before its first`
          : `\`calls ${f.first} to ${f.last}\` names call 0, and a recording numbers its calls from 1`,
      label: "the first and the last call, in order",
      hint:
        "Write the first and the last sequence number of the calls that are the test's, first the smaller: " +
        '`replays "fixtures/weather/berlin.json" calls 1 to 3`; one call is `calls 2 to 2`.',
    }),
    explanation: `\`calls N to M\` after a test's recording makes the calls numbered N to M (both
included) the whole of what the test replays: the other entries are not the test's, neither
answered nor counted as unused by \`renyi test --strict\`. The numbers are the recording's
\`sequence\` numbers, which start at 1, so a range that starts below 1 or ends before it starts
names nothing. Whether the recording holds the calls named is known when the test runs, and a
range it does not hold fails the test (\`E-RT-RECORDING\`).`,
    wrong: `test "the forecast is read" needs console replays "fixtures/berlin.json" calls 3 to 1
  console.print("Berlin")
end`,
    right: `test "the forecast is read" needs console replays "fixtures/berlin.json" calls 1 to 3
  console.print("Berlin")
end`,
  }),

  "E-CAP-BUDGET": problem<{ problem: "takes none" | "zero"; capability: string }>({
    title: "A budget that cannot count anything",
    facts: {
      problem: "`takes none`: the capability takes no budget; `zero`: the budget allows no call",
      capability: "the capability the budget is on",
    },
    render: (f) =>
      f.problem === "takes none"
        ? {
            message: `\`${f.capability}\` takes no budget`,
            label: "a budget here counts nothing",
            notes: [
              "Budgets apply to network, process and filesystem and their children; console, time, random, " +
                "environment, foreign and python take none.",
            ],
          }
        : {
            message: "A budget of 0 allows no call at all",
            hint: `Leave \`${f.capability}\` out of the \`needs\` line instead.`,
          },
    explanation: `A budget counts the calls a run may make through a capability in a span of
time. Only the capabilities whose calls cost something outside the program (the network,
processes, the file system) take one. A budget of 0 would allow no call: leave the capability
out of the grant instead.`,
    wrong: `public function main()
  purpose: Print a greeting.
  needs console at most 10 per minute
  console.print("hello")
end`,
    right: `public function main()
  purpose: Print a greeting.
  needs console
  console.print("hello")
end`,
  }),

  "E-CAP-QUERY-CLAUSE": problem<{ clause: string; capability: string }>({
    title: "A query clause other than `select` uses a capability",
    facts: {
      clause: "the clause (`where`, `order by`, `group by`...)",
      capability: "the first capability a call in it uses",
    },
    render: (f) => ({
      message: `The \`${f.clause}\` clause of a query uses \`${f.capability}\`, but only \`select\` may use capabilities`,
      label: "an effect in a query clause",
      notes: ["The clauses before `select` run for every row, in an order the query decides; they must be pure."],
      hint: "Compute the value in `select`, or before the query with its own `otherwise`.",
    }),
    explanation: `A query decides itself how often and in which order its clauses run (it may
filter before it sorts, or run \`select\` concurrently), so the clauses before \`select\` must be
pure: an effect there would happen a number of times nobody wrote. Make the effectful call in
\`select\`, or before the query.`,
    wrong: `function lucky(items: List<Int>) returns List<Int>
  needs random
  return from i in items where random.integer(0, 1) is 1 select i
end`,
    right: `function lucky(items: List<Int>) returns List<Int>
  needs random
  let pick be random.integer(0, 1)
  return from i in items where i mod 2 is pick select i
end`,
  }),

  "E-PURPOSE-MISSING": problem<{ definition: "function" | "type"; name: string }>({
    title: "A public definition has no `purpose:` line",
    facts: {
      definition: "`function` or `type`",
      name: "its name",
    },
    render: (f) => ({
      message: `The public ${f.definition} \`${f.name}\` has no \`purpose:\` line`,
      label: "public, without a purpose",
      notes: ["Every public function and type says what it is for; a narrated run (`--explain`) prints it."],
      hint:
        f.definition === "function"
          ? "Add a line after the signature: `purpose: Fetch the forecast for a city.`"
          : `Add a line after \`type ${f.name} is ...\`: \`purpose: What one ${f.name} holds.\``,
    }),
    explanation: `Every public function and type says in one sentence what it is for. The sentence
is part of the program: a narrated run (\`renyi run --explain\`) prints it beside each call, and a
reader of a module's public face learns from it what each part is for. Add a \`purpose:\` line
right after the signature (an editor can insert one for you to fill in).`,
    wrong: `public function origin() returns Int
  return 0
end`,
    right: `public function origin() returns Int
  purpose: The first position of a line.
  return 0
end`,
  }),

  "W-GUARD-NO-SINK": problem<{ capability: string; sinks: string[] }>({
    title: "A guard whose data can go nowhere",
    facts: {
      capability: "the guarded capability (its data is guarded)",
      sinks: "the sinks the guard allows, none of which the grant has",
    },
    render: (f) => ({
      message: "No sink of this guard is in the grant, so its data can never leave",
      label: "guarded data can go nowhere",
      notes: ["A guard lets data through only to its sinks, and a sink is used only if the grant also allows it."],
      hint:
        `Add a sink to the \`needs\` line, for example ${code(f.sinks)}, or remove the guard if that is what you ` +
        `meant.`,
    }),
    explanation: `A guard (\`filesystem.read("secrets") only to network.http("vault.example.com")\`)
lets data read through a capability leave the program only through the sinks it names. A sink
is used only if the grant allows it too: when none is in the grant, the guarded data can reach
no output at all, which is rarely what was meant. Add a sink to the \`needs\` line, or remove
the guard.`,
    wrong: `public function main()
  purpose: Read a secret that can go nowhere.
  needs console, filesystem.read("secrets") only to network.http("api.example.com")
  console.print("done")
end`,
    right: `public function main()
  purpose: Read a secret and send it to one host.
  needs console, network.http("api.example.com"), filesystem.read("secrets") only to network.http("api.example.com")
  console.print("done")
end`,
  }),
};
