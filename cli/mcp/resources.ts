// The resources of `renyi mcp` (spec/mcp.md, "Resources"): what an agent reads
// before it writes a program (the language reference, the library reference,
// the examples) and the recordings this server's run tool made. Every address
// is one of a fixed list or a recording's id that RECORDING_ID accepts: no
// address a client sends becomes a path. A recording is read in a worker
// thread (mcp-pool.ts), under the limits every check is held to.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { RECORDING_ID, shownId } from "./run-tool.js";
import type { Stopped } from "./pool.js";
import type { Job, RecordingAnswer } from "./work.js";
import { PACKAGE_ROOT } from "../host/places.cjs";

/** The package's own folder, which holds spec/ and examples/ beside dist/. */

/** The most recordings `resources/list` names (in the order of their ids); any other is read by its id all the same. */
const MAX_LISTED = 1_000;

/** Does a job in a worker thread; a refusal's text when it gave no answer. */
export type Work = (job: Job) => Promise<{ answer: unknown } | Stopped>;

const DOCUMENTS = [
  {
    name: "language",
    file: "spec/language.md",
    title: "The Renyi language reference",
    description:
      "Renyi's syntax and semantics: definitions, types, failures, capabilities and needs, budgets and guards, " +
      "tests. Read it before writing a program.",
  },
  {
    name: "library",
    file: "spec/library.md",
    title: "The Renyi library reference",
    description:
      "Every module and function of Renyi's library, with its signature, what it does, how it fails and what it costs.",
  },
] as const;

export function registerResources(
  server: McpServer,
  recordings: string,
  work: Work,
  stoppedText: (done: Stopped) => string,
): void {
  for (const doc of DOCUMENTS) {
    const uri = `renyi://docs/${doc.name}`;
    server.registerResource(
      doc.name,
      uri,
      { title: doc.title, description: doc.description, mimeType: "text/markdown" },
      () => ({
        contents: [{ uri, mimeType: "text/markdown", text: readFileSync(join(PACKAGE_ROOT, doc.file), "utf8") }],
      }),
    );
  }
  for (const example of examples()) {
    const uri = `renyi://examples/${example.name}`;
    server.registerResource(
      `example ${example.name}`,
      uri,
      { title: `Example: ${example.name}`, description: example.description, mimeType: "text/x-renyi" },
      () => ({
        contents: [{ uri, mimeType: "text/x-renyi", text: readFileSync(example.file, "utf8") }],
      }),
    );
  }
  server.registerResource(
    "recording",
    new ResourceTemplate("renyi://recordings/{id}", {
      list: () => ({
        resources: recordingIds(recordings)
          .slice(0, MAX_LISTED)
          .map((id) => ({ uri: `renyi://recordings/${id}`, name: id, mimeType: "application/json" })),
      }),
    }),
    {
      title: "A recording of a run",
      description:
        "A run the run tool recorded (the id its result gave), as the recording file holds it: the header with " +
        "the program's hash and grant, and every call with its answer.",
      mimeType: "application/json",
    },
    async (uri, variables) => {
      const id = String(variables["id"]);
      if (!RECORDING_ID.test(id))
        throw new McpError(
          ErrorCode.InvalidParams,
          `\`${shownId(id)}\` is not a recording's id: an id is rec- and 12 hexadecimal digits, as the run tool ` +
            `gives it`,
        );
      const done = await work({ kind: "recording", folder: recordings, id });
      if (!("answer" in done)) throw new McpError(ErrorCode.InternalError, stoppedText(done));
      const read = done.answer as RecordingAnswer;
      if ("refused" in read) throw new McpError(ErrorCode.InvalidParams, read.refused);
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: read.text }] };
    },
  );
}

/** The examples shipped with renyi: each program's opening comment describes it. */
function examples(): { name: string; file: string; description: string }[] {
  const folder = join(PACKAGE_ROOT, "examples");
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith(".ry"))
    .sort()
    .map((name) => {
      const file = join(folder, name);
      const lines = readFileSync(file, "utf8").split("\n");
      const end = lines.findIndex((l) => !l.startsWith("--"));
      const comment = lines
        .slice(0, end < 0 ? lines.length : end)
        .map((l) => l.replace(/^--\s?/, ""))
        .join(" ")
        .replace(/^\S+\.ry:\s*/, "");
      return { name, file, description: comment === "" ? `The example program ${name}` : comment };
    });
}

function recordingIds(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith(".recording.json"))
    .map((f) => f.slice(0, -".recording.json".length))
    .filter((id) => RECORDING_ID.test(id))
    .sort();
}
