// The `http` module, on undici. Every status is a Response; a call fails only
// when no response came (HttpError). Redirects are followed by hand, at most
// ten, and each new address is checked against the grant like the first, so a
// redirect cannot take a call to a host the grant does not allow.

import { call, type Primitive } from "../gateway.js";
import { Failure } from "../errors.js";
import { watchCancellation } from "../limits.js";
import type { Grant } from "../grants.js";
import { HttpError, Response as ResponseRecord, Some } from "../prelude.js";
import { INT, map, record, TEXT, BYTES, describe, RMap } from "../values.js";
import { hostImport } from "../host-import.js";
import { Gathered, INCOMING } from "./incoming.js";
import { pinnedLookup } from "../host-addresses.js";

class Hop {
  constructor(
    readonly status: number,
    readonly headers: RMap,
    readonly bytes: Uint8Array,
  ) {}
}
const HOP = describe(Hop, "Hop", "Hop", [
  ["status", "status", "status", INT],
  ["headers", "headers", "headers", map(TEXT, TEXT)],
  ["bytes", "bytes", "bytes", BYTES],
]);

const MAX_REDIRECTS = 10;
/** What one hop gives back: the status, the headers and the bytes of the body. */
const RESULT = record(HOP, []);
const DEFAULT_TIMEOUT_MS = 30_000;

// undici is loaded by the first request, not when every program starts; one connection pool for the run.
let client: { agent: import("undici").Agent; request: typeof import("undici").request } | undefined;
async function undici(): Promise<NonNullable<typeof client>> {
  if (client === undefined) {
    const { Agent, request } = await hostImport<typeof import("undici")>("undici");
    // Every connection goes to an address of the host the guards checked, looked up once per run (host-addresses.ts).
    client = {
      agent: new Agent({ connections: 16, keepAliveTimeout: 1000, connect: { lookup: pinnedLookup } }),
      request,
    };
  }
  return client;
}

/** The scope of a call: the host, with its port when it is not the scheme's default. */
function hostOf(url: URL): string {
  return url.port === "" ? url.hostname : `${url.hostname}:${url.port}`;
}

function parse(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Failure(HttpError.make("InvalidUrl", text));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Failure(HttpError.make("InvalidUrl", text));
  return url;
}

/**
 * A Location header read against the address it came from; one that is no address fails the call as InvalidUrl, as a
 * live server or a recording may send it.
 */
function resolved(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new Failure(HttpError.make("InvalidUrl", location));
  }
}

/**
 * The methods that name a primitive of their own (`std.http.get`). Any other method a program gives `http.request` is
 * the primitive `std.http.request`, with the method among its arguments: a method made of the program's data (a
 * secret, guarded or redacted) is then an argument like any other, which a recording redacts or seals and an execution
 * record, a trace or a log line leaves out, and never the name of an operation.
 */
const NAMED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

function primitive(method: string, url: URL): Primitive {
  const host = hostOf(url);
  return {
    name: NAMED_METHODS.has(method) ? `std.http.${method.toLowerCase()}` : "std.http.request",
    need: { path: ["network", "http"], scope: host },
    // A grant that names other hosts refuses this one; a grant without the capability refuses it altogether.
    denied: (refused) =>
      refused.items.some((item) => item.path[0] === "network" && (item.path.length === 1 || item.path[1] === "http"))
        ? HttpError.make("HostNotAllowed", host)
        : HttpError.make("PermissionDenied", host),
    overBudget: () => HttpError.make("OverBudget", host),
    refusedByGuard: (origin, sink) => HttpError.make("Guarded", origin, sink),
    result: RESULT,
  };
}

