// hostImport (../host-import.ts) for the runtime bundled for a browser (spec/view.md, section 8),
// which scripts/browser-seams.mjs puts in its place there. A browser run is live for `console`,
// `time` and `random` alone; every other call is answered from a recording before anything
// would be loaded for it. So the modules given here are what those three reach: random's draws
// from the browser's own generator, and an input that has ended (console.read_line gives None).
// Anything else is refused.

const crypto = (): Crypto => (globalThis as unknown as { crypto: Crypto }).crypto;

/** A uniform integer in [low, high), high - low below 2^48 (node:crypto's randomInt). */
function randomInt(low: number, high: number): number {
  const range = high - low;
  if (!(range > 0) || range > 2 ** 48) throw new RangeError("randomInt: the range must be 1 to 2^48");
  const limit = 2 ** 48 - (2 ** 48 % range);
  const words = new Uint32Array(2);
  for (;;) {
    crypto().getRandomValues(words);
    const x = (words[0]! & 0xffff) * 2 ** 32 + words[1]!;
    if (x < limit) return low + (x % range);
  }
}

function randomBytes(n: number): { readBigUInt64BE(offset?: number): bigint } & Uint8Array {
  const bytes = crypto().getRandomValues(new Uint8Array(n));
  return Object.assign(bytes, {
    readBigUInt64BE: (offset = 0) => new DataView(bytes.buffer).getBigUint64(offset, false),
  });
}

const MODULES: Readonly<Record<string, unknown>> = {
  "node:crypto": { randomInt, randomBytes, randomUUID: () => crypto().randomUUID() },
  "node:readline": {
    createInterface: () => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }),
    }),
  },
};

export function hostImport<T>(specifier: string): Promise<T> {
  const module = MODULES[specifier];
  if (module !== undefined) return Promise.resolve(module as T);
  return Promise.reject(
    new Error(`${specifier} is not available in a browser: a run there is live for console, time and random alone`),
  );
}
