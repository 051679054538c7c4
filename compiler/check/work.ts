// The steps the checker's walks over types may take in one compilation.
//
// Types are shared, not copied: `let b be (a, a)` makes a pair whose two
// halves are the same object, so forty such lines make a type of forty
// distinct parts that, read as a tree, has a trillion. Every walk over types
// (types.ts, abilities.ts) visits each distinct part once per walk; and as a
// backstop against a shape no walk foresaw, each part a walk visits is a step
// counted here, against a budget that grows with the program's source. A
// compilation past its budget stops with E-CHECK-TOO-COMPLEX rather than
// running on (checker.ts), so that no program can make checking slow.
//
// Checking is synchronous and one compilation at a time (see
// `numberedFromStart` in types.ts), so one counter serves.

/** Steps every compilation may take whatever its size, and steps per character of its source. */
export const TYPE_STEPS_BASE = 2_000_000;
export const TYPE_STEPS_PER_CHARACTER = 32;

/** Thrown by `spendTypeSteps` past the budget; the checker turns it into E-CHECK-TOO-COMPLEX. */
export class TooComplex extends Error {
  constructor(readonly budget: number) {
    super(`checking needs more than ${budget} steps`);
  }
}

let spent = 0;
let budget = Number.POSITIVE_INFINITY;

/** How many steps pass between two calls of the compilation's `stop`. */
const STEPS_BETWEEN_STOPS = 4096;

let stop: (() => void) | undefined;
let nextStop = STEPS_BETWEEN_STOPS;

/** One step (or `steps`) of a walk over types. */
export function spendTypeSteps(steps = 1): void {
  spent += steps;
  if (spent > budget) throw new TooComplex(budget);
  if (spent >= nextStop) {
    nextStop = spent + STEPS_BETWEEN_STOPS;
    stop?.();
  }
}

/** Gives the compilation's caller its chance to end it (a deadline passed): between definitions. */
export function pollStop(): void {
  stop?.();
}

/** The budget of a compilation whose sources hold `characters` characters. */
export function typeStepsFor(characters: number): number {
  return TYPE_STEPS_BASE + TYPE_STEPS_PER_CHARACTER * characters;
}

/**
 * Runs `check` with `limit` steps, and `stopWith` called every few thousand
 * (what it throws ends the check). Outside of it (declaring the library)
 * steps are counted but never refused.
 */
export function withTypeSteps<T>(limit: number, stopWith: (() => void) | undefined, check: () => T): T {
  const was = { spent, budget, stop, nextStop };
  spent = 0;
  budget = limit;
  stop = stopWith;
  nextStop = STEPS_BETWEEN_STOPS;
  try {
    return check();
  } finally {
    lastSpent = spent;
    ({ spent, budget, stop, nextStop } = was);
  }
}

let lastSpent = 0;

/**
 * Runs `declare` (a library module, declared once for the process) with no budget: it must never stop half-declared.
 */
export function withoutTypeBudget<T>(declare: () => T): T {
  const was = { budget, stop };
  budget = Number.POSITIVE_INFINITY;
  stop = undefined;
  try {
    return declare();
  } finally {
    ({ budget, stop } = was);
  }
}

/** The steps the last compilation took: what tests compare between a program and one twice its size. */
export function typeStepsOfLastCompilation(): number {
  return lastSpent;
}
