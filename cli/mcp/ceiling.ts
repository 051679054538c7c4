// The ceiling of `renyi mcp` (spec/mcp.md, "The ceiling"): what the person who
// started the server allows the programs its `run` tool runs. `--allow CAPABILITY`
// and `--allow-host HOST` say which capabilities main may be granted,
// `--at-most CAP=N/UNIT` how often it may use them. A program runs only when
// main's grant lies within the ceiling; otherwise the tool names the flags the
// person would have to add, and nothing runs.

import { createHash } from "node:crypto";
import { covers, scopeCovers } from "../../vocabulary/capabilities.js";
import { readNeedText } from "../../vocabulary/grant-text.js";
import { isBudgetUnit, needText, type BudgetUnit, type GrantItem, type Need } from "../../vocabulary/needs.js";
import { givenTwiceProblem, splitFlag, unknownFlagProblem } from "../host/command-declaration.js";
import { CHECK_BOUNDS, MCP_COMMAND } from "./flags.js";
import { DEFAULT_CHECK_MEMORY_MIB, DEFAULT_CHECK_SECONDS, type WorkLimits } from "./pool.js";

interface AtMost {
  /** The flag's value as given: `network.http=60/minute`. */
  readonly text: string;
  readonly need: Need;
  readonly count: number;
  readonly unit: BudgetUnit;
}

export interface Ceiling {
  readonly allow: readonly Need[];
  readonly hosts: readonly string[];
  readonly atMost: readonly AtMost[];
}

export interface McpOptions {
  readonly ceiling: Ceiling;
  /** The folder the run tool writes its recordings to; undefined: `<cache>/recordings/ceiling-KEY` (ceilingKey). */
  readonly recordings?: string;
  /** The time and heap a check (an explanation, a read of a recording) may take in its worker thread. */
  readonly limits: WorkLimits;
}

/**
 * The ceiling's key: 16 hexadecimal digits of the sha256 of what it allows,
 * in an order of its own (the flags' order, and a flag given twice, make no
 * difference). Servers started with different ceilings keep their recordings
 * apart by default, so that no agent reads, through its own server, the
 * recordings of runs another ceiling allowed.
 */
export function ceilingKey(ceiling: Ceiling): string {
  const sorted = (texts: readonly string[]): string[] => [...new Set(texts)].sort();
  const canonical = {
    allow: sorted(ceiling.allow.map(needText)),
    hosts: sorted(ceiling.hosts),
    atMost: sorted(ceiling.atMost.map((a) => `${needText(a.need)}=${a.count}/${a.unit}`)),
  };
  return createHash("sha256").update(JSON.stringify(canonical)).digest("hex").slice(0, 16);
}

const HOST = /^(?:\*\.)?[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?$/;

/** `renyi mcp`'s options, or why they are refused. */
export function parseMcpArguments(argv: readonly string[]): McpOptions | { problem: string } {
  const allow: Need[] = [];
  const hosts: string[] = [];
  const atMost: AtMost[] = [];
  let recordings: string | undefined;
  let seconds = DEFAULT_CHECK_SECONDS;
  let memoryMib = DEFAULT_CHECK_MEMORY_MIB;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const { name, inline } = arg.startsWith("--") ? splitFlag(arg) : { name: arg, inline: undefined };
    const flag = MCP_COMMAND.flags.find((f) => f.name === name);
    if (flag === undefined)
      return { problem: unknownFlagProblem(MCP_COMMAND, name, arg.startsWith("-") ? "option" : "argument") };
    const twice = givenTwiceProblem(given, flag);
    if (twice !== undefined) return { problem: twice };
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") return { problem: `${name} needs a value` };
    switch (name) {
      case "--allow": {
        const need = readNeedText(value);
        if (typeof need === "string")
          return {
            problem: `--allow takes a capability as a \`needs\` line writes it, such as console, 'network.http("api.example.com")' or 'filesystem.read("data")': ${need}`,
          };
        allow.push(need);
        break;
      }
      case "--allow-host":
        if (!HOST.test(value))
          return {
            problem: `--allow-host takes a host, such as api.example.com, *.example.com or localhost:8080; not ${JSON.stringify(value)}`,
          };
        hosts.push(value.toLowerCase());
        break;
      case "--at-most": {
        const m = /^(.+)=(\d+)\/([a-z]+)$/.exec(value);
        const need = m === null ? "" : readNeedText(m[1]!);
        const count = m === null ? 0 : Number(m[2]);
        if (
          m === null ||
          typeof need === "string" ||
          !isBudgetUnit(m[3]!) ||
          !Number.isSafeInteger(count) ||
          count < 1
        ) {
          return {
            problem: `--at-most takes CAPABILITY=COUNT/UNIT, a count above 0 and a unit of second, minute, hour, day or run, such as --at-most 'network.http=60/minute'; not ${value}${typeof need === "string" && need !== "" ? ` (${need})` : ""}`,
          };
        }
        atMost.push({ text: value, need, count, unit: m[3] as BudgetUnit });
        break;
      }
      case "--recordings":
        recordings = value;
        break;
      case "--check-timeout":
      case "--check-memory": {
        const [least, most] = CHECK_BOUNDS[name];
        const count = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
        if (!(count >= least && count <= most))
          return {
            problem: `${name} takes a whole number from ${least} to ${most}${name === "--check-timeout" ? " (seconds)" : " (MiB)"}; not ${JSON.stringify(value)}`,
          };
        if (name === "--check-timeout") seconds = count;
        else memoryMib = count;
        break;
      }
    }
  }
  return {
    ceiling: { allow, hosts, atMost },
    ...(recordings !== undefined ? { recordings } : {}),
    limits: { seconds, memoryMib },
  };
}

