// The requests a server answers, recorded and replayed (spec/recording.md,
// "Servers"). Each request runs on an account of its own (rtlib/limits.ts),
// which the promise hooks keep loaded for everything its handler does
// (rtlib/tasks.ts); the account is tied here to the request's number, so that a
// call the gateway sees is known to be that request's, recorded with its
// number, and, in a replay, answered from that request's own calls.

import type { Account } from "../limits.js";
import { loadedAccount } from "../limits.js";
import type { RMap } from "../values.js";
import type { RecordedBody, RecordedRequest, RecordedResponse } from "../../vocabulary/recorded-requests.js";
import type { JsonValue } from "../../vocabulary/recording.js";
import { differences } from "./difference.js";

const numbers = new WeakMap<Account, number>();

/** Ties a request's account to its number: every call made on that account is that request's. */
export function bindRequest(account: Account, sequence: number): void {
  numbers.set(account, sequence);
}

/** The number of the request whose code is running, or undefined for the run's own code. */
export function loadedRequest(): number | undefined {
  return numbers.get(loadedAccount());
}

/** Where a recorded run's requests go, as they come and as they are answered. */
interface RequestSink {
  began(request: RecordedRequest): void;
  answered(sequence: number, response: RecordedResponse): void;
}

let sink: { readonly to: RequestSink; readonly began: number; next: number } | undefined;

/** Records each request from now on (renyi record), its `at_ms` counted from now, as the calls' are. */
export function recordRequestsTo(to: RequestSink): void {
  sink = { to, began: performance.now(), next: 0 };
}

/** What the program's `Request` holds, as the server built it. */
export interface IncomingFields {
  readonly method: string;
  readonly path: string;
  readonly query: RMap;
  readonly headers: RMap;
  readonly bytes: Uint8Array;
}

/**
 * A request about to be handled, recorded when the run is recorded: gives back its number (undefined when
 * nothing records), which the caller binds to the request's account.
 */
export function recordIncoming(fields: IncomingFields): number | undefined {
  if (sink === undefined) return undefined;
  const sequence = ++sink.next;
  sink.to.began({
    sequence,
    method: fields.method,
    path: fields.path,
    query: textsOf(fields.query),
    headers: textsOf(fields.headers),
    ...bodyOf(fields.bytes),
    at_ms: Math.max(0, Math.round(performance.now() - sink.began)),
  });
  return sequence;
}

/** The response a recorded request was answered with. */
export function recordAnswer(sequence: number | undefined, response: RecordedResponse): void {
  if (sequence !== undefined) sink?.to.answered(sequence, response);
}

function textsOf(map: RMap): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  for (const [k, v] of map.entries()) out[String(k)] = String(v);
  return out;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A body as HTTP bodies are recorded (rtlib/recording/encode.ts): its text when it is UTF-8 without a BOM, else base64. */
function bodyOf(bytes: Uint8Array): RecordedBody {
  if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    try {
      return { body: UTF8.decode(bytes) };
    } catch {
      // Not UTF-8: as base64, below.
    }
  }
  return { bytes: Buffer.from(bytes).toString("base64") };
}

/** A recorded body's bytes. */
export function bytesOf(body: RecordedBody): Buffer {
  return "body" in body ? Buffer.from(body.body, "utf8") : Buffer.from(body.bytes, "base64");
}

/** A response as recorded: the status, the headers the server was given, and the body. */
export function responseOf(status: number, headers: Record<string, string>, body: Uint8Array): RecordedResponse {
  return { status, headers: { ...headers }, ...bodyOf(body) };
}

/**
 * The fields in which a response a replay gave differs from the recorded one, one line each
 * (`response.status: 404 here, 200 in the recording`); a body is compared as text, a JSON body by its meaning.
 */
export function responseDifferences(made: RecordedResponse, recorded: RecordedResponse): string[] {
  const out: string[] = [];
  differences(comparable(made), comparable(recorded), "response", out);
  return out;
}

/** A response with its body as text when it is one, so that a body recorded as text and given as bytes compare. */
function comparable(response: RecordedResponse): JsonValue {
  const { status, headers } = response;
  return { status, headers, ...bodyOf(bytesOf(response)) } as JsonValue;
}

/** What a replay feeds a server: the recorded requests, in the order their handlers were called. */
let toReplay: readonly RecordedRequest[] | undefined;

/** A replay of a run that served: `serve` feeds these to its handler instead of listening. */
export function replayRequests(requests: readonly RecordedRequest[] | undefined): void {
  toReplay = requests;
}

/** The recorded requests a replayed `serve` feeds its handler, or undefined for a live run. */
export function requestsToReplay(): readonly RecordedRequest[] | undefined {
  return toReplay;
}

/**
 * Thrown at the call of a replayed request that the recorded run stopped before: the server ended (or
 * the run was stopped) while its handler ran, so the request was never answered, and the replay leaves it there.
 */
export class RequestNotAnswered extends Error {
  constructor() {
    super("the recorded server stopped this request here");
    this.name = "RequestNotAnswered";
  }
}
