// `renyi grant REC [FILE.ry] [--json]` (spec/recording.md, "The least grant"):
// prints the narrowest `needs` line that covers every call of the recording,
// then where main's needs (FILE.ry's, or the recording's grant header) are
// wider than the recording used, so that a reviewer can tighten a grant from
// evidence. The recording is read by the one reader, as hostile input.

import { renderText } from "../../compiler/diagnostics.js";
import { EXIT } from "../../vocabulary/outcomes.js";
import { covers } from "../../vocabulary/capabilities.js";
import { readNeedText } from "../../vocabulary/grant-text.js";
import { grantText, type GrantItem, type Need } from "../../vocabulary/needs.js";
import type { Recording } from "../../vocabulary/recording.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import { programCode } from "../host/code-hash.js";
import { leastGrant, needsLine, type LeastGrant } from "../recordings/least-grant.js";
import { readRecordingFile, refusalText } from "../recordings/reader.js";
import { recordAgainCommand } from "../recordings/record-again.js";
import { splitFlag, unknownFlagProblem, usageText } from "../host/command-declaration.js";
import { GRANT_COMMAND } from "./catalogue.js";

export async function grantCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usageText(GRANT_COMMAND));
    return EXIT.finished;
  }
  const parsed = parseGrantArguments(argv);
  if ("problem" in parsed || parsed.words.length === 0 || parsed.words.length > 2) {
    process.stderr.write("problem" in parsed ? `error: ${parsed.problem}\n` : usageText(GRANT_COMMAND));
    return EXIT.refused;
  }
  const { json, words } = parsed;
  const read = readRecordingFile(words[0]!);
  if (!read.ok) {
    process.stderr.write(refusalText(read));
    return EXIT.refused;
  }
  const { recording, grant: header } = read;
  // The evidence must agree with itself: a call outside the grant it was recorded under was not made by that run.
  const outside = recording.calls.find((c) => !header.some((g) => covers(g, readNeedText(c.capability) as Need)));
  if (outside !== undefined) {
    const detail = `call ${outside.sequence} uses \`${outside.capability}\`, which the recording's own grant does not cover`;
    process.stderr.write(
      refusalText({
        code: "E-RT-RECORDING",
        problem: runMessage("E-RT-RECORDING", { file: words[0]!, problem: "field", detail }),
      }),
    );
    return EXIT.refused;
  }
  let main: readonly GrantItem[] = header;
  let against = "the recording's grant";
  if (words[1] !== undefined) {
    const program = await programNeeds(words[1], recording);
    if ("refused" in program) {
      process.stderr.write(program.refused);
      return EXIT.refused;
    }
    main = program.needs;
    against = `the needs of ${words[1]}`;
  }
  const least = leastGrant(recording.calls, main);
  process.stdout.write(
    json ? `${JSON.stringify(jsonReport(least, against, recording), null, 2)}\n` : textReport(least, against, main),
  );
  const again = recordAgainNote(header, main, least, words[0]!, words[1], recording);
  if (!json && again !== undefined) process.stdout.write(again);
  return least.uncovered.length > 0 ? EXIT.failed : EXIT.finished;
}

/** `renyi grant`'s flags (--json, anywhere) and its words, or why they are refused. */
export function parseGrantArguments(argv: readonly string[]): { json: boolean; words: string[] } | { problem: string } {
  const words = argv.filter((a) => !a.startsWith("--"));
  const flags = argv.filter((a) => a.startsWith("--")).map(splitFlag);
  for (const { name, inline } of flags) {
    if (!GRANT_COMMAND.flags.some((d) => d.name === name)) return { problem: unknownFlagProblem(GRANT_COMMAND, name) };
    if (inline !== undefined) return { problem: `${name} takes no value` };
  }
  return { json: flags.length > 0, words };
}

