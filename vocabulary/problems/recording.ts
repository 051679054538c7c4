// The errors of recorded runs (spec/recording.md): a recording refused as it is
// read, and a replay that meets what the recording does not hold. Run-time rows,
// joined to the others in run.ts.

import { plural, problem } from "./entry.js";

/** A command sequence is the only way to show these: they need a recording beside the program. */
const RECORDED = `renyi record --to run.json weather.ry --city Berlin`;

export const RECORDING_PROBLEMS = {
  "E-RT-RECORDING": problem<{
    file: string;
    problem: "unreadable" | "too-large" | "json" | "field" | "answer" | "part";
    detail: string;
  }>({
    title: "A recording that cannot be read",
    kind: "refused",
    facts: {
      file: "the recording's path, or how it was given",
      problem:
        "`unreadable` (the file cannot be read), `too-large`, `json` (not strict JSON), `field` (a field " +
        "missing, of the wrong type, or out of order), `answer` (a call's recorded outcome is one no live call " +
        "could give), or `part` (a test's `calls N to M` names calls the recording does not hold)",
      detail:
        "what the reader found: the reason the file cannot be read, the byte limit, the JSON error, or the " +
        "entry, the field and what it should be",
    },
    render: (f) => ({
      message:
        f.problem === "unreadable"
          ? `I cannot read the recording ${f.file}: ${f.detail}`
          : f.problem === "too-large"
            ? `${f.file} is larger than ${f.detail} bytes`
            : f.problem === "json"
              ? `${f.file} is not valid JSON: ${f.detail}`
              : f.problem === "answer"
                ? `${f.file} is refused: it holds an answer no live call could give: ${f.detail}`
                : f.problem === "part"
                  ? `${f.file} does not hold the calls the test names: ${f.detail}`
                  : `${f.file} is refused: ${f.detail}`,
    }),
    explanation: `A recording is read as hostile input: at most 256 MiB, strict JSON (no repeated keys,
nesting at most 64 deep), and every field of the header and of each call checked against the
format of spec/recording.md before anything is replayed. A recording edited by hand must keep
that format: the sequence numbers in order, each capability written as a \`needs\` line writes it,
each outcome \`success\` or \`failure\`. Each outcome must also be one a live call of its primitive
could give (spec/recording.md, "What a live call can answer"): an HTTP status from 100 to 599,
header names that are HTTP tokens and values without CR, LF or NUL, an exit code from 0 to 255, a
random integer within its bounds, a failure the primitive can end with. A replay hands the
recorded answers to the program as the world's, so an impossible one is refused before anything
runs, not passed on. A test's \`calls N to M\` must name calls the recording holds: its first
and its last number are each the \`sequence\` of one of its calls.`,
    wrong: `${RECORDED}\n# edit run.json: give two calls the same "sequence"\nrenyi run --replay run.json weather.ry`,
    right: `${RECORDED}\nrenyi run --replay run.json weather.ry`,
    described: true,
  }),

  "E-RT-REPLAY-GRANT": problem<{
    problem: "header" | "call-beyond-header" | "call" | "guard";
    grant: string;
    needs: string;
    sequence: number;
    capability: string;
  }>({
    title: "A recording whose grant is wider than the program's",
    kind: "refused",
    facts: {
      problem:
        "`header` (an item of the recording's grant), `call-beyond-header` (a call outside the recording's own " +
        "grant), `call` (a call outside the program's needs) or `guard` (a guard of a recording with sealed " +
        "calls that the program does not keep)",
      grant: "the recording's grant item the program does not cover",
      needs: "the program's needs, as a `needs` line writes them",
      sequence: "the call's sequence number in the recording",
      capability: "the capability the call used",
    },
    render: (f) => ({
      message:
        f.problem === "header"
          ? `the recording's grant has \`${f.grant}\`, which the program's needs do not cover (${f.needs})`
          : f.problem === "call-beyond-header"
            ? `call ${f.sequence} of the recording uses \`${f.capability}\`, which the recording's own grant does ` +
              `not cover`
            : f.problem === "guard"
              ? `the recording holds sealed calls and its grant has \`${f.grant}\`, whose guard the program's ` +
                `needs do not keep (${f.needs}): a program replayed against guarded data keeps its guards, with ` +
                `the same sinks or fewer`
              : `call ${f.sequence} of the recording uses \`${f.capability}\`, which the program's needs do not ` +
                `cover (${f.needs})`,
    }),
    explanation: `A replay answers a program's calls from a recording; it must not let a program seem to do
more than its needs allow. So before main runs, the recording's grant (its header) and the
capability of every recorded call are checked against the grant main runs with: a recording made
under wider needs than the program (or a test) now declares is refused, not replayed. A recording
with sealed calls (made by renyi mcp) is replayed only by a program that keeps each of its guards.`,
    wrong:
      `${RECORDED}   # main needs network.http("api.open-meteo.com")\n` +
      `# narrow main's needs to network.http("example.com")\nrenyi run --replay run.json weather.ry`,
    right: `${RECORDED}\nrenyi run --replay run.json weather.ry`,
    described: true,
  }),

  "E-RT-REPLAY-MISMATCH": problem<
    | { problem: "not-replayable"; call: string }
    | { problem: "answered"; call: string; times: number }
    | { problem: "not-held"; call: string; nearest?: string; differences: readonly string[] }
  >({
    title: "A replay met a call the recording does not hold",
    facts: {
      problem:
        "`not-held` (no recorded call is like it), `answered` (each recorded call like it has been answered) or " +
        "`not-replayable` (the call runs the program's own code inside it)",
      call: "the call made, as primitive and arguments",
      times: "how many times the recording holds the call",
      nearest: "the nearest recorded call not yet answered, with its sequence number",
      differences: "each field in which the call made and the nearest recorded call differ",
    },
    render: (f) => {
      if (f.problem === "not-replayable")
        return { message: `${f.call} runs the program's own code inside it, which this version cannot replay yet` };
      const lines = [`the replay stopped at a call the recording does not hold`, `  call made: ${f.call}`];
      if (f.problem === "answered")
        lines.push(`  the recording holds this call ${plural(f.times, "time")}, and each has been answered`);
      else if (f.nearest === undefined) lines.push("  every recorded call has been answered");
      else
        lines.push(`  nearest recorded call ${f.nearest}`, "  differences:", ...f.differences.map((d) => `    ${d}`));
      return { message: lines.join("\n") };
    },
    explanation: `A replay answers every call from the recording, matched by primitive and arguments (and
by order only among identical calls). A call the recording does not hold means the program now
does something the recorded run did not: its code changed, or its input did. The replay stops at
that call and shows the nearest recorded call and the fields that differ, so that the change can
be found; record again if the new behaviour is the right one.`,
    wrong: `${RECORDED}\nrenyi run --replay run.json weather.ry --city Paris`,
    right: `${RECORDED}\nrenyi run --replay run.json weather.ry --city Berlin`,
    described: true,
  }),

  "E-RT-REPLAY-SHAPE": problem<{ sequence: number; primitive: string; why: string }>({
    title: "A recorded outcome that does not fit the call",
    facts: {
      sequence: "the recorded call's sequence number",
      primitive: "the primitive it answers",
      why: "how the outcome does not fit the primitive's declared type",
    },
    render: (f) => ({ message: `call ${f.sequence} of the recording (${f.primitive}) cannot be replayed: ${f.why}` }),
    explanation: `Each recorded outcome is decoded against the type the call declares, as a live
answer would be; an outcome of another shape cannot stand for a real answer and stops the replay.
Most impossible outcomes (an HTTP status edited to a text or to 999) are refused before the replay
starts, as the recording is read (E-RT-RECORDING); what is left for this error depends on the
program itself: the rows of \`database.query\` against the record type the program reads them as,
the item \`random.choice\` answers against the list it was given. A response body whose JSON no
longer fits the program's own types is not this error: it fails in the program's decoding, as it
would in production.`,
    wrong:
      `renyi record --to run.json bookmarks.ry\n` +
      `# edit run.json: in a row database.query answered, "id": 1 becomes "id": "one"\n` +
      `renyi run --replay run.json bookmarks.ry`,
    right: `renyi record --to run.json bookmarks.ry\nrenyi run --replay run.json bookmarks.ry`,
    described: true,
  }),

  "E-RT-REPLAY-RESPONSE": problem<{
    request: number;
    method: string;
    path: string;
    differences: readonly string[];
  }>({
    title: "A replayed server that answered a request differently",
    facts: {
      request: "the request's sequence number in the recording",
      method: "the request's method",
      path: "the request's path",
      differences: "each field in which the response given and the recorded response differ",
    },
    render: (f) => ({
      message: [
        `the replay stopped at request ${f.request} (${f.method} ${f.path}): its handler answered differently`,
        "  differences:",
        ...f.differences.map((d) => `    ${d}`),
      ].join("\n"),
    }),
    explanation: `A replay of a server feeds each recorded request to the program's handler, answers the
handler's calls from that request's own recorded calls, and compares the response it gives with the
recorded response: status, headers and body. The first response that differs stops the replay, at
the \`serve\` call, showing each field that differs. Every call matched, so the handler computes
its answer differently from the same input: a change in its logic. Record again if the new answer
is the right one.`,
    wrong:
      `renyi record --to served.json server.ry   # answers GET /hello with "hello"\n` +
      `# change the handler to answer "hi"\nrenyi run --replay served.json server.ry`,
    right: `renyi record --to served.json server.ry\nrenyi run --replay served.json server.ry`,
    described: true,
  }),

  "E-RT-REPLAY-DIFFERS": problem<{ differences: readonly string[] }>({
    title: "A replay that ended differently from the recorded run",
    facts: {
      differences:
        "each way the replay's end differs: its outcome, its output's hash and length, the console lines written otherwise, the recorded calls not reached",
    },
    render: (f) => ({ message: "the replay ended differently from the recorded run", notes: f.differences }),
    explanation: `Every call the program reads an answer from matched the recording, yet the run ended
another way: another outcome (finished against failed), other output, console lines written
otherwise than recorded (each listed, recorded against now: a console line answers nothing the
program reads, so a line that differs does not stop the replay), or (for \`renyi reproduce\`)
recorded calls the replay never reached. The program computes differently from the same answers:
a change in its logic, not in what it asked the world.`,
    wrong: `${RECORDED}\n# change how weather.ry prints the temperature\nrenyi reproduce run.json`,
    right: `${RECORDED}\nrenyi reproduce run.json`,
    described: true,
  }),

  "E-RT-REPLAY-CODE": problem<{ file: string; code: string; recorded: string }>({
    title: "A program that is not the recorded one",
    kind: "refused",
    facts: {
      file: "the program given",
      code: "the hash of main and every definition it reaches, as parsed",
      recorded: "the hash the recording holds",
    },
    render: (f) => ({
      message: `${f.file} is not the recorded program: its code hashes to ${f.code}, the recording's to ${f.recorded}`,
    }),
    explanation: `\`renyi reproduce\` (and a resumed run) replays the recorded program itself: the hash of
main and every definition it reaches must be the recording's. Comments, tests, layout and
definitions main does not reach are not in the hash, so adding them keeps a recording; an edit
of what main runs (a text, an operator, a call, a type's fields or cases, a \`needs\` line) makes
another program. Replay it with \`renyi run --replay\` to see where it now differs, or record it again.`,
    wrong: `${RECORDED}\n# change the text main prints in weather.ry\nrenyi reproduce run.json`,
    right: `${RECORDED}\nrenyi reproduce run.json`,
    described: true,
  }),

  "E-RT-REPLAY-BUDGET": problem<{
    budget: string;
    capability: string;
    calls: number;
    first: number;
    last: number;
    span: number;
  }>({
    title: "A recording whose calls exceed a budget of the test's needs",
    kind: "failed",
    facts: {
      budget: "the test's budgeted need, as its needs line writes it",
      capability: "the capability of the calls counted under it",
      calls: "how many calls the recording makes in one window of the budget's unit (for `per run`, in all)",
      first: "the sequence number of the first call counted",
      last: "the sequence number of the call that exceeds the budget",
      span: "the milliseconds between the first and the last call counted (by their `at_ms`); -1 for a `per run` budget",
    },
    render: (f) => ({
      message:
        f.span < 0
          ? `the recording makes ${plural(f.calls, "call")} of \`${f.capability}\` (calls ${f.first} to ${f.last} ` +
            `and more), more than the test's \`${f.budget}\` allows`
          : `the recording makes ${plural(f.calls, "call")} of \`${f.capability}\` within ` +
            `${f.span.toLocaleString("en")} ms (calls ${f.first} to ${f.last}), more than the test's ` +
            `\`${f.budget}\` allows`,
      notes: [
        "budgets are not enforced in a replay; a recording that exceeds one stands for a run the live program " +
          "could not make",
      ],
    }),
    explanation: `A replay takes no budget: its calls are answered from the recording, not made. But a
replays test stands for the live run, so its recording is checked against the budgets of the
test's needs before the test runs, by the time each call was made (its \`at_ms\`): more calls of
a budgeted capability in any window of the budget's unit (a sliding window, as the gateway
counts) than the budget allows fails the test. The recording was made under wider limits than
the test now declares: record it again under the test's needs, or widen the budget.`,
    wrong:
      `test "three pages" needs network.http("api.example.com") at most 2 per minute replays "pages.json"\n` +
      `# pages.json holds three calls to api.example.com made within a second\nrenyi test pages.ry`,
    right:
      `test "three pages" needs network.http("api.example.com") at most 3 per minute replays "pages.json"\n` +
      `renyi test pages.ry`,
    described: true,
  }),

  "E-RT-REPLAY-UNUSED": problem<{ count: number; calls: readonly string[]; capabilities?: readonly string[] }>({
    title: "A replays test that left recorded calls unused (--strict)",
    kind: "failed",
    facts: {
      count: "how many recorded calls the test did not use",
      calls: "each unused call, with its sequence number, primitive and arguments (at most 10 are listed)",
      capabilities: "the capabilities of the unused calls, without their scopes, each once (`console`, `environment`)",
    },
    render: (f) => ({
      message: `the test did not use ${plural(f.count, "recorded call")} of its recording`,
      notes: f.calls,
      hint:
        "If the test leaves these calls unused on purpose, say so after its recording's path: " +
        `\`unused ${(f.capabilities ?? ["console"]).join(", ")}\`, or name the part of the recording that is the ` +
        "test's with `calls N to M`.",
    }),
    explanation: `With \`renyi test --strict\`, a replays test must use every entry of its recording but
those its header excuses: an entry no call of the test was answered with means the test no
longer does what was recorded (a request dropped, a retry gone), or the recording holds more
than the test. A test that exercises part of a recorded run (its fetch, not its printing) says
so after the recording's path: \`calls 1 to 3\` makes those calls the whole of its recording,
\`unused console, time\` lets the calls of those capabilities stay unused. Otherwise remove the
entries, or refresh the recording with \`renyi test --refresh NAME\`.`,
    wrong: `renyi test --strict weather.ry   # fixtures/weather/berlin.json holds a call weather.ry no longer makes`,
    right: `renyi test --refresh "the forecast for Berlin is read" weather.ry\nrenyi test --strict weather.ry`,
    described: true,
  }),
};
