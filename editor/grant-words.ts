// Capabilities, budgets and guards put in words, for a hover over a `needs`
// line: what a capability lets a program do (spec/types.md, section 6; spec/
// effects.md, section 4), what `at most 30 per minute` holds it to (spec/
// effects.md, section 3) and where `only to ...` lets its data go (spec/
// runtime.md, section 9). Each text starts with the item as a `needs` line
// writes it (vocabulary/needs.ts), so that the words are about that item.

import { capabilityInfo } from "../vocabulary/capabilities.js";
import { needText, type Budget, type Need } from "../vocabulary/needs.js";

/** What a capability lets a program do, by its path, without a scope and then narrowed by one. */
const MEANINGS: Readonly<Record<string, { all: string; scoped?: (scope: string) => string }>> = {
  console: { all: "print lines to standard output and standard error, and read lines from standard input" },
  time: { all: "read the clock (`time.now`, `time.today`) and wait (`time.sleep`)" },
  random: { all: "draw random numbers, choices, shuffles and UUIDs" },
  environment: {
    all: "read any environment variable",
    scoped: (s) => `read the environment variable ${s}`,
  },
  network: { all: "reach the network: make HTTP requests to any host and listen on any port" },
  "network.http": {
    all: "make HTTP requests to any host",
    scoped: (s) =>
      s.startsWith("*.")
        ? `make HTTP requests to the hosts under ${s.slice(2)} (not ${s.slice(2)} itself)`
        : `make HTTP requests to the host ${s}${s.includes(":") ? "" : " (on any port)"}`,
  },
  "network.socket": { all: "listen on any port", scoped: (s) => `listen on port ${s}` },
  filesystem: { all: "read and write files, and open databases, at any path" },
  "filesystem.read": {
    all: "read files and list folders",
    scoped: (s) => `read files and list folders beneath ${s}`,
  },
  "filesystem.write": {
    all: "write, append to and remove files",
    scoped: (s) => `write, append to and remove files beneath ${s}`,
  },
  "filesystem.database": {
    all: "open SQLite databases and query them",
    scoped: (s) => `open the SQLite database ${s} and query it`,
  },
  process: { all: "run other programs", scoped: (s) => `run the program ${s}` },
  foreign: { all: "call functions of foreign modules", scoped: (s) => `call functions of the foreign module ${s}` },
  python: { all: "call Python modules (reserved: refused when a program runs)" },
};

/** `network.http("api.example.com")`: lets the program make HTTP requests to the host api.example.com. */
export function capabilityWords(need: Need): string {
  const path = need.path.join(".");
  const meaning = MEANINGS[path];
  if (meaning === undefined || capabilityInfo(need.path) === undefined) return `\`${path}\` is not a capability`;
  const scope = need.scope === undefined ? undefined : String(need.scope);
  const what = scope !== undefined && meaning.scoped !== undefined ? meaning.scoped(scope) : meaning.all;
  const failure = capabilityInfo(need.path)?.errorType;
  return (
    `\`${needText(need)}\` lets the program ${what}.` +
    (failure === undefined ? "" : ` Its calls fail with \`${failure}\`.`)
  );
}

/** `at most 30 per minute` on `need`. */
export function budgetWords(need: Need, budget: Budget): string {
  const count = `${budget.count} call${budget.count === 1 ? "" : "s"}`;
  const window =
    budget.unit === "run"
      ? "in the whole run"
      : `in any ${budget.unit} (a sliding window: the calls of the last ${budget.unit} count)`;
  return (
    `At most ${count} through \`${needText(need)}\` ${window}. A call over the budget is not made: ` +
    "it fails with its module's `OverBudget` case. Every budget whose capability covers a call counts it."
  );
}

/** `only to console or network.http("x")` on `need`. */
export function guardWords(need: Need, sinks: readonly Need[]): string {
  const where = sinks.map((s) => `\`${needText(s)}\``).join(" or ");
  return (
    `Data read through \`${needText(need)}\` is guarded: it may go only to ${where}. ` +
    "A call that would send it, or anything computed from it, anywhere else is refused when the program runs."
  );
}
