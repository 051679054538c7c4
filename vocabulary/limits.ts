// The limits of a run and their defaults (spec/runtime.md, "Limits"): what
// `renyi run` takes when no option says otherwise, what the runtime starts
// with, and the fixed sizes of what a program can build or a command read.

/** The defaults of `renyi run`'s options, and of the runtime when it is run without them. */
export const DEFAULT_LIMITS = {
  /** Steps a run may take (`--fuel`). */
  fuel: 200_000_000,
  /** How deeply calls may nest (`--max-depth`). */
  maxDepth: 256,
  /** Wall-clock seconds a run may take (`--timeout`): 30 minutes. */
  timeoutSeconds: 30 * 60,
  /** Steps each request to a server may take (`--request-fuel`). */
  requestFuel: 10_000_000,
  /** Seconds each request to a server may take (`--request-timeout`). */
  requestTimeoutSeconds: 30,
  /** Calls through the gateway a run may make. */
  maxHostCalls: 100_000,
} as const;

/** The most elements a list, map or set may have. */
export const MAX_ELEMENTS = 10_000_000;

/** The most characters a text may have, in UTF-16 code units (the engine's length): 64 Mi, 64 MiB of ASCII. */
export const MAX_TEXT = 64 * 1024 * 1024;

/** The largest source file the commands read: far beyond any program a person writes or reviews. */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;
