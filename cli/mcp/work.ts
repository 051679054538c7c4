// What `renyi mcp` does with a request's program or a recording, done in a
// worker thread (mcp-worker.ts) under the limits mcp-pool.ts sets, never on
// the thread that reads and answers requests: checking a program the client
// sent, explaining a code, and reading a recording. Each job's answer is plain
// data, copied back to the server's thread; an answer larger than
// MAX_ANSWER_CHARS is refused here, in the worker, rather than copied.

import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { checkProgramFrom } from "../../compiler/index.js";
import { grantItemOf } from "../../compiler/check/grants.js";
import { toJson, type JsonDiagnostic } from "../../compiler/diagnostics.js";
import { SourceFile } from "../../compiler/source.js";
import { sha256 } from "../../report/sha256.js";
import type { GrantItem } from "../../vocabulary/needs.js";
import { entryOf, isCode } from "../../vocabulary/problems/index.js";
import { explanation, whenText } from "../host/explanation.js";

/** The most characters of JSON an answer may take: a program whose diagnostics say more is answered with a refusal. */
export const MAX_ANSWER_CHARS = 16 * 1024 * 1024;

/** The largest recording the resource reads: a bigger one is for `renyi` on the command line. */
const MAX_RECORDING_RESOURCE_BYTES = 8 * 1024 * 1024;

/**
 * Beside a recording whose run decided on guarded data its guards keep from the console: its calls are not shown to the
 * agent.
 */
export const CONCEALED = ".concealed";

/**
 * The name a run records under (`rec-X.pending.json`) until the server has
 * decided whether its calls are concealed: no listing or read finds it.
 */
export const PENDING = ".pending.json";

export type Job =
  | { readonly kind: "program"; readonly entry: string; readonly texts: ReadonlyMap<string, string> }
  | { readonly kind: "explain"; readonly code: string }
  | { readonly kind: "recording"; readonly folder: string; readonly id: string }
  | { readonly kind: "recorded-arguments"; readonly file: string };

/** A request's program as the tools use it: what the checker found, as data. */
export interface CompiledProgram {
  readonly entry: string;
  /** sha256 of the request's sources, each module's name and text in order. */
  readonly sources: string;
  /** Every module read. */
  readonly files: string[];
  readonly diagnostics: JsonDiagnostic[];
  /** Whether the program compiled (it has no error). */
  readonly compiled: boolean;
  /** The entry module's `main`, when the program compiled and has one. */
  readonly main?: { readonly needs: GrantItem[]; readonly purpose?: string };
  readonly modules: {
    readonly file: string;
    readonly entry: boolean;
    readonly tests: { readonly name: string; readonly replays?: string; readonly needs: GrantItem[] }[];
  }[];
}

export type ProgramAnswer = CompiledProgram | { readonly refused: string };
export type ExplainAnswer = { readonly result: CallToolResult; readonly code: string };
export type RecordingAnswer = { readonly text: string } | { readonly refused: string };

/** Does a job: what the worker runs for each message. */
export function doJob(job: Job): unknown {
  switch (job.kind) {
    case "program":
      return compiledProgram(job.entry, job.texts);
    case "explain":
      return explainAnswer(job.code);
    case "recording":
      return recordingText(job.folder, job.id);
    case "recorded-arguments":
      return recordedArguments(job.file);
  }
}

