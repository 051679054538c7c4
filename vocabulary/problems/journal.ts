// The errors of `renyi fetch-recording` (spec/durable.md, "Recordings from
// production"): a journal of Restate's that cannot be made a recording. Run-time
// rows, joined to the others in run.ts.

import { problem } from "./entry.js";

const FETCH = "renyi fetch-recording --restate http://127.0.0.1:9070";

export const JOURNAL_PROBLEMS = {
  "E-RT-JOURNAL": problem<{
    invocation: string;
    admin: string;
    problem: "id" | "admin" | "unreachable" | "answer" | "none" | "entry" | "recording" | "file";
    detail: string;
  }>({
    title: "A journal that cannot be fetched as a recording",
    kind: "refused",
    facts: {
      invocation: "the invocation id, as the command line gave it",
      admin: "the admin API's URL, as the command line gave it",
      problem:
        "`id` (not an invocation id), `admin` (not an http or https URL), `unreachable` (no answer, or none in " +
        "time), `answer` (the admin API answered with something other than the rows of a journal), `none` (no " +
        "journal: an unknown invocation, or one whose journal has expired), `entry` (an entry of the journal that " +
        "renyi serve --restate does not write), `recording` (the recording made from the journal does not read " +
        "back) or `file` (the recording cannot be written where asked)",
      detail: "what was found: the answer, the entry and what it should be, or the reason",
    },
    render: (f) => ({
      message:
        f.problem === "id"
          ? `${JSON.stringify(f.invocation)} is not an invocation id: ${f.detail}`
          : f.problem === "admin"
            ? `${JSON.stringify(f.admin)} is not the URL of a Restate admin API: ${f.detail}`
            : f.problem === "unreachable"
              ? `the admin API at ${f.admin} did not answer: ${f.detail}`
              : f.problem === "answer"
                ? `the admin API at ${f.admin} did not answer with the rows of a journal: ${f.detail}`
                : f.problem === "none"
                  ? `${f.admin} holds no journal of ${f.invocation}: ${f.detail}`
                  : f.problem === "entry"
                    ? `the journal of ${f.invocation} is not one renyi serve --restate keeps: ${f.detail}`
                    : f.problem === "recording"
                      ? `the journal of ${f.invocation} does not make a recording that reads back: ${f.detail}`
                      : `I cannot write the recording of ${f.invocation}: ${f.detail}`,
      hint:
        f.problem === "none"
          ? "Restate keeps a journal for default-journal-retention (1 day by default) after its invocation ends; " +
            "fetch the recording before then, or raise the retention"
          : undefined,
    }),
    explanation: `\`renyi fetch-recording --restate ADMIN_URL INVOCATION_ID\` reads the journal Restate keeps of
one invocation of a program served by \`renyi serve --restate\` (the admin API's \`/query\` of
\`sys_journal\`) and writes it as a recording. The journal is read as hostile input: the id must be
of Restate's form (\`inv_\` and 34 letters and digits) before it is sent, the admin API's answers are
bounded in size and time, every entry must be one the endpoint writes (a header of this form, the
batches of calls, its markers, its end), and the recording made must read back as \`renyi reproduce\`
reads it. Nothing is written unless all of it holds. A journal is kept for the cluster's
\`default-journal-retention\` (1 day by default) after the invocation ends: after that there is
nothing to fetch.`,
    wrong: `${FETCH} inv_1b7Rsdu676wR7HtX5oUb8ptrhAQ3vQetVp   # ended two days ago`,
    right: `${FETCH} inv_1b7Rsdu676wR7HtX5oUb8ptrhAQ3vQetVp   # within a day of its end`,
    described: true,
  }),
};
