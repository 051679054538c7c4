// Node's modules that only some primitives need, loaded by the first call that
// needs them, not when every program starts: each one loaded at start-up costs
// the program's worker thread up to a millisecond or two (bench/RESULTS.md,
// start-up).

import { hostImport } from "./host-import.js";

let fsModule: Promise<typeof import("node:fs/promises")> | undefined;
let cryptoModule: Promise<typeof import("node:crypto")> | undefined;

export const fsPromises = (): Promise<typeof import("node:fs/promises")> =>
  (fsModule ??= hostImport("node:fs/promises"));
export const crypto = (): Promise<typeof import("node:crypto")> => (cryptoModule ??= hostImport("node:crypto"));
