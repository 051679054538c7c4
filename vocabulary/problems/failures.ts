// Failures and exhaustiveness (E-FAIL-*, E-MATCH-*, W-MATCH-*).

export const FAILURE_PROBLEMS = {};
