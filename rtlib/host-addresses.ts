// Hosts, as the network has them (spec/runtime.md, section 9, "Hosts are
// compared where they lead"). A host's name as written is not where it leads:
// `localhost`, `127.1`, `[::ffff:7f00:1]` and a DNS name of one's own all reach
// 127.0.0.1. In a run with guards, the gateway compares a network call's host by
// its addresses as well as by its name, as it compares a path by its real path;
// and the connection the call then makes goes to one of the very addresses
// checked (pinnedLookup, undici's `connect.lookup`), so that a name that
// resolves elsewhere between the check and the connection (DNS rebinding)
// reaches nothing that was not checked.
//
// Each host is resolved once per run and kept: IP literals in any form the URL
// parser reads, `localhost` as the loopback addresses (RFC 6761), every other
// name by node:dns `lookup` with all its addresses. A name that does not
// resolve has no addresses and compares as written. A replay (not a resumed
// run) looks nothing up: a DNS name compares as written there.

import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { hostImport } from "./host-import.js";

/** Where a host leads: its addresses, none when it does not resolve, or `unknown` past the run's bound of names. */
export type Addresses = ReadonlySet<string> | "unknown";

/**
 * The most distinct host names one run resolves; a name past it is treated as unknown (the worst case for every guard).
 */
const MAX_HOST_NAMES = 1024;

/** How long one name may take to resolve; past it, it compares as written (and is not connected to). */
const LOOKUP_MS = 10_000;

const LOOPBACK: ReadonlySet<string> = new Set(["127.0.0.1", "::1"]);

const resolved = new Map<string, Promise<Addresses>>();
let offline = false;

/**
 * Sets how the run resolves names: `live`, or `offline` (a replay: only literals and localhost). Forgets what was
 * resolved.
 */
export function configureHostLookup(mode: "live" | "offline"): void {
  offline = mode === "offline";
  resolved.clear();
}

/**
 * A host's name and port, from a scope as a `needs` line or a call writes it (`127.0.0.1:8080`, `[::1]`), lower case.
 */
export function splitHost(scope: string): { readonly name: string; readonly port: string | undefined } {
  const m = /^(.*):(\d+)$/.exec(scope.toLowerCase());
  return m === null ? { name: scope.toLowerCase(), port: undefined } : { name: m[1]!, port: m[2] };
}

/**
 * The address an IP literal names, in one canonical form (`127.0.0.1`, `::1`),
 * whatever form it is written in (`127.1`, `2130706433`, `0x7f.1`, `[::1]`); an
 * IPv4-mapped IPv6 address (`[::ffff:127.0.0.1]`) is the IPv4 address it maps.
 * Undefined for a name that is no literal.
 */
export function literalAddress(name: string): string | undefined {
  let hostname: string;
  try {
    hostname = new URL(`http://${name.includes(":") && !name.startsWith("[") ? `[${name}]` : name}/`).hostname;
  } catch {
    return undefined;
  }
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(hostname)) return hostname;
  if (!hostname.startsWith("[")) return undefined;
  return canonicalIpv6(hostname.slice(1, -1));
}

/** An IPv6 address as the URL parser writes it (compressed, lower case), or the IPv4 address it maps. */
function canonicalIpv6(address: string): string {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (mapped === null) return address;
  const hi = parseInt(mapped[1]!, 16);
  const lo = parseInt(mapped[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** An address as node:dns gives it, in the canonical form of literalAddress. */
function canonical(address: string): string {
  return literalAddress(address) ?? address.toLowerCase();
}

/** Whether a name is resolved without the network: an IP literal, or localhost. */
export function resolvedLocally(name: string): boolean {
  return name === "localhost" || literalAddress(name) !== undefined;
}

/** Where a host name leads, resolved once per run. */
export function addressesOf(name: string): Promise<Addresses> {
  const known = resolved.get(name);
  if (known !== undefined) return known;
  if (resolved.size >= MAX_HOST_NAMES) return Promise.resolve("unknown");
  const found = resolve(name);
  resolved.set(name, found);
  return found;
}

async function resolve(name: string): Promise<Addresses> {
  const literal = literalAddress(name);
  if (literal !== undefined) return new Set([literal]);
  if (name === "localhost") return LOOPBACK;
  if (offline || name.startsWith("*.")) return new Set();
  const { lookup } = await hostImport<typeof import("node:dns/promises")>("node:dns/promises");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<LookupAddress[]>((resolveLate) => (timer = setTimeout(() => resolveLate([]), LOOKUP_MS)));
  try {
    const all = await Promise.race([lookup(name, { all: true, verbatim: true }), late]);
    return new Set(all.map((a) => canonical(a.address)));
  } catch {
    return new Set();
  } finally {
    clearTimeout(timer);
  }
}

/** The addresses of a name resolved for a check, if it was. */
async function checkedAddresses(name: string): Promise<Addresses | undefined> {
  return resolved.get(name.toLowerCase());
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` the HTTP client connects with: a name the run resolved for a
 * guard's check is connected to at one of the addresses checked, and at no
 * other (none: the connection fails as a name that does not resolve); any other
 * name is resolved by node:dns, as the client would.
 */
export function pinnedLookup(
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: LookupCallback,
): void {
  void checkedAddresses(hostname).then(async (checked) => {
    if (checked === undefined || checked === "unknown") {
      const dns = await hostImport<typeof import("node:dns")>("node:dns");
      dns.lookup(
        hostname,
        options as LookupAllOptions,
        callback as (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void,
      );
      return;
    }
    const wanted =
      options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
    const all = [...checked]
      .map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
      .filter((a) => wanted === 0 || a.family === wanted);
    if (all.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = "ENOTFOUND";
      callback(error, "", undefined);
      return;
    }
    if (options.all === true) callback(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  });
}
