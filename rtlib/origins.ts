// Origins on values (spec/runtime.md, "Origins on values"): the one module through
// which the operators of compiled code, the library and the gateway see guarded
// data. A run's guards are the capabilities of its declared grant that carry
// `only to`, in declaration order; a guard's position is its bit. A value read
// through a guarded capability, and every value computed from it, is wrapped
// outermost in a Guarded holding the set of its origins; a list, map, set,
// pair or record holds plain items and carries the union of their origins on
// its own wrapper. Nothing, Booleans and functions never carry origins.

import { dirname, join as joinPath, resolve } from "node:path";
import { fsPromises } from "./builtins.js";
import { addressesOf, resolvedLocally, splitHost, type Addresses } from "./host-addresses.js";
import { capabilityInfo, covers } from "../vocabulary/capabilities.js";
import { needText, type GrantItem, type Need } from "../vocabulary/needs.js";

/** The most guards a run may have: two 32-bit masks. */
export const MAX_GUARDS = 64;

/**
 * A set of guards, as two 32-bit masks. Sets are interned (one object per
 * distinct set), so that the union of a set with itself, the common case in a
 * loop over one guarded source, is one comparison, and every other union is
 * computed once and then looked up.
 */
export class Origins {
  private static readonly known = new Map<string, Origins>();
  private readonly unions = new Map<Origins, Origins>();

  private constructor(
    readonly lo: number,
    readonly hi: number,
  ) {}

  static of(lo: number, hi: number): Origins {
    const key = `${lo >>> 0}:${hi >>> 0}`;
    let found = Origins.known.get(key);
    if (found === undefined) {
      found = new Origins(lo >>> 0, hi >>> 0);
      Origins.known.set(key, found);
    }
    return found;
  }

  /** The set of one guard. */
  static bit(index: number): Origins {
    return index < 32 ? Origins.of((1 << index) >>> 0, 0) : Origins.of(0, (1 << (index - 32)) >>> 0);
  }

  union(other: Origins): Origins {
    if (other === this) return this;
    let found = this.unions.get(other);
    if (found === undefined) {
      found = Origins.of(this.lo | other.lo, this.hi | other.hi);
      this.unions.set(other, found);
    }
    return found;
  }

  /** The guards in the set, by their position. */
  indices(): number[] {
    const out: number[] = [];
    for (let i = 0; i < 32; i++) if ((this.lo >>> i) & 1) out.push(i);
    for (let i = 0; i < 32; i++) if ((this.hi >>> i) & 1) out.push(32 + i);
    return out;
  }
}

/** A value with origins: always outermost, its value always plain. */
export class Guarded {
  /** On the prototype: what compiled code tests a record for (recordIsGuarded in compiler/lower/guarded.ts). */
  declare readonly guarded$: true;
  constructor(
    readonly value: unknown,
    readonly origins: Origins,
  ) {}
}
Object.defineProperty(Guarded.prototype, "guarded$", { value: true });

/** The value without its origins. */
export function plain(value: unknown): unknown {
  return value instanceof Guarded ? value.value : value;
}

/** The origins a value carries, if any. */
export function originsOf(value: unknown): Origins | undefined {
  return value instanceof Guarded ? value.origins : undefined;
}

/** The union of two sets of origins, either of which may be none. */
export function join(a: Origins | undefined, b: Origins | undefined): Origins | undefined {
  if (a === undefined) return b;
  if (b === undefined || a === b) return a;
  return a.union(b);
}

/** The union of the origins of every value in `values`. */
export function joinAll(values: readonly unknown[]): Origins | undefined {
  let origins: Origins | undefined;
  for (const v of values) if (v instanceof Guarded) origins = join(origins, v.origins);
  return origins;
}

/**
 * `value` carrying `origins` as well as its own. Nothing carries none (it has one
 * value); a Boolean does, since a decision on it is how data is chosen, counted or
 * found, and so does a function, which a decision may have chosen (spec/runtime.md,
 * "Decisions on guarded data").
 */
