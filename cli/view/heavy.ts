// The answers of `renyi view` that read a recording or check a program (spec/view.md, section 3):
// `api/program`, `api/recording`, `api/call` and `api/compare`. They are made in the reader
// (reader.ts), a process of its own: the server has resolved the ids to files (found.ts) and
// sends the files found; a reading that takes more memory or time than the reader may use ends the
// reader, not the server (reader-process.ts).

import type { ApiAnswer } from "./answers.js";
import { jsonAnswer, refusalAnswer, viewRefusal } from "./answers.js";
import { type Found, isServed, type Root } from "./found.js";
import { programView } from "./program-view.js";
import { callDetail, compareView, readFound, recordingView } from "./recording-view.js";

/** What the server asks the reader for: the files named are resolved and served. */
export type HeavyJob =
  | { readonly kind: "program"; readonly file: Found; readonly root: Root }
  | { readonly kind: "recording"; readonly file: Found }
  | { readonly kind: "call"; readonly file: Found; readonly index: string }
  | { readonly kind: "compare"; readonly a: Found; readonly b: Found };

/** The recording a file names, read, or the refusal to send. */
function recordingOf(file: Found) {
  const read = readFound(file);
  if (!read.ok) return refusalAnswer(422, read.code, read.message);
  return { id: file.id, recording: read.recording, grant: read.grant };
}

/** The answer to a job. */
export function answerHeavy(job: HeavyJob): ApiAnswer {
  switch (job.kind) {
    case "program":
      return jsonAnswer(programView(job.file.id, job.file.path, (real) => isServed(job.root, real)));
    case "recording": {
      const read = recordingOf(job.file);
      return "status" in read ? read : jsonAnswer(recordingView(read.id, read.recording, read.grant));
    }
    case "call": {
      const read = recordingOf(job.file);
      if ("status" in read) return read;
      const index = job.index;
      if (!/^(0|[1-9][0-9]{0,8})$/.test(index) || Number(index) >= read.recording.calls.length)
        return viewRefusal(404, "E-VIEW-NOT-FOUND", {
          what: `call ${JSON.stringify(index.slice(0, 40))} of ${read.id}`,
          why: `the recording has ${read.recording.calls.length.toLocaleString("en")} calls, numbered from 0`,
        });
      return jsonAnswer(callDetail(read.recording, Number(index)));
    }
    case "compare": {
      const a = recordingOf(job.a);
      if ("status" in a) return a;
      const b = recordingOf(job.b);
      if ("status" in b) return b;
      return jsonAnswer(compareView(a, b));
    }
  }
}
