// The requests a server answered, read from a recording as hostile input
// (spec/recording.md, "Servers" and "Reading a recording"): each field of its
// type, headers that HTTP could have carried (a name a token, a value without
// CR, LF or NUL), a body no larger than a server reads, a status a handler could
// answer; and every call's `request` naming one of them. Anything else is
// refused with the JSON path of what is wrong. The work is linear in the file.

import type { Json } from "./strict-json.js";
import { fieldsOf, isObject, list, refuse, text } from "./json-shape.js";
import { DEFAULT_LIMITS } from "../vocabulary/limits.js";
import {
  MAX_RECORDED_REQUESTS,
  MAX_REQUEST_BODY_BYTES,
  type RecordedBody,
  type RecordedRequest,
  type RecordedResponse,
} from "../vocabulary/recorded-requests.js";
import type { RecordedCall } from "../vocabulary/recording.js";

const fields = fieldsOf("a recording");

// RFC 9110: a method and a field name are tokens; a field value has no control character but tab, and is
// Latin-1, as Node reads and sends it.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** A path as the URL parser writes it: from `/`, percent-encoded, so visible ASCII alone. */
const PATH = /^\/[\x21-\x7e]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** The headers a server frames a response with itself: a handler cannot give them (lib/server.ts). */
const FRAMING = new Set(["content-length", "transfer-encoding", "connection"]);

/** The recording's `requests`, read: numbered 1, 2, 3… increasing, in the order their handlers were called. */
export function requestsOf(value: Json | undefined): RecordedRequest[] {
  let last = 0;
  return list(value, "`requests`", MAX_RECORDED_REQUESTS).map((r, i) => {
    const request = requestOf(r, `requests[${i}]`);
    if (request.sequence <= last)
      refuse(
        `requests[${i}].sequence is ${request.sequence}, which does not come after ${last}: the requests are ` +
          `numbered in the order their handlers were called`,
      );
    last = request.sequence;
    return request;
  });
}

function requestOf(value: Json, where: string): RecordedRequest {
  const at = fields(
    value,
    where,
    ["sequence", "method", "path", "query", "headers"],
    ["body", "bytes", "at_ms", "response"],
  );
  const method = text(at["method"], `${where}.method`);
  if (!TOKEN.test(method)) refuse(`${where}.method is ${JSON.stringify(method)}, but a method is an HTTP token`);
  const path = text(at["path"], `${where}.path`);
  if (!PATH.test(path))
    refuse(`${where}.path is ${JSON.stringify(path)}, but a path begins with / and holds visible ASCII alone`);
  const request: RecordedRequest = {
    sequence: whole(at["sequence"], `${where}.sequence`, 1),
    method,
    path,
    query: textsOf(at["query"], `${where}.query`),
    headers: headersOf(at["headers"], `${where}.headers`, true),
    ...bodyOf(at, where),
  };
  if ("at_ms" in at) {
    const ms = at["at_ms"];
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0)
      refuse(`${where}.at_ms must be a number of milliseconds, 0 or more`);
    request.at_ms = ms;
  }
  if ("response" in at)
    request.response = at["response"] === "sealed" ? "sealed" : responseOf(at["response"], `${where}.response`);
  return request;
}

function responseOf(value: Json | undefined, where: string): RecordedResponse {
  const at = fields(value, where, ["status", "headers"], ["body", "bytes"]);
  const status = at["status"];
  if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599)
    refuse(`${where}.status is ${JSON.stringify(status)}, but a server answers with a whole number from 200 to 599`);
  const headers = headersOf(at["headers"], `${where}.headers`, false);
  for (const name of Object.keys(headers))
    if (FRAMING.has(name.toLowerCase()))
      refuse(`${where}.headers[${JSON.stringify(name)}] is framing the server adds itself; no handler gives it`);
  return { status, headers, ...bodyOf(at, where, Infinity) };
}

/** An object of texts: a query's parameters. */
function textsOf(value: Json | undefined, where: string): { [name: string]: string } {
  if (!isObject(value)) refuse(`${where} must be an object`);
  const out: { [name: string]: string } = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") refuse(`${where}[${JSON.stringify(k)}] must be a text`);
    out[k] = v;
  }
  return out;
}

/** Headers HTTP could carry: each name a token (in lower case, as a request's are read), each value a field value. */
function headersOf(value: Json | undefined, where: string, lowerCase: boolean): { [name: string]: string } {
  const out = textsOf(value, where);
  for (const [name, v] of Object.entries(out)) {
    const at = `${where}[${JSON.stringify(name)}]`;
    if (!TOKEN.test(name) || (lowerCase && name !== name.toLowerCase()))
      refuse(`${at}: ${JSON.stringify(name)} is no header name (an HTTP token${lowerCase ? ", in lower case" : ""})`);
    if (!FIELD_VALUE.test(v))
      refuse(`${at} is no header value: it holds CR, LF, NUL or another control character, or one beyond U+00FF`);
  }
  return out;
}

/** A body as HTTP bodies are recorded: `body` (text) or `bytes` (base64), one of them, and no larger than `most`. */
function bodyOf(at: { [key: string]: Json }, where: string, most = MAX_REQUEST_BODY_BYTES): RecordedBody {
  const body = at["body"];
  const bytes = at["bytes"];
  if ((body === undefined) === (bytes === undefined)) refuse(`${where} must have one of \`body\` and \`bytes\``);
  let size: number;
  let out: RecordedBody;
  if (body !== undefined) {
    if (typeof body !== "string") refuse(`${where}.body must be a text`);
    // At most 3 bytes of UTF-8 for each UTF-16 unit: measured only when it could be too large.
    size = body.length * 3 <= most ? 0 : Buffer.byteLength(body, "utf8");
    out = { body };
  } else {
    if (typeof bytes !== "string" || !BASE64.test(bytes) || Buffer.from(bytes, "base64").toString("base64") !== bytes)
      refuse(`${where}.bytes must be base64`);
    // Canonical base64 (checked above) is whole groups of four, padding counted off.
    size = (bytes.length / 4) * 3 - (bytes.endsWith("==") ? 2 : bytes.endsWith("=") ? 1 : 0);
    out = { bytes };
  }
  if (size > most)
    refuse(
      `${where}'s body is ${size.toLocaleString("en")} bytes, more than the ${most.toLocaleString("en")} a server reads`,
    );
  return out;
}

function whole(value: Json | undefined, where: string, least: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < least)
    refuse(`${where} must be a whole number of at least ${least}`);
  return value;
}

/**
 * Every call's `request` names a request the recording holds, and the run's own calls, and each request's, keep to
 * the host-call limit, as a live run's do.
 */
export function checkRequestsOfCalls(calls: readonly RecordedCall[], requests: readonly RecordedRequest[]): void {
  const counts = new Map<number, number>();
  for (const r of requests) counts.set(r.sequence, 0);
  let own = 0;
  const limit = DEFAULT_LIMITS.maxHostCalls;
  calls.forEach((call, i) => {
    if (call.request === undefined) {
      if (++own > limit) refuse(`\`calls\` has more than ${limit.toLocaleString("en")} calls of the run's own`);
      return;
    }
    const count = counts.get(call.request);
    if (count === undefined)
      refuse(`calls[${i}].request is ${call.request}, but the recording holds no request of that sequence`);
    if (count + 1 > limit)
      refuse(`request ${call.request} has more than ${limit.toLocaleString("en")} calls in \`calls\``);
    counts.set(call.request, count + 1);
  });
}
