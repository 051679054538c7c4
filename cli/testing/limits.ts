// The limits of a test that differ from a run's: a test is expected to end in
// seconds, so one that hangs is stopped after a minute rather than the half
// hour a run may take (spec/testing.md, "Isolation and limits").

/** Wall-clock seconds each test may take (`renyi test --timeout`). */
export const TEST_TIMEOUT_SECONDS = 60;