function compiledProgram(entry: string, texts: ReadonlyMap<string, string>): ProgramAnswer {
  for (const [name, text] of texts) {
    const bad = notText(text);
    if (bad !== undefined) return { refused: `the source of \`${name}\` is not text: ${bad}` };
  }
  const result = checkProgramFrom({
    entry,
    read: (name) => (texts.has(name) ? { file: `${name}.ry`, text: texts.get(name)! } : undefined),
  });
  const sources = new Map(result.sources.map((m): [string, SourceFile] => [m.file, new SourceFile(m.file, m.text)]));
  const { diagnostics } = toJson(result.diagnostics, sources);
  const program = result.program;
  const main = program?.main;
  return {
    entry,
    sources: sha256(JSON.stringify([...texts])),
    files: [...sources.keys()],
    diagnostics,
    compiled: program !== undefined,
    ...(main !== undefined
      ? {
          main: {
            needs: main.needs.map(grantItemOf),
            ...(main.purpose !== undefined ? { purpose: main.purpose } : {}),
          },
        }
      : {}),
    modules: (program?.modules ?? []).map((m) => ({
      file: m.file,
      entry: m.name === entry,
      tests: m.tests.map((t) => ({
        name: t.name,
        ...(t.replays !== undefined ? { replays: t.replays } : {}),
        needs: t.needs.map(grantItemOf),
      })),
    })),
  };
}

/** Why a text cannot be a source file (it has no UTF-8 form, or is binary), or nothing. */
function notText(text: string): string | undefined {
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  if (lone !== null)
    return (
      `a lone surrogate (U+${text.charCodeAt(lone.index).toString(16).toUpperCase()}) at offset ${lone.index}, ` +
      `which UTF-8 cannot encode`
    );
  const nul = text.indexOf("\0");
  if (nul >= 0) return `a NUL character at offset ${nul}, as in a binary file`;
  return undefined;
}

function refused(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

function explainAnswer(text: string): ExplainAnswer {
  const code = text.toUpperCase();
  const logged = code.slice(0, 100);
  if (!isCode(code)) {
    // explanation() refuses it with the closest code, in the words `renyi explain` uses.
    try {
      explanation(text);
    } catch (e) {
      return { result: refused(e instanceof Error ? e.message : String(e)), code: logged };
    }
    return { result: refused(`\`${text}\` is not a code of Renyi's`), code: logged };
  }
  const row = entryOf(code);
  return {
    code: logged,
    result: {
      content: [{ type: "text", text: explanation(code) }],
      structuredContent: {
        code,
        title: row.title,
        when: whenText(code, row),
        explanation: row.explanation.trim(),
        facts: { ...(row.facts as Record<string, string>) },
        wrong: row.wrong.trim(),
        right: row.right.trim(),
        described: row.described === true,
      },
    },
  };
}

/** A recording as the resource shows it; `id` is one RECORDING_ID accepts (mcp-resources.ts checks it first). */
function recordingText(folder: string, id: string): RecordingAnswer {
  const file = join(folder, `${id}.recording.json`);
  if (!existsSync(file)) return { refused: `there is no recording ${id} in this server's recordings folder` };
  const size = statSync(file).size;
  if (size > MAX_RECORDING_RESOURCE_BYTES)
    return {
      refused:
        `the recording ${id} is ${size.toLocaleString("en")} bytes, more than the 8 MiB this resource reads; the ` +
        `file is ${file}`,
    };
  const text = readFileSync(file, "utf8");
  // Its run decided on guarded data: the header is shown, its calls (how many, which) are not; the server's replay
  // reads the file.
  if (!entryAt(join(folder, `${id}${CONCEALED}`))) return { text };
  try {
    return {
      text: JSON.stringify({
        ...(JSON.parse(text) as object),
        calls: "sealed: the run decided on guarded data that its guards keep from the console",
      }),
    };
  } catch {
    return { refused: `the recording ${id} is not JSON` };
  }
}

/** Whether anything is at the name, a link that leads nowhere included: a marker whatever it is, failing closed. */
function entryAt(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/** The arguments a recording's run was given, which its replay is given again; none when they cannot be read. */
function recordedArguments(file: string): string[] {
  try {
    const recorded = (JSON.parse(readFileSync(file, "utf8")) as { arguments?: unknown }).arguments;
    if (Array.isArray(recorded) && recorded.every((a) => typeof a === "string")) return recorded as string[];
  } catch {
    // An unreadable recording is for the replay to refuse, in its own words.
  }
  return [];
}
