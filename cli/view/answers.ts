// `renyi view`'s server: an answer as the server sends it, and a refusal's body.

import { runMessage, type RunCode, type RunFacts } from "../../vocabulary/problems/run.js";

export interface ApiAnswer {
  readonly status: number;
  readonly type: string;
  readonly body: string | Buffer;
}

/** JSON whose `<`, `>` and `&` (and the two line separators) are escaped: text from a file stays text anywhere. */
export function jsonAnswer(value: unknown, status = 200): ApiAnswer {
  const body = JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return { status, type: "application/json; charset=utf-8", body };
}

/** A refusal as every part of the server answers one: `{"code", "message"}` (view/api.ts, Refusal). */
export function refusalAnswer(status: number, code: string, message: string): ApiAnswer {
  return jsonAnswer({ code, message }, status);
}

type ViewCode = Extract<RunCode, `E-VIEW-${string}`>;

/** A refusal of the server's own, its message made from its facts by the catalogue (vocabulary/problems/view.ts). */
export function viewRefusal<C extends ViewCode>(status: number, code: C, facts: RunFacts<C>): ApiAnswer {
  return refusalAnswer(status, code, runMessage(code, facts));
}
