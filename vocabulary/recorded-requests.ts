// The requests a server answered, as a recording holds them (spec/recording.md,
// "Servers"): each request its handler was called with, and the response it
// gave. The calls its handler made are entries of `calls` like any other, each
// with the `request` it was made for.

/** A body as HTTP bodies are recorded: its text when it is UTF-8 without a byte order mark, or base64 `bytes`. */
export type RecordedBody = { body: string } | { bytes: string };

/** What the server sent: the status, the headers as the handler gave them (the server's framing left out), the body. */
export type RecordedResponse = { status: number; headers: { [name: string]: string } } & RecordedBody;

/** One request a server's handler was called with, numbered in the order the handler was called. */
export type RecordedRequest = {
  sequence: number;
  method: string;
  /** The path, without the query, as the program's `Request` has it. */
  path: string;
  query: { [name: string]: string };
  /** The names in lower case, as the program's `Request` has them. */
  headers: { [name: string]: string };
  /** When the handler was called, in whole milliseconds since the run began. */
  at_ms?: number;
  /**
   * What the server answered: left out for a request it never answered (the server ended while its handler was
   * running, or the run was stopped by force); `sealed` in a sealed recording (renyi mcp), where a response may carry
   * guarded data its guards let go to the client, and is not written.
   */
  response?: RecordedResponse | "sealed";
} & RecordedBody;

/**
 * The most requests a recording may hold. A server answers without a count, each request with its own limits; the
 * bound keeps a reader's work in proportion to a file the size bound already allows.
 */
export const MAX_RECORDED_REQUESTS = 1_000_000;

/** The most entries `calls` may hold in a recording with requests: the run's own and every handler's. */
export const MAX_SERVED_CALLS = 4_000_000;

/** The largest body a server reads (a larger one is answered 413 without calling the handler). */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;