export function tag(value: unknown, origins: Origins | undefined): unknown {
  if (origins === undefined) return value;
  if (value instanceof Guarded)
    return value.origins === origins || join(value.origins, origins) === value.origins
      ? value
      : new Guarded(value.value, join(value.origins, origins)!);
  if (value === null || value === undefined) return value;
  return new Guarded(value, origins);
}

// ---- the origins of the decisions the running code is inside ----
//
// The program counter's origins (the "pc" of information-flow systems): what the
// decisions on guarded data that the running code is inside were made from. An
// effect made under them is checked with them; a value returned, failed with or
// assigned in an arm carries them (the compiler emits the joins).

/**
 * Where the decisions that could make a failure happen are gathered: an `otherwise`
 * that goes on after a failure opens one, and its value and everything its handler
 * may assign carry what was gathered, whichever way it went. The root gathers
 * nothing: a failure that reaches no such `otherwise` ends the run.
 */
export class Cell {
  origins: Origins | undefined = undefined;
  /** The contexts of this cell, one per set of origins: a decision made again on the same data allocates nothing. */
  private contexts: Map<Origins | undefined, Context> | undefined;
  constructor(readonly parent: Cell | undefined) {}

  /** The context of code running under `pc` whose failures' decisions gather here. */
  context(pc: Origins | undefined): Context {
    this.contexts ??= new Map();
    let found = this.contexts.get(pc);
    if (found === undefined) {
      found = new Context(pc, this);
      this.contexts.set(pc, found);
    }
    return found;
  }

  /** Adds origins here and in every enclosing cell but the root. */
  add(origins: Origins | undefined): void {
    if (origins === undefined) return;
    for (let c: Cell | undefined = this; c !== undefined && c !== ROOT_CELL; c = c.parent)
      c.origins = join(c.origins, origins);
  }
}
export const ROOT_CELL = new Cell(undefined);

/** The running code's decisions: the origins it runs under, and the cell its failures' decisions go to. Immutable. */
export class Context {
  /**
   * The last decision made in this context, and the context it raised: a decision made again on the same data looks
   * nothing up.
   */
  lastBy: Origins | undefined = undefined;
  lastRaised: Context | undefined = undefined;
  constructor(
    readonly pc: Origins | undefined,
    readonly cell: Cell,
  ) {}
}
const ROOT_CONTEXT = ROOT_CELL.context(undefined);

/**
 * The context of the code running now. Each function of a program with guards keeps
 * its own in a local and sets it back here wherever it resumes (after an await, in a
 * catch, at a task's start), as it does the call depth: tasks interleave. `decided`:
 * the origins of every decision on guarded data the run has made, in any task: what
 * reading the clock, a budget's count and the run's own end can tell of (spec/runtime.md,
 * "Decisions on guarded data"). `read`: the guards whose data the run has read at all: what
 * its step count and a test's verdict can tell of.
 */
export const flow: { cx: Context; decided: Origins | undefined; read: Origins | undefined } = {
  cx: ROOT_CONTEXT,
  decided: undefined,
  read: undefined,
};

// ---- the run's guards ----

/** A guard: a capability of the declared grant that carries `only to`, and its sinks. */
export interface Guard {
  readonly index: number;
  readonly capability: Need;
  readonly sinks: readonly Need[];
}

// ---- paths, as the file system has them ----
//
// A path's scope as written is not where it leads: `/abs/secrets/key.txt`, a link
// `keylink.txt` to `secrets/key.txt`, or `out/esc/x` with `out/esc` a link out of
// `out`, name files a textual comparison puts on the wrong side of a guard. For
// a call whose capability has a path scope, the guards compare real paths too:
// a guard's capability covers the call when either comparison says so (what is
// read through a link into `secrets` is guarded), and a sink allows it only when
// both do (what is written through a link out of `out` is not allowed there).

/** Whether a capability's scope is a path (filesystem.read, write, database). */
export function pathScoped(need: Need): boolean {
  return need.scope !== undefined && capabilityInfo(need.path)?.scope === "path";
}

