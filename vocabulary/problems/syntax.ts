// The syntax problems (E-SYN-*) and a file that cannot be read (E-FILE).

import { problem } from "./entry.js";

export const SYNTAX_PROBLEMS = {
  "E-SYN-TOO-MANY": problem<{ limit: number }>({
    title: "Too many syntax errors in one file",
    facts: { limit: "how many syntax errors a file may have before checking it stops" },
    render: (f) => ({
      message: `Stopped after ${f.limit} syntax errors in this file`,
      notes: ["Fix the first ones and check again; later errors are often caused by earlier ones."],
    }),
    explanation: `Checking a file stops after its 100th syntax error: past that point the file is
most likely not a Renyi program at all (a binary file, a file in another language), and later
errors are usually echoes of earlier ones. Fix the first errors and check again.`,
    wrong: "let a be ) ) ) ) ...   -- a file of a hundred stray brackets",
    right: "let a be 1",
    described: true,
  }),
};
