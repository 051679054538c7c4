// `renyi fetch-recording --restate ADMIN_URL INVOCATION_ID [--to OUT]`
// (spec/durable.md, "Recordings from production"): the journal Restate keeps
// of one invocation of a program `renyi serve --restate` serves, written as a
// recording (spec/recording.md) that `renyi reproduce`, `renyi run --replay`
// and `renyi run --resume` take. The recording is read back by the one reader
// before it is written; it is written whole or not at all, and never over a
// file unless --to names it.

import { existsSync } from "node:fs";
import { writeAtomically } from "../cache/cache.cjs";
import { EXIT } from "../../vocabulary/outcomes.js";
import { runWords, type RunFacts } from "../../vocabulary/problems/run.js";
import { readRecording } from "../recordings/reader.js";
import { INVOCATION_ID, readJournal } from "../durable/journal-rows.js";
import { recordingOfJournal } from "../durable/recording-of-journal.js";
import { givenTwiceProblem, splitFlag, unknownFlagProblem, usageText } from "../host/command-declaration.js";
import { FETCH_RECORDING_COMMAND } from "./catalogue.js";

type Facts = RunFacts<"E-RT-JOURNAL">;

export async function fetchRecordingCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usageText(FETCH_RECORDING_COMMAND));
    return EXIT.finished;
  }
  const parsed = parseFetchArguments(argv);
  if ("problem" in parsed) {
    process.stderr.write(`error: ${parsed.problem}\n`);
    return EXIT.refused;
  }
  const { admin, invocation } = parsed;
  const refused = (problem: Facts["problem"], detail: string): number => {
    const facts: Facts = { invocation, admin, problem, detail };
    const words = runWords("E-RT-JOURNAL", facts);
    process.stderr.write(`error[E-RT-JOURNAL]: ${words.message}\n`);
    if (words.hint !== undefined) process.stderr.write(`  = hint: ${words.hint}\n`);
    return EXIT.refused;
  };
  const out = parsed.to ?? `${invocation}.json`;
  // Checked before anything is asked of the cluster; the form of the id is checked again where it is sent.
  if (!INVOCATION_ID.test(invocation)) return refused("id", "an invocation id is `inv_1` and 33 letters and digits");
  // A journal expires; a recording fetched before is perhaps its only copy, so the default name is never written over.
  if (parsed.to === undefined && existsSync(out))
    return refused("file", `${out} exists; give --to ${out} to write over it, or another --to`);
  const read = await readJournal(admin, invocation);
  if (!read.ok) return refused(read.problem, read.detail);
  const made = recordingOfJournal(read.journal.rows);
  if (!made.ok) return refused("entry", made.detail);
  const text = `${JSON.stringify(made.recording, null, 2)}\n`;
  // The file must read back as every command reads a recording.
  const back = readRecording(Buffer.from(text, "utf8"), out);
  if (!back.ok) {
    const detail = back.facts.detail.replace(/^calls\[(\d+)\]/, (whole, i: string) => {
      const entry = made.entryOfCall[Number(i)];
      return entry === undefined ? whole : `call ${Number(i) + 1} (in entry ${entry})`;
    });
    return refused("recording", detail);
  }
  try {
    writeAtomically(out, text);
  } catch (e) {
    return refused("file", `${out}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  const { calls, outcome } = made.recording;
  const counted = `${calls.length.toLocaleString("en")} call${calls.length === 1 ? "" : "s"}`;
  if (made.ended) process.stderr.write(`fetched ${counted} to ${out} (the run ${outcome})\n`);
  else
    process.stderr.write(
      `fetched ${counted} to ${out}; the journal holds no end (the invocation is ` +
        `${read.journal.status ?? "gone"}): the recording is of the run so far, written as ${outcome}, without ` +
        `its output; renyi run --resume ${out} FILE.ry goes on from it\n`,
    );
  return EXIT.finished;
}

/** The command line read: the admin URL (--restate), the invocation id, --to; or why it is refused. */
export function parseFetchArguments(
  argv: readonly string[],
): { admin: string; invocation: string; to?: string } | { problem: string } {
  const given = new Set<string>();
  const values = new Map<string, string>();
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith("--")) {
      words.push(word);
      continue;
    }
    const { name, inline } = splitFlag(word);
    const flag = FETCH_RECORDING_COMMAND.flags.find((f) => f.name === name);
    if (flag === undefined) return { problem: unknownFlagProblem(FETCH_RECORDING_COMMAND, name) };
    const twice = givenTwiceProblem(given, flag);
    if (twice !== undefined) return { problem: twice };
    const value = inline ?? argv[++i];
    if (value === undefined || value === "") return { problem: `${name} needs a value` };
    values.set(name, value);
  }
  const admin = values.get("--restate");
  if (admin === undefined)
    return { problem: "`renyi fetch-recording` needs the admin API of the cluster: --restate http://HOST:9070" };
  if (words.length !== 1)
    return {
      problem:
        words.length === 0
          ? "`renyi fetch-recording` needs the id of an invocation: renyi fetch-recording --restate URL inv_…"
          : `\`renyi fetch-recording\` takes one invocation id; it was given ${words.length}`,
    };
  const to = values.get("--to");
  return { admin, invocation: words[0]!, ...(to !== undefined ? { to } : {}) };
}