/** The real path a scope leads to now: the longest part that exists, its links followed, and the rest as written. */
async function realScope(scope: string): Promise<string> {
  // Loaded by the first call with a path in a run with guards, not when every program starts (builtins.ts).
  const { realpath } = await fsPromises();
  let existing = resolve(scope);
  let rest = "";
  for (;;) {
    try {
      return joinPath(await realpath(existing), rest);
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return resolve(scope);
      rest = rest === "" ? existing.slice(parent.length + 1) : joinPath(existing.slice(parent.length + 1), rest);
      existing = parent;
    }
  }
}

/** The real paths of the guards' and their sinks' path scopes, read once, at the run's first call with a path. */
const realScopes = new Map<string, string>();
let realScopesRead: Promise<void> | undefined;

/**
 * Where a call's path scope really leads, the guards' own scopes read first
 * (once): what the gateway compares a call with a path by, in a run with guards.
 */
export async function realScopeOfCall(scope: string): Promise<string> {
  realScopesRead ??= (async () => {
    for (const g of guards) {
      for (const need of [g.capability, ...g.sinks])
        if (pathScoped(need)) realScopes.set(String(need.scope), await realScope(String(need.scope)));
    }
  })();
  await realScopesRead;
  return realScope(scope);
}

/** Whether the real path `real` is the scope's real path or beneath it. */
function realBeneath(real: string, scope: string | number | undefined): boolean {
  if (scope === undefined) return true;
  const root = realScopes.get(String(scope)) ?? resolve(String(scope));
  return real === root || real.startsWith(root.endsWith("/") ? root : `${root}/`);
}

// ---- hosts, as the network has them ----
//
// Likewise a host's name is not where it leads: `localhost`, `127.1` and
// `[::ffff:7f00:1]` all reach 127.0.0.1 (host-addresses.ts). For a call whose
// capability has a host scope, the guards compare addresses too: a guard covers
// the call when its host as written, or any of its addresses, is the guard's
// host or one of its addresses, at the guard's port (what is read through
// another name of a guarded host is guarded); a sink allows it only when its host
// as written is the sink's and every address it has is one of the sink's (what
// is sent through another name is not allowed there).

/** Whether a capability's scope is a host (network.http). */
export function hostScoped(need: Need): boolean {
  return need.scope !== undefined && capabilityInfo(need.path)?.scope === "host";
}

/** A call's host: its name and port as written, and where it leads. */
export interface CallHost {
  readonly port: string | undefined;
  readonly addresses: Addresses;
}

/** The addresses of the guards' and their sinks' hosts, resolved once, at the run's first call with a host. */
const guardHosts = new Map<string, Addresses>();
let guardHostsRead: Promise<void> | undefined;

/**
 * Where a call's host scope leads, the guards' own hosts resolved first (once): what the gateway compares a network
 * call by, in a run with guards.
 */
/**
 * Whether a call's host may be looked up: a name looked up is a question asked of the
 * resolver (and of whoever answers for its domain), so a call that carries guarded
 * data has its name looked up only when it is, as written, the name of a sink's host
 * (or one a sink's wildcard allows): otherwise it is compared as written and refused,
 * its name asked of no one. An IP literal or localhost is read without the network.
 */
export function mayLookUp(scope: string, carriesOrigins: boolean): boolean {
  const { name } = splitHost(scope);
  if (!carriesOrigins || resolvedLocally(name)) return true;
  for (const g of guards) {
    for (const sink of g.sinks) {
      if (!hostScoped(sink)) continue;
      const named = splitHost(String(sink.scope)).name;
      if (named === name || (named.startsWith("*.") && name.endsWith(named.slice(1)))) return true;
    }
  }
  return false;
}

/** A host compared as written: no addresses looked up. */
export function hostAsWritten(scope: string): CallHost {
  return { port: splitHost(scope).port, addresses: new Set() };
}

export async function hostOfCall(scope: string): Promise<CallHost> {
  guardHostsRead ??= (async () => {
    for (const g of guards) {
      for (const need of [g.capability, ...g.sinks]) {
        if (!hostScoped(need)) continue;
        const { name } = splitHost(String(need.scope));
        guardHosts.set(name, await addressesOf(name));
      }
    }
  })();
  await guardHostsRead;
  const { name, port } = splitHost(scope);
  return { port, addresses: await addressesOf(name) };
}

