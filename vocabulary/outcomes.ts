// How a run ends, and the exit code of each ending (spec/runtime.md, section 5):
// what `renyi run` reports, what a bundle run by Node itself sets, and what the
// other commands return.

/** The exit code of each outcome: a run finished, main failed, a crash, refused before it ran, cancelled. */
export const EXIT = {
  finished: 0,
  failed: 1,
  crashed: 2,
  refused: 3,
  cancelled: 130,
} as const;

/** The ways a run can end: the kinds of rtlib's Outcome, which its type holds to exactly these. */
export type OutcomeKind = keyof typeof EXIT;

/**
 * The exit codes of `renyi test` (spec/testing.md): every test run passed (or
 * was skipped), a test failed or crashed, the command was refused (a path that
 * is no .ry file or folder, a test file that does not compile), a test's
 * recording was refreshed (reserved for `--refresh`: healed is not passed), or
 * the run was interrupted. Where several apply, the first of refused,
 * cancelled, failed, refreshed wins.
 */
export const TEST_EXIT = {
  passed: 0,
  failed: 1,
  refused: 3,
  refreshed: 4,
  cancelled: 130,
} as const;