function headersOf(raw: Record<string, string | string[] | undefined>): RMap {
  const headers = new RMap();
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers.setInPlace(name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

async function send(
  method: string,
  url: URL,
  body: string | undefined,
  headers: RMap,
  timeoutMs: number,
): Promise<Hop> {
  const requestHeaders: Record<string, string> = {};
  for (const [name, value] of headers.entries()) requestHeaders[String(name)] = String(value);
  const { agent, request: undiciRequest } = await undici();
  // Cancellation (Ctrl-C, the deadline) interrupts a request in flight.
  const controller = new AbortController();
  let cancelled: unknown;
  const stopWatching = watchCancellation((e) => {
    cancelled = e;
    controller.abort();
  });
  try {
    const response = await undiciRequest(url, {
      signal: controller.signal,
      method: method as "GET",
      headers: requestHeaders,
      ...(body !== undefined && method !== "GET" && method !== "HEAD" ? { body } : {}),
      dispatcher: agent,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const bytes = await bodyOf(response, url);
    return new Hop(response.statusCode, headersOf(response.headers), bytes);
  } catch (e) {
    if (cancelled !== undefined) throw cancelled;
    if (e instanceof Failure) throw e;
    const code = (e as { code?: string }).code ?? "";
    if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") {
      throw new Failure(HttpError.make("Timeout", url.href));
    }
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    const reason = cause ?? code ?? (e instanceof Error ? e.message : String(e));
    throw new Failure(
      HttpError.make("Unreachable", url.href, reason === "" ? (e instanceof Error ? e.message : String(e)) : reason),
    );
  } finally {
    stopWatching();
  }
}

/**
 * The body, read as it arrives and counted: past the limit for data coming in
 * (a Content-Length that says so, or the bytes themselves) the connection is
 * dropped and the call fails with TooLarge, having held no more than the limit.
 */
async function bodyOf(response: import("undici").Dispatcher.ResponseData, url: URL): Promise<Uint8Array> {
  const tooLarge = () => new Failure(HttpError.make("TooLarge", url.href, INCOMING.bytes));
  const declared = Number(response.headers["content-length"] ?? 0);
  if (declared > INCOMING.bytes) {
    response.body.destroy();
    throw tooLarge();
  }
  const gathered = new Gathered();
  for await (const chunk of response.body) {
    if (!gathered.add(chunk as Buffer)) {
      response.body.destroy();
      throw tooLarge();
    }
  }
  return new Uint8Array(gathered.take());
}

/**
 * Headers that say how the request is framed and carried, which the runtime
 * sets itself from the URL and the body: a program's own would frame the body
 * differently from what is sent (request smuggling) or keep a connection for
 * another use. They are dropped. `host` is not among them: a Host header that
 * names another host than the URL's is refused (requestHeaders).
 */
const FRAMING = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
  "te",
  "trailer",
  "expect",
]);

/** Headers that carry a credential, which a redirect to another origin does not take along (as browsers do). */
const CREDENTIALS = new Set(["authorization", "cookie", "proxy-authorization"]);

/**
 * The headers the request goes with: the program's, without the framing ones
 * and without Host, which is always the URL's. A Host header naming another
 * host (in any case, with spaces around its name or value) is refused with
 * HostNotAllowed before anything is sent: the grant decides by the URL's host,
 * and the request must go to the host the grant decided on.
 */
function requestHeaders(url: URL, headers: RMap): RMap {
  const kept = new RMap();
  for (const [name, value] of headers.entries()) {
    const key = String(name).trim().toLowerCase();
    if (key === "host") {
      const named = String(value).trim().toLowerCase();
      if (named !== url.host.toLowerCase()) throw new Failure(HttpError.make("HostNotAllowed", String(value).trim()));
      continue;
    }
    if (FRAMING.has(key)) continue;
    // A name that is no HTTP token, or a value with a line break, NUL or a character past one byte, would be refused by
    // the client after it took a connection (which a run of such requests then never got back): refused here, unsent.
    const problem = headerProblem(String(name), String(value));
    if (problem !== undefined) throw new Failure(HttpError.make("Unreachable", url.href, problem));
    kept.setInPlace(name, value);
  }
  return kept;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a header cannot be sent as written, if it cannot. */
function headerProblem(name: string, value: string): string | undefined {
  if (!TOKEN.test(name)) return `the header name ${JSON.stringify(name)} is not an HTTP token`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL, CR and LF are what a header value must not hold
  if (/[\r\n\0]|[^\u0000-\u00ff]/.test(value))
    return `the value of the header ${name} holds a line break, a NUL or a character HTTP cannot carry`;
  return undefined;
}

function withoutCredentials(headers: RMap): RMap {
  const kept = new RMap();
  for (const [name, value] of headers.entries())
    if (!CREDENTIALS.has(String(name).trim().toLowerCase())) kept.setInPlace(name, value);
  return kept;
}

/** One request and its redirects, each hop through the gateway. */
async function perform(
  grant: Grant,
  method: string,
  target: string,
  body: string | undefined,
  given: RMap,
  timeout: unknown,
  /** The method as the program wrote it: what a call of std.http.request records, so that redaction finds it as read. */
  methodAsGiven: string = method,
): Promise<unknown> {
  const timeoutMs =
    timeout instanceof Some
      ? Math.max(1, (timeout.value as { milliseconds: number }).milliseconds)
      : DEFAULT_TIMEOUT_MS;
  let url = parse(target);
  let headers = requestHeaders(url, given);
  let currentMethod = method;
  let currentBody = body;
  for (let hop = 0; ; hop++) {
    const args: Record<string, unknown> = NAMED_METHODS.has(currentMethod)
      ? { url: url.href }
      : { method: currentMethod === method ? methodAsGiven : currentMethod, url: url.href };
    if (currentBody !== undefined && currentBody !== "") args["body"] = currentBody;
    if (headers.size > 0) args["headers"] = headers;
    const result = await call(grant, primitive(currentMethod, url), args, () =>
      send(currentMethod, url, currentBody, headers, timeoutMs),
    );
    const location = result.headers.get("location");
    if (result.status >= 300 && result.status < 400 && typeof location === "string" && hop < MAX_REDIRECTS) {
      const next = parse(resolved(location, url));
      if (next.origin !== url.origin) headers = withoutCredentials(headers);
      url = next;
      // 303, and 301/302 after a POST, continue as GET without a body, as browsers do.
      if (result.status === 303 || ((result.status === 301 || result.status === 302) && currentMethod === "POST")) {
        currentMethod = "GET";
        currentBody = undefined;
      }
      continue;
    }
    const text = new TextDecoder("utf-8", { fatal: false }).decode(result.bytes);
    return ResponseRecord.desc.make([result.status, result.headers, text, result.bytes]);
  }
}

const NO_HEADERS = new RMap();

export const get = (grant: Grant, url: string, headers: RMap = NO_HEADERS): Promise<unknown> =>
  perform(grant, "GET", url, undefined, headers, undefined);
export const post = (grant: Grant, url: string, body: string, headers: RMap = NO_HEADERS): Promise<unknown> =>
  perform(grant, "POST", url, body, headers, undefined);
export const put = (grant: Grant, url: string, body: string, headers: RMap = NO_HEADERS): Promise<unknown> =>
  perform(grant, "PUT", url, body, headers, undefined);
export const patch = (grant: Grant, url: string, body: string, headers: RMap = NO_HEADERS): Promise<unknown> =>
  perform(grant, "PATCH", url, body, headers, undefined);
const del = (grant: Grant, url: string, headers: RMap = NO_HEADERS): Promise<unknown> =>
  perform(grant, "DELETE", url, undefined, headers, undefined);
export { del as delete };
export const request = (
  grant: Grant,
  method: string,
  url: string,
  body = "",
  headers: RMap = NO_HEADERS,
  timeout: unknown = undefined,
): Promise<unknown> =>
  perform(grant, method.toUpperCase(), url, body === "" ? undefined : body, headers, timeout, method);