/**
 * Whether a call's host leads to a guard's host at its port: any address in common, or the call's addresses unknown
 * (past the run's bound of names: the worst case).
 */
function hostReaches(host: CallHost, scope: string | number | undefined): boolean {
  if (scope === undefined) return true;
  const guarded = splitHost(String(scope));
  if (guarded.port !== undefined && guarded.port !== host.port) return false;
  if (host.addresses === "unknown") return true;
  const theirs = guardHosts.get(guarded.name);
  if (theirs === undefined || theirs === "unknown") return false;
  for (const address of host.addresses) if (theirs.has(address)) return true;
  return false;
}

/**
 * Whether every address of a call's host is one of a sink's host's (a name that does not resolve: none to compare, as
 * written decides).
 */
function hostWithin(host: CallHost, scope: string | number | undefined): boolean {
  if (scope === undefined || host.addresses === "unknown") return scope === undefined;
  const { name } = splitHost(String(scope));
  // A wildcard names no addresses: the host as written decides (spec/runtime.md, "Limits, stated").
  if (name.startsWith("*.")) return true;
  const theirs = guardHosts.get(name);
  if (theirs === undefined || theirs === "unknown") return host.addresses.size === 0;
  for (const address of host.addresses) if (!theirs.has(address)) return false;
  return true;
}

/** Where a call with a scope leads, read before the check: a path's real path, a host's addresses. */
export interface CallPlace {
  readonly real?: string;
  readonly host?: CallHost;
}

/** Whether a guard's capability covers a call: as written, or, for a path or a host, where it really leads. */
function guardCovers(g: Guard, need: Need, place: CallPlace | undefined): boolean {
  if (covers(g.capability, need)) return true;
  if (place === undefined || !covers({ path: g.capability.path }, { path: need.path })) return false;
  if (place.real !== undefined && pathScoped(g.capability)) return realBeneath(place.real, g.capability.scope);
  if (place.host !== undefined && hostScoped(g.capability)) return hostReaches(place.host, g.capability.scope);
  return false;
}

/** Whether a sink allows a call: as written, and, for a path or a host, where it really leads. */
function sinkAllows(sink: Need, need: Need, place: CallPlace | undefined): boolean {
  if (!covers(sink, need)) return false;
  if (place?.real !== undefined && pathScoped(sink)) return realBeneath(place.real, sink.scope);
  if (place?.host !== undefined && hostScoped(sink)) return hostWithin(place.host, sink.scope);
  return true;
}

let guards: readonly Guard[] = [];

/** The guards of a grant, in declaration order; undefined past MAX_GUARDS (the run is refused). */
export function guardsOf(items: readonly GrantItem[]): Guard[] | undefined {
  const out: Guard[] = [];
  for (const item of items) {
    if (item.guard === undefined) continue;
    out.push({
      index: out.length,
      capability: { path: item.path, ...(item.scope === undefined ? {} : { scope: item.scope }) },
      sinks: item.guard.sinks,
    });
  }
  return out.length > MAX_GUARDS ? undefined : out;
}

/** Sets the run's guards (run-main.ts, before the program's first step; a replay derives them from the grant again). */
export function configureGuards(runGuards: readonly Guard[]): void {
  guards = runGuards;
  redactedNames = new Set();
  flow.cx = ROOT_CONTEXT;
  flow.decided = undefined;
  flow.read = undefined;
  realScopes.clear();
  realScopesRead = undefined;
  guardHosts.clear();
  guardHostsRead = undefined;
}

/**
 * A decision on the data of every guard of the run: what a replay makes when it
 * compares a call with its recording's sealed entries, whose guards are sealed
 * with them (spec/recording.md, "Sealed calls").
 */
export function decideOnEveryGuard(): void {
  let every: Origins | undefined;
  for (const g of guards) every = join(every, Origins.bit(g.index));
  if (every !== undefined) flow.decided = join(flow.decided, every);
}

