// `renyi view`'s API (spec/view.md, section 3): what the page asks its server for, answered as
// JSON in the shapes of view/api.ts. Every file is named by an id that found.ts resolves
// against its root, or refuses; every answer is bounded (the sizes are said where each is made).
// The list and the texts are answered here; what reads a recording or checks a program is
// answered by the reader, a process of its own (reader-process.ts, heavy.ts), which the server waits
// on without blocking.

import { readBounded } from "../../report/read-bounded.js";
import { type ApiAnswer, jsonAnswer, viewRefusal } from "./answers.js";
import { type Found, type Kind, type NotFound, resolveId, type Root, walkRoots } from "./found.js";
import type { ReaderProcess } from "./reader-process.js";

export interface ViewContext {
  /** The folders and files given on the command line, resolved, with their real paths. */
  readonly roots: readonly Root[];
  /** The process that reads recordings and checks programs. */
  readonly reader: ReaderProcess;
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

/** The answer to `api/NAME?query`. */
export async function answerApi(name: string, query: URLSearchParams, context: ViewContext): Promise<ApiAnswer> {
  switch (name) {
    case "items":
      return jsonAnswer(walkRoots(context.roots));
    case "program": {
      const file = found(context, query, "id", "program");
      if (isAnswer(file)) return file;
      const root = context.roots[Number(file.id.split("/", 1)[0])]!;
      return context.reader.answer({ kind: "program", file, root });
    }
    case "recording": {
      const file = found(context, query, "id", "recording");
      return isAnswer(file) ? file : context.reader.answer({ kind: "recording", file });
    }
    case "call": {
      const file = found(context, query, "id", "recording");
      return isAnswer(file) ? file : context.reader.answer({ kind: "call", file, index: query.get("index") ?? "" });
    }
    case "compare": {
      const a = found(context, query, "a", "recording");
      if (isAnswer(a)) return a;
      const b = found(context, query, "b", "recording");
      return isAnswer(b) ? b : context.reader.answer({ kind: "compare", a, b });
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
