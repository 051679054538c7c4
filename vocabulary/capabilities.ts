// The capability tree (spec/types.md, section 6) and the covering relation: which
// granted capability admits which needed one. The runtime's grant check uses the
// same relation on the actual scope of each call.

import type { Need } from "./needs.js";

export type ScopeKind = "none" | "host" | "port" | "path" | "name";

export interface CapabilityInfo {
  readonly path: readonly string[];
  readonly scope: ScopeKind;
  /** Whether `at most N per UNIT` may be put on it (spec/types.md, section 6, "Grant clauses"). */
  readonly budgets: boolean;
  /** The error type of its primitives, if they can fail. */
  readonly errorType?: string;
}

const CAPABILITIES: readonly CapabilityInfo[] = [
  { path: ["console"], scope: "none", budgets: false },
  { path: ["time"], scope: "none", budgets: false },
  { path: ["random"], scope: "none", budgets: false },
  { path: ["environment"], scope: "name", budgets: false },
  { path: ["network"], scope: "none", budgets: true },
  { path: ["network", "http"], scope: "host", budgets: true, errorType: "HttpError" },
  { path: ["network", "socket"], scope: "port", budgets: true, errorType: "StartError" },
  { path: ["filesystem"], scope: "none", budgets: true },
  { path: ["filesystem", "read"], scope: "path", budgets: true, errorType: "FileError" },
  { path: ["filesystem", "write"], scope: "path", budgets: true, errorType: "FileError" },
  { path: ["filesystem", "database"], scope: "path", budgets: true, errorType: "DbError" },
  { path: ["process"], scope: "name", budgets: true, errorType: "ProcessError" },
  { path: ["foreign"], scope: "path", budgets: false, errorType: "ForeignError" },
  { path: ["python"], scope: "name", budgets: false },
];

const BY_NAME = new Map(CAPABILITIES.map((c) => [c.path.join("."), c]));

export function capabilityInfo(path: readonly string[]): CapabilityInfo | undefined {
  return BY_NAME.get(path.join("."));
}

export function knownCapabilities(): string[] {
  return CAPABILITIES.map((c) => c.path.join("."));
}

/**
 * Normalises a path scope by its text alone (spec/types.md, section 6, "Covering"):
 * `./a//b/../c` is `a/c`; nothing is looked up on disk. A path that climbs out
 * of its start (`../x`) keeps its leading `..` parts.
 */
export function normalisePath(path: string): string {
  const absolute = path.startsWith("/");
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
      else if (!absolute) parts.push("..");
      continue;
    }
    parts.push(part);
  }
  const joined = parts.join("/");
  return absolute ? `/${joined}` : joined === "" ? "." : joined;
}

function splitPort(host: string): [string, string | undefined] {
  const m = /^(.*):(\d+)$/.exec(host);
  return m === null ? [host, undefined] : [m[1]!, m[2]];
}

/** Whether a granted scope admits a needed one, for a capability whose scopes are of `kind`. */
export function scopeCovers(kind: ScopeKind, granted: string | number, needed: string | number): boolean {
  switch (kind) {
    case "host": {
      // A host may carry a port: `localhost` admits every port, `localhost:8080` only that one.
      const [gHost, gPort] = splitPort(String(granted).toLowerCase());
      const [nHost, nPort] = splitPort(String(needed).toLowerCase());
      if (gPort !== undefined && gPort !== nPort) return false;
      if (gHost.startsWith("*.")) return nHost.endsWith(gHost.slice(1)) && nHost.length > gHost.length - 1;
      return gHost === nHost;
    }
    case "path": {
      const g = normalisePath(String(granted));
      const n = normalisePath(String(needed));
      if (n === ".." || n.startsWith("../")) return false;
      if (g === ".") return !n.startsWith("/");
      return n === g || n.startsWith(g.endsWith("/") ? g : `${g}/`);
    }
    default:
      return granted === needed;
  }
}

/**
 * Whether a granted capability covers a needed one: the granted path is the
 * needed one or a parent of it, and a granted scope (if any) admits the needed
 * scope. A need without a scope (a library primitive whose scope is known only
 * when it runs) is covered by any grant of that capability, scoped or not, and
 * by a grant of a child capability too: the run-time check sees the actual scope.
 */
export function covers(granted: Need, needed: Need, neededIsPrimitive = false): boolean {
  const g = granted.path;
  const n = needed.path;
  // Every call through the gateway asks this of each grant around it: loops, no closures.
  if (!startsWith(n, g)) {
    // `network.http("a.com")` statically admits a primitive that needs `network`.
    return neededIsPrimitive && n.length < g.length && startsWith(g, n);
  }
  if (granted.scope === undefined) return true;
  if (needed.scope === undefined) return neededIsPrimitive;
  if (g.length !== n.length) return false;
  // The common case, and the cheapest: the very scope the grant names.
  if (granted.scope === needed.scope) return true;
  const info = capabilityInfo(n);
  return scopeCovers(info?.scope ?? "name", granted.scope, needed.scope);
}

/** Whether `path` begins with every part of `prefix`. */
function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

/** The granted capability that covers `needed`, if any. */
export function coveredBy(grant: readonly Need[], needed: Need, neededIsPrimitive = false): Need | undefined {
  return grant.find((g) => covers(g, needed, neededIsPrimitive));
}
