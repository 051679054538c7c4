// The limits of a run and their defaults (spec/runtime.md, "Limits"): what
// `renyi run` takes when no option says otherwise, what the runtime starts
// with, and the fixed sizes of what a program can build or a command read.

/** The defaults of `renyi run`'s options, and of the runtime when it is run without them. */
export const DEFAULT_LIMITS = {
  /**
   * Steps a run may take (`--fuel`): minutes of work, as measured by
   * bench/fuel-rate.ts (spec/runtime.md, "The default fuel"); a loop that
   * never ends stops in under a minute.
   */
  fuel: 50_000_000_000,
  /** How deeply calls may nest (`--max-depth`). */
  maxDepth: 256,
  /** Wall-clock seconds a run may take (`--timeout`): 30 minutes. */
  timeoutSeconds: 30 * 60,
  /** Steps each request to a server may take (`--request-fuel`). */
  requestFuel: 10_000_000,
  /** Seconds each request to a server may take (`--request-timeout`). */
  requestTimeoutSeconds: 30,
  /** Calls through the gateway a run may make (`--max-host-calls`). */
  maxHostCalls: 100_000,
  /** Elements in one list, map or set (`--max-collection`): MAX_ELEMENTS. */
  maxCollection: 10_000_000,
  /** Characters in one text (`--max-text`): MAX_TEXT. */
  maxText: 64 * 1024 * 1024,
  /**
   * MiB of memory the program may keep live (`--max-memory`): the live bytes of
   * the thread it runs in, read at the fuel check's slow path and before an
   * effect, at most once a millisecond (spec/runtime.md, "What the memory limit counts").
   */
  maxMemoryMib: 512,
  /** Lines the program may print on each of stdout and stderr (`--max-output-lines`). */
  maxOutputLines: 10_000,
  /** Bytes the program may print on each of stdout and stderr (`--max-output-bytes`): 4 MiB. */
  maxOutputBytes: 4 * 1024 * 1024,
} as const;

/** The most elements a list, map or set may have; `--max-collection` may lower it, never raise it. */
export const MAX_ELEMENTS = DEFAULT_LIMITS.maxCollection;

/**
 * The most characters a text may have, in UTF-16 code units (the engine's
 * length): 64 Mi, 64 MiB of ASCII. `--max-text` may lower it, never raise it:
 * the checks rely on the engine's own limit being eight times this one.
 */
export const MAX_TEXT = DEFAULT_LIMITS.maxText;

/** The limits a command line may only lower: above these the engine's own limits would be reached first. */
export const HIGHEST_LIMITS: { readonly [K in keyof typeof DEFAULT_LIMITS]?: number } = {
  maxCollection: MAX_ELEMENTS,
  maxText: MAX_TEXT,
};

/**
 * The heap limit of the thread a program runs in, the engine's hard bound above
 * the accounted limit: twice it, and at least 256 MiB more. Between two
 * readings of the accounting (at most 1,024 steps) one operation may add its
 * own result, which the collection limits bound (a text of 64 Mi UTF-16 units
 * takes up to 128 MiB, a list of 10,000,000 numbers about 80 MiB).
 */
export function heapLimitMib(maxMemoryMib: number): number {
  return maxMemoryMib + Math.max(maxMemoryMib, 256);
}

/**
 * The data segment a process run with `renyi run --isolate` may use (RLIMIT_DATA):
 * the thread's heap limit, and 256 MiB for node itself, the compiler and the
 * memory of the runtime's native parts (`renyi run` of a small program starts
 * in less than 200 MiB of it).
 */
export function isolationDataMib(maxMemoryMib: number): number {
  return heapLimitMib(maxMemoryMib) + 256;
}

/**
 * Open files, sockets and pipes a process run with `renyi run --isolate` may
 * hold at once (RLIMIT_NOFILE), sized with the connections a server holds
 * (below): node itself takes about 30, and the rest is the program's.
 */
export const ISOLATED_OPEN_FILES = 256;

/**
 * The connections a program's server holds at once, half of the files an
 * isolated process may open: the other half is left for node, the program's
 * own files, the pipes of its children and its outgoing calls.
 */
export const MAX_SERVER_CONNECTIONS = 128;

/** The largest source file the commands read: far beyond any program a person writes or reviews. */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

/**
 * The limits a bundle run directly (`node DIR/NAME.mjs`) takes from the
 * environment, read by the runtime's entry before the program is loaded (the
 * program itself has no access to the environment): each is `RENYI_` and the
 * option's name, `RENYI_MAX_HOST_CALLS` for `--max-host-calls`.
 */
export const ENVIRONMENT_LIMITS = [
  { option: "--fuel", key: "fuel" },
  { option: "--max-depth", key: "maxDepth" },
  { option: "--max-collection", key: "maxCollection" },
  { option: "--max-text", key: "maxText" },
  { option: "--max-output-lines", key: "maxOutputLines" },
  { option: "--max-output-bytes", key: "maxOutputBytes" },
  { option: "--max-host-calls", key: "maxHostCalls" },
  { option: "--request-fuel", key: "requestFuel" },
  { option: "--max-memory", key: "maxMemoryMib" },
] as const satisfies readonly { option: string; key: keyof typeof DEFAULT_LIMITS }[];

/** `RENYI_MAX_HOST_CALLS` for `--max-host-calls`. */
export function environmentName(option: string): string {
  return `RENYI_${option.slice(2).toUpperCase().replace(/-/g, "_")}`;
}
