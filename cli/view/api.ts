// `renyi view`'s API (spec/view.md, section 3): what the page asks its server for, answered as
// JSON in the shapes of view/api.ts. Every file is named by an id that found.ts resolves
// against its root, or refuses; every answer is bounded (the sizes are said where each is made).

import { readBounded } from "../../report/read-bounded.js";
import { type ApiAnswer, jsonAnswer, refusalAnswer, viewRefusal } from "./answers.js";
import { type Found, isServed, type Kind, type NotFound, resolveId, type Root, walkRoots } from "./found.js";

// The compiler and the recording reader are loaded at the first request that needs them, not at the start: the
// address is printed, and the page's list answered, without them.
const programs = () => import("./program-view.js");
const recordings = () => import("./recording-view.js");

export interface ViewContext {
  /** The folders and files given on the command line, resolved, with their real paths. */
  readonly roots: readonly Root[];
}

/** The most bytes `api/text` answers: a program is at most 16 MiB; a recording the playground replays, this. */
const MAX_TEXT_BYTES = 32 * 1024 * 1024;

function notFound(what: string, refused: NotFound): ApiAnswer {
  return viewRefusal(404, "E-VIEW-NOT-FOUND", { what, why: refused.why });
}

function found(context: ViewContext, query: URLSearchParams, name: string, kind?: Kind): Found | ApiAnswer {
  const id = query.getAll(name);
  if (id.length > 1) return notFound(id[0]!, { why: `the request names ${name} more than once` });
  const resolved = resolveId(context.roots, id[0] ?? null, kind);
  return "path" in resolved ? resolved : notFound(id[0] ?? "", resolved);
}

function isAnswer(value: Found | ApiAnswer): value is ApiAnswer {
  return "status" in value;
}

/** A recording named by the query's `name`, read, or the refusal to send. */
async function recordingOf(context: ViewContext, query: URLSearchParams, name: string) {
  const file = found(context, query, name, "recording");
  if (isAnswer(file)) return file;
  const read = (await recordings()).readFound(file);
  if (!read.ok) return refusalAnswer(422, read.code, read.message);
  return { id: file.id, recording: read.recording, grant: read.grant };
}

/** The answer to `api/NAME?query`. */
export async function answerApi(name: string, query: URLSearchParams, context: ViewContext): Promise<ApiAnswer> {
  switch (name) {
    case "items":
      return jsonAnswer(walkRoots(context.roots));
    case "program": {
      const file = found(context, query, "id", "program");
      if (isAnswer(file)) return file;
      const root = context.roots[Number(file.id.split("/", 1)[0])]!;
      return jsonAnswer((await programs()).programView(file.id, file.path, (real) => isServed(root, real)));
    }
    case "recording": {
      const read = await recordingOf(context, query, "id");
      return "status" in read
        ? read
        : jsonAnswer((await recordings()).recordingView(read.id, read.recording, read.grant));
    }
    case "call": {
      const read = await recordingOf(context, query, "id");
      if ("status" in read) return read;
      const index = query.get("index") ?? "";
      if (!/^(0|[1-9][0-9]{0,8})$/.test(index) || Number(index) >= read.recording.calls.length)
        return viewRefusal(404, "E-VIEW-NOT-FOUND", {
          what: `call ${JSON.stringify(index.slice(0, 40))} of ${read.id}`,
          why: `the recording has ${read.recording.calls.length.toLocaleString("en")} calls, numbered from 0`,
        });
      return jsonAnswer((await recordings()).callDetail(read.recording, Number(index)));
    }
    case "compare": {
      const a = await recordingOf(context, query, "a");
      if ("status" in a) return a;
      const b = await recordingOf(context, query, "b");
      if ("status" in b) return b;
      return jsonAnswer((await recordings()).compareView(a, b));
    }
    case "text": {
      const file = found(context, query, "id");
      if (isAnswer(file)) return file;
      const read = readBounded(file.path, MAX_TEXT_BYTES);
      if (!read.ok)
        return file.bytes > MAX_TEXT_BYTES
          ? viewRefusal(413, "E-VIEW-TOO-LARGE", { what: file.id, limitMiB: MAX_TEXT_BYTES / (1024 * 1024) })
          : notFound(file.id, { why: read.why });
      return { status: 200, type: "text/plain; charset=utf-8", body: read.bytes };
    }
    default:
      return notFound(`api/${name}`, { why: "the server has no such answer" });
  }
}