/** Whether the run has any guard: without one, no value ever carries origins. */
export function guarding(): boolean {
  return guards.length > 0;
}

/**
 * The guards whose capability covers a call's effect: what its result carries. `place`: where a path or a host scope
 * really leads.
 */
export function guardsCovering(need: Need, place?: CallPlace): Origins | undefined {
  let origins: Origins | undefined;
  for (const g of guards) if (guardCovers(g, need, place)) origins = join(origins, Origins.bit(g.index));
  return origins;
}

/** A guard that refuses data of its origin going to `need`: what a refused call names. */
export interface Refusal {
  /** The guarded capability, `filesystem.read("secrets")`. */
  readonly origin: string;
  /** The effect refused, `network.http("evil.example")`. */
  readonly sink: string;
  /** What the guard allows, `network.http("api.example.com") or console`. */
  readonly allows: string;
}

/**
 * The first guard among `origins` none of whose sinks allows `need`, if any. `place`: where a path or a host scope
 * really leads.
 */
export function refusal(origins: Origins | undefined, need: Need, place?: CallPlace): Refusal | undefined {
  if (origins === undefined) return undefined;
  for (const index of origins.indices()) {
    const g = guards[index];
    if (g === undefined) continue;
    if (g.sinks.some((sink) => sinkAllows(sink, need, place))) continue;
    // The sink is named by its capability alone: its scope (a host, a path, a name) may be made of the very data
    // refused.
    return {
      origin: needText(g.capability),
      sink: needText({ path: need.path }),
      allows: g.sinks.map(needText).join(" or "),
    };
  }
  return undefined;
}

/** Where data leaves through the console: the failure main ends with, a crash's message, what a test prints. */
export const CONSOLE_SINK: Need = { path: ["console"] };

/**
 * What a library call of a guarded run carries to the gateway and back: the
 * union of its arguments' origins, checked at every call it makes (each hop of
 * a redirected request), and the guards whose capabilities covered its calls,
 * which its result will carry.
 */
export interface CallOrigins {
  readonly args: Origins | undefined;
  result: Origins | undefined;
  /** Where the call's context gathers what decides whether it fails (a budget spent by earlier calls). */
  readonly cell?: Cell;
  /** What its failure carries besides: the decisions that decided it (a budget spent by earlier calls). */
  failing?: Origins | undefined;
  /** The texts of its arguments that came from a redacted name (a run that redacts), when any did. */
  redactedParts?: ReadonlySet<string>;
}

// ---- redaction: the origin of a value read from a redacted name ----
//
// A run recorded with `--redact NAME` (and the replay of such a recording) gives
// what `environment.get("NAME")` returns, and main's option `--NAME`, an origin
// of its own: the last bit of the set, which no guard of such a run may take.
// It is no guard: it refuses nothing and is kept out of what the run has read
// and decided (the clock and budgets carry none of it). It only tells the
// recorder which parts of a call's arguments came from a redacted name
// (spec/recording.md, "Redaction"), and a replay which of its values may match
// a placeholder that stands for one.

/** The bit of the redacted origin: the last of the 64. */
const REDACTED_HI = 0x80000000;
export const REDACTED_ORIGIN = Origins.of(0, REDACTED_HI);

/** The names the run redacts, in lower case: empty when it redacts none. */
let redactedNames: ReadonlySet<string> = new Set();

/**
 * Sets the names the run redacts (after configureGuards); false when the run has a guard at the redacted origin's bit
 * (64 guards), which it then cannot have.
 */
export function configureRedaction(names: readonly string[]): boolean {
  if (names.length > 0 && guards.length >= MAX_GUARDS) return false;
  redactedNames = new Set(names.map((n) => n.toLowerCase()));
  derivedTexts = [];
  derivedCount = 0;
  return true;
}

/** The most texts computed from a redacted value that a run keeps for the recording to search for. */
const MAX_DERIVED_TEXTS = 256;
let derivedTexts: string[] = [];
let derivedCount = 0;

