// Capabilities, needs, grant clauses and purposes (E-CAP-*, E-PURPOSE-*, W-GUARD-*).

export const GRANT_PROBLEMS = {};