/**
 * What the ceiling makes of main's grant: the flags `renyi run` is given to
 * narrow it, and what the narrowing changes (for the person's question, should
 * the grant go beyond the ceiling and be approved as declared); or what lies
 * outside, and the flags that would admit it.
 */
export type CeilingVerdict =
  | { within: true; runFlags: string[]; narrowed: string[] }
  | { within: false; outside: string[]; flags: string[]; narrowed: string[] };

const isHttp = (need: Need): boolean => need.path.length === 2 && need.path[0] === "network" && need.path[1] === "http";

/**
 * Whether main's grant lies within the ceiling: every item is covered by an
 * `--allow`, or, for network.http with a host, by an `--allow-host`; and every
 * `--at-most` bounds the items it matches, together. A network.http item
 * without a host lies within when `--allow-host` is given: the run is narrowed
 * to those hosts. Items whose budgets are missing, looser, or add up to more
 * than the `--at-most` are bounded by passing the `--at-most` on to the run,
 * which counts their calls together.
 */
export function judge(items: readonly GrantItem[], ceiling: Ceiling): CeilingVerdict {
  const outside: string[] = [];
  const flags: string[] = [];
  const runFlags: string[] = [];
  const narrowed: string[] = [];
  const byHost = (item: GrantItem): boolean =>
    isHttp(item) && typeof item.scope === "string" && ceiling.hosts.some((h) => scopeCovers("host", h, item.scope!));
  let narrowHosts = false;
  for (const item of items) {
    if (ceiling.allow.some((a) => covers(a, item)) || byHost(item)) continue;
    if (isHttp(item) && item.scope === undefined && ceiling.hosts.length > 0) {
      narrowHosts = true;
      continue;
    }
    const text = needText(item);
    outside.push(`main needs ${text}`);
    flags.push(isHttp(item) && typeof item.scope === "string" ? `--allow-host ${item.scope}` : `--allow '${text}'`);
  }
  if (narrowHosts) {
    // The run is given only the ceiling's hosts: each scoped network.http item must then be one of them.
    const loose = items.filter((item) => isHttp(item) && item.scope !== undefined && !byHost(item));
    for (const item of loose) {
      outside.push(
        `main needs ${needText(item)} beside network.http for any host, which runs only with the hosts --allow-host names`,
      );
      flags.push(`--allow-host ${String(item.scope)}`);
    }
    if (loose.length === 0) for (const host of ceiling.hosts) runFlags.push("--allow-host", host);
    narrowed.push(`main needs network.http for any host, which the ceiling narrows to ${ceiling.hosts.join(", ")}`);
  }
  for (const bound of ceiling.atMost) {
    const matching = items.filter((item) => covers(bound.need, item) || covers(item, bound.need));
    const bounded = (item: GrantItem) =>
      item.budget !== undefined && item.budget.unit === bound.unit && item.budget.count <= bound.count;
    const unbounded = matching.filter((item) => !bounded(item));
    // Budgets are counted item by item: two items of 2 per run each make 4 calls, which --at-most 3/run does not admit.
    const total = matching.reduce((sum, item) => sum + (item.budget?.count ?? 0), 0);
    if (matching.length === 0 || (unbounded.length === 0 && total <= bound.count)) continue;
    // `renyi run --at-most` refuses a budget looser than one main declares for the same unit.
    if (
      matching.some(
        (item) => item.budget !== undefined && item.budget.unit === bound.unit && item.budget.count < bound.count,
      )
    ) {
      const what = matching
        .map(
          (item) =>
            `${needText(item)} ${item.budget === undefined ? "without a budget" : `at most ${item.budget.count} per ${item.budget.unit}`}`,
        )
        .join(" and ");
      outside.push(
        `main needs ${what}, more than --at-most ${bound.text} admits${matching.length > 1 ? " together" : ""}`,
      );
      flags.push(
        `--at-most ${needText(bound.need)}=${matching.every((item) => item.budget?.unit === bound.unit) ? total : "N"}/${bound.unit} in place of --at-most ${bound.text} (or budgets on main's needs that add up to at most ${bound.count} per ${bound.unit})`,
      );
      continue;
    }
    runFlags.push("--at-most", bound.text);
    narrowed.push(
      `main's use of ${needText(bound.need)} (${matching.map((item) => `${needText(item)}${item.budget === undefined ? "" : ` at most ${item.budget.count} per ${item.budget.unit}`}`).join(", ")}), which the ceiling bounds to ${bound.count} per ${bound.unit} in all`,
    );
  }
  return outside.length === 0 ? { within: true, runFlags, narrowed } : { within: false, outside, flags, narrowed };
}