/**
 * A text a library function computed from a redacted value (`text.slice(key, 0, 8)`, `text.upper(key)`): the
 * recording searches for it too, so that a service that echoes it (a query's value it was sent) is kept out of the
 * file as the value itself is. At most MAX_DERIVED_TEXTS a run, of 4 characters or more.
 */
export function noteRedactedText(value: unknown): void {
  if (typeof value === "string" && value.length >= 4 && derivedCount < MAX_DERIVED_TEXTS) {
    derivedTexts.push(value);
    derivedCount++;
  }
}

/** The texts noted since the last time they were taken (each call takes them to its record). */
export function takeRedactedTexts(): string[] | undefined {
  if (derivedTexts.length === 0) return undefined;
  const taken = derivedTexts;
  derivedTexts = [];
  return taken;
}

/** Whether values of the run may carry origins: it has guards, or redacts a name. */
export function tracking(): boolean {
  return guards.length > 0 || redactedNames.size > 0;
}

/** Whether a set of origins holds the redacted origin (in a run that redacts). */
export function redacts(origins: Origins | undefined): boolean {
  return origins !== undefined && (origins.hi & REDACTED_HI) !== 0 && redactedNames.size > 0;
}

/** The origins without the redacted one: what guards, the clock and budgets see. */
export function guardedPart(origins: Origins | undefined): Origins | undefined {
  if (!redacts(origins)) return origins;
  const rest = Origins.of(origins!.lo, origins!.hi & ~REDACTED_HI);
  return rest.lo === 0 && rest.hi === 0 ? undefined : rest;
}

/** The redacted origin, for a call that reads a redacted name (`environment.get("NAME")`); undefined otherwise. */
export function redactedRead(need: Need): Origins | undefined {
  if (redactedNames.size === 0 || need.path.length !== 1 || need.path[0] !== "environment") return undefined;
  return need.scope !== undefined && redactedNames.has(String(need.scope).toLowerCase()) ? REDACTED_ORIGIN : undefined;
}

/** Whether main's option of parameter `name` (`--name`, `--na-me` for `na_me`) is redacted. */
export function redactedOption(name: string): boolean {
  if (redactedNames.size === 0) return false;
  const lower = name.toLowerCase();
  return redactedNames.has(lower) || redactedNames.has(lower.replace(/_/g, "-"));
}

// Where a redacted value went inside a container: a list, map or record literal
// holds plain items, and carries the union of their origins on its own wrapper,
// so the texts its items had that came from a redacted name are kept beside it
// (when any did), and a call's arguments say which of their texts to redact
// rather than every text of a container that holds one.

const PARTS = new WeakMap<object, Set<string>>();

/** Keeps, beside a container, the texts its items had that came from a redacted name (none: nothing kept). */
export function keepRedactedParts(container: unknown, parts: Set<string> | undefined): void {
  if (parts !== undefined && typeof container === "object" && container !== null) PARTS.set(container, parts);
}

/**
 * Adds to `into` the texts of a value that came from a redacted name: the value
 * itself, a text or a number; the parts kept for a container built from them;
 * every text in any other container (made by the library: where the redacted
 * value went inside it is not known, so all of it is taken to be).
 */
export function addRedactedParts(value: unknown, into: Set<string>, depth = 0): void {
  if (typeof value === "string") into.add(value);
  else if (typeof value === "number" || typeof value === "bigint") into.add(String(value));
  else if (typeof value === "object" && value !== null && depth < 64 && !ArrayBuffer.isView(value)) {
    const kept = PARTS.get(value);
    if (kept !== undefined) for (const part of kept) into.add(part);
    else for (const item of childrenOf(value)) addRedactedParts(item, into, depth + 1);
  }
}

function childrenOf(value: object): Iterable<unknown> {
  if (Array.isArray(value)) return value;
  const o = value as { entries?: () => Iterable<[unknown, unknown]>; values?: () => Iterable<unknown> };
  if (typeof o.entries === "function") return [...o.entries()].flat();
  if (typeof o.values === "function") return o.values();
  return Object.values(value);
}
