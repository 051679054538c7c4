// A grant in words: what each capability lets a program do, and a `needs` line
// read out as a sentence ("may print to the console; may reach api.example.com
// over HTTP and HTTPS, at most 30 a minute"). The one wording of capabilities,
// budgets and guards for people, so that an editor's lens, a completion's
// documentation and any command that puts a grant in words say the same.

import { knownCapabilities } from "./capabilities.js";
import { needText, type Budget, type GrantItem, type Need } from "./needs.js";

interface CapabilityWords {
  /** What it lets a program do, without a scope: the documentation of the capability. */
  readonly meaning: string;
  /** The phrase after "may", with its scope when it has one. */
  readonly phrase: (scope: string | number | undefined) => string;
  /** The place it names, as the sink of a guard: `the console`, `api.example.com`. */
  readonly sink: (scope: string | number | undefined) => string;
}

const quoted = (scope: string | number): string => (typeof scope === "number" ? String(scope) : scope);

const WORDS: Readonly<Record<string, CapabilityWords>> = {
  console: {
    meaning: "Print lines to standard output and standard error, and read lines from standard input.",
    phrase: () => "print to the console",
    sink: () => "the console",
  },
  time: {
    meaning: "Read the clock (today's date, the time now) and wait.",
    phrase: () => "read the clock and wait",
    sink: () => "the clock",
  },
  random: {
    meaning: "Draw random numbers, choices and identifiers.",
    phrase: () => "draw random numbers",
    sink: () => "random numbers",
  },
  environment: {
    meaning: "Read the process's environment variables; with a scope, only the one named.",
    phrase: (s) => (s === undefined ? "read any environment variable" : `read the environment variable ${quoted(s)}`),
    sink: (s) => (s === undefined ? "the environment" : `the environment variable ${quoted(s)}`),
  },
  network: {
    meaning: "Every kind of network call: HTTP requests to any host and listening on any port.",
    phrase: () => "use the network, every host and port",
    sink: () => "the network",
  },
  "network.http": {
    meaning: "Send HTTP and HTTPS requests; with a scope, only to the host named (`*.example.com` for its subdomains).",
    phrase: (s) => (s === undefined ? "reach any host over HTTP and HTTPS" : `reach ${quoted(s)} over HTTP and HTTPS`),
    sink: (s) => (s === undefined ? "any host" : quoted(s)),
  },
  "network.socket": {
    meaning: "Listen for requests as a server; with a scope, only on the port named.",
    phrase: (s) => (s === undefined ? "answer requests on any port" : `answer requests on port ${quoted(s)}`),
    sink: (s) => (s === undefined ? "a server on any port" : `a server on port ${quoted(s)}`),
  },
  filesystem: {
    meaning: "Read and write files and open databases anywhere.",
    phrase: () => "read and write any file",
    sink: () => "any file",
  },
  "filesystem.read": {
    meaning: "Read files and list folders; with a scope, only under the path named.",
    phrase: (s) => (s === undefined ? "read any file" : `read files under ${quoted(s)}`),
    sink: (s) => (s === undefined ? "reading any file" : `reading files under ${quoted(s)}`),
  },
  "filesystem.write": {
    meaning: "Write, append to and remove files; with a scope, only under the path named.",
    phrase: (s) => (s === undefined ? "write any file" : `write files under ${quoted(s)}`),
    sink: (s) => (s === undefined ? "any file" : `files under ${quoted(s)}`),
  },
  "filesystem.database": {
    meaning: "Open and query SQLite databases; with a scope, only the one at the path named.",
    phrase: (s) => (s === undefined ? "open any database" : `open the database ${quoted(s)}`),
    sink: (s) => (s === undefined ? "any database" : `the database ${quoted(s)}`),
  },
  process: {
    meaning: "Run other programs; with a scope, only the program named.",
    phrase: (s) => (s === undefined ? "run any program" : `run the program ${quoted(s)}`),
    sink: (s) => (s === undefined ? "any program" : `the program ${quoted(s)}`),
  },
  foreign: {
    meaning: "Call functions of a JavaScript module; with a scope, only the module named.",
    phrase: (s) => (s === undefined ? "call any JavaScript module" : `call the JavaScript module ${quoted(s)}`),
    sink: (s) => (s === undefined ? "any JavaScript module" : `the JavaScript module ${quoted(s)}`),
  },
  python: {
    meaning: "Reserved for Python modules: known, and refused when a program runs.",
    phrase: (s) => (s === undefined ? "call Python" : `call the Python module ${quoted(s)}`),
    sink: (s) => (s === undefined ? "Python" : `the Python module ${quoted(s)}`),
  },
};

/** What a capability (`network.http`) lets a program do, or undefined for a name that is none. */
export function capabilityMeaning(capability: string): string | undefined {
  return Object.hasOwn(WORDS, capability) ? WORDS[capability]!.meaning : undefined;
}

/** The capabilities that have words: every capability of the tree (tests hold the two lists together). */
export function capabilitiesInWords(): string[] {
  return knownCapabilities().filter((c) => Object.hasOwn(WORDS, c));
}

/** `print to the console`, `reach api.example.com over HTTP and HTTPS`; an unknown capability by its text. */
export function needInWords(need: Need): string {
  const name = need.path.join(".");
  return Object.hasOwn(WORDS, name) ? WORDS[name]!.phrase(need.scope) : `use ${needText(need)}`;
}

const UNIT_WORDS: Readonly<Record<Budget["unit"], string>> = {
  second: "a second",
  minute: "a minute",
  hour: "an hour",
  day: "a day",
  run: "in the whole run",
};

/** `at most 30 a minute`, `at most 5 in the whole run`. */
export function budgetInWords(budget: Budget): string {
  return `at most ${budget.count} ${UNIT_WORDS[budget.unit]}`;
}

/** `the console`, `api.example.com`: a guard's sink as a place. */
function sinkInWords(need: Need): string {
  const name = need.path.join(".");
  return Object.hasOwn(WORDS, name) ? WORDS[name]!.sink(need.scope) : needText(need);
}

/** `what comes from it may go only to the console or api.example.com`: where guarded data may go. */
export function guardInWords(sinks: readonly Need[]): string {
  return `what comes from it may go only to ${sinks.map(sinkInWords).join(" or ")}`;
}

/** One grant item: `reach api.example.com over HTTP and HTTPS, at most 30 a minute`. */
function grantItemInWords(item: GrantItem): string {
  let out = needInWords(item);
  if (item.budget) out += `, ${budgetInWords(item.budget)}`;
  if (item.guard) out += `, and ${guardInWords(item.guard.sinks)}`;
  return out;
}

/** A whole grant: `may print to the console; may reach ...`, or that it may reach nothing. */
export function grantInWords(items: readonly GrantItem[]): string {
  if (items.length === 0) return "reaches nothing outside itself";
  return items.map((item) => `may ${grantItemInWords(item)}`).join("; ");
}
