// `renyi view`'s server: an answer as the server sends it, and a refusal's body.

export interface ApiAnswer {
  readonly status: number;
  readonly type: string;
  readonly body: string | Buffer;
}

/** A refusal as every part of the server answers one: `{"code", "message"}` (view/api.ts, Refusal). */
export function refusalAnswer(status: number, code: string, message: string): ApiAnswer {
  return { status, type: "application/json; charset=utf-8", body: JSON.stringify({ code, message }) };
}