/** main's needs in FILE.ry, checked as `renyi check` would; a warning when it is not the recorded program. */
async function programNeeds(file: string, recording: Recording): Promise<{ needs: GrantItem[] } | { refused: string }> {
  const { loadProgram } = await import("../host/program.js");
  const { checkProgramSources } = await import("../../compiler/index.js");
  const { grantItemOf } = await import("../../compiler/check/grants.js");
  const program = loadProgram(file);
  if (program.problems.length > 0) return { refused: renderText(program.problems, program.sources) };
  const checked = checkProgramSources(program.modules, program.entry);
  if (checked.program === undefined) return { refused: renderText(checked.diagnostics, program.sources) };
  const main = checked.program.main;
  if (main === undefined)
    return { refused: `error: ${file} has no \`main\`, whose needs the recording would be compared with\n` };
  const code = programCode(program);
  if (code !== recording.code)
    process.stderr.write(
      `warning: ${file} is not the recorded program (its code hashes to ${code}, the recording's to ${recording.code}); its needs are compared all the same\n`,
    );
  return { needs: main.needs.map(grantItemOf) };
}

function textReport(least: LeastGrant, against: string, main: readonly GrantItem[]): string {
  const calls = least.items.reduce((n, l) => n + l.calls.length, 0);
  const lines = [least.items.length === 0 ? "(the recording holds no call: main needs nothing)" : needsLine(least)];
  lines.push(
    "",
    `${calls.toLocaleString("en")} call${calls === 1 ? "" : "s"} compared with ${against}${main.length === 0 ? " (nothing)" : `: ${main.map(grantText).join(", ")}`}`,
  );
  if (least.wider.length === 0 && least.uncovered.length === 0)
    lines.push("main's needs are no wider than the recording used");
  if (least.wider.length > 0) {
    lines.push("wider than the recording used:");
    for (const w of least.wider) lines.push(`  ${w.item}: ${w.text}`);
  }
  if (least.uncovered.length > 0) {
    lines.push("not covered by main's needs (a replay under them is refused):");
    for (const c of least.uncovered.slice(0, 10)) lines.push(`  call ${c.sequence}: ${c.capability} (${c.primitive})`);
    if (least.uncovered.length > 10) lines.push(`  and ${(least.uncovered.length - 10).toLocaleString("en")} more`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A replay checks the recording's grant header against the program's needs (spec/recording.md, "The grant"): once
 * main's needs are narrowed to the least grant, a recording made under the wider grant is refused. Said when that is
 * so, with the command that records the run again; or when FILE.ry's needs already do not cover the header.
 */
function recordAgainNote(
  header: readonly GrantItem[],
  main: readonly GrantItem[],
  least: LeastGrant,
  rec: string,
  file: string | undefined,
  recording: Recording,
): string | undefined {
  const beyond = (needs: readonly GrantItem[]) => header.find((h) => !needs.some((g) => covers(g, h)));
  const again = `record the run again: ${recordAgainCommand(recording, rec, file ?? recording.source)}`;
  const refusedNow = file === undefined ? undefined : beyond(main);
  if (refusedNow !== undefined)
    return (
      `\nnote: ${rec} was recorded under a wider grant than ${file} needs (\`${grantText(refusedNow)}\`): a replay of ` +
      `it is refused (E-RT-REPLAY-GRANT); ${again}\n`
    );
  const refusedOnceNarrowed = beyond(least.items.map((l) => l.item));
  if (refusedOnceNarrowed === undefined) return undefined;
  return (
    `\nnote: once main's needs are narrowed to this line, ${rec}, recorded under the wider grant ` +
    `(\`${grantText(refusedOnceNarrowed)}\`), is refused by a replay (E-RT-REPLAY-GRANT); then ${again}\n`
  );
}

function jsonReport(least: LeastGrant, against: string, recording: Recording): unknown {
  return {
    needs: needsLine(least),
    items: least.items.map((l) => ({ item: grantText(l.item), calls: l.calls.length })),
    compared_with: against,
    recorded_grant: recording.grant,
    wider: least.wider,
    uncovered: least.uncovered.map((c) => ({ sequence: c.sequence, capability: c.capability, primitive: c.primitive })),
  };
}
