// The `server` module: answer HTTP requests on a port with the program's
// handler, until the run is cancelled or `requests` requests were answered.
//
// One bad request never ends the server (spec/effects.md, server): each request
// runs with its own fuel, host calls and time (an Account, rtlib/limits.ts),
// its calls nest from where `serve` was called, and whatever its handler does
// (a crash, a limit, a failure, a Response that cannot be sent) answers that
// request 500, naming no data, is reported to the host with its place, and is
// counted. The server goes on.

import type { IncomingMessage, ServerResponse } from "node:http";
import { call } from "../gateway.js";
import { Cancelled, Crash, DataCrash, Failure } from "../errors.js";
import type { RunFacts } from "../../vocabulary/problems/run.js";
import type { Grant } from "../grants.js";
import { cancellationAsked, watchCancellation, REQUEST_LIMITS, requestAccount, S, stop, switchTo } from "../limits.js";
import { Request as RequestRecord, Response as ResponseRecord, Some, StartError } from "../prelude.js";
import { RMap } from "../values.js";
import { hostImport } from "../host-import.js";
import { holdConnections, receivingLimits, served, servingHost } from "../serving.js";
import { MAX_SERVER_CONNECTIONS } from "../../vocabulary/limits.js";
import { trackTasks } from "../tasks.js";
import {
  bindRequest,
  recordAnswer,
  recordIncoming,
  requestsToReplay,
  responseOf,
  type IncomingFields,
} from "../recording/requests.js";
import { feedRecorded } from "../recording/feed-requests.js";

type Handler = (request: unknown) => unknown;
type ResponseValue = { status: number; headers: RMap; body: string; bytes: Uint8Array };

/** A request body larger than this is answered 413 without calling the handler. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

class TooLarge {}
/** The client went away before its request was read: nothing to answer, nothing crashed. */
class ClientGone {}

/**
 * The request's body, or TooLarge past MAX_BODY_BYTES: the rest is read and
 * dropped, so that the 413 reaches the client and the body never sits in memory.
 */
function bodyOf(req: IncomingMessage): Promise<Buffer | TooLarge> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
      req.resume();
      resolve(new TooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size > MAX_BODY_BYTES) return;
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else {
        chunks.length = 0;
        resolve(new TooLarge());
      }
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", () => reject(new ClientGone()));
    // A connection closed before the body was all read (the client gone, or timed out by the server) is not answered.
    req.on("close", () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

/** The program's Request, and what a recorded run writes of it (recording/requests.ts). */
async function requestOf(req: IncomingMessage): Promise<{ value: unknown; fields: IncomingFields }> {
  const bytes = await bodyOf(req);
  if (bytes instanceof TooLarge) throw bytes;
  const url = new URL(req.url ?? "/", "http://localhost");
  const query = new RMap();
  for (const [k, v] of url.searchParams) query.setInPlace(k, v);
  const headers = new RMap();
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers.setInPlace(k.toLowerCase(), Array.isArray(v) ? v.join(", ") : v);
  const method = req.method ?? "GET";
  const fields = { method, path: url.pathname, query, headers, bytes };
  return { value: requestValue(method, url.pathname, query, headers, bytes), fields };
}

function requestValue(method: string, path: string, query: RMap, headers: RMap, bytes: Buffer): unknown {
  return RequestRecord.desc.make([method, path, query, headers, bytes.toString("utf8"), new Uint8Array(bytes)]);
}

/** The headers of the server's fixed answers (reply), as a recording writes them. */
const FIXED_HEADERS = { "content-type": "text/plain; charset=utf-8" };

// RFC 9110: a field name is a token; a value has no control character but tab
// (no CR, LF or NUL that would split the response) and is Latin-1, as Node sends it.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** The server frames the body itself: a handler's framing headers could contradict it. */
const FRAMING = new Set(["content-length", "transfer-encoding", "connection"]);

/** Why a handler's Response cannot be sent (the facts of its E-RT-RESPONSE), or undefined when it can. */
export function responseProblem(response: ResponseValue): RunFacts<"E-RT-RESPONSE"> | undefined {
  const { status } = response;
  if (!Number.isInteger(status) || status < 200 || status > 599) return { problem: "status", status };
  for (const [name, value] of response.headers.entries()) {
    const n = String(name);
    if (!TOKEN.test(n)) return { problem: "header-name", name: n };
    if (FRAMING.has(n.toLowerCase())) return { problem: "framing", header: n.toLowerCase() };
    if (!FIELD_VALUE.test(String(value))) return { problem: "header-value", name: n };
  }
  return undefined;
}

/**
 * How long an ending server waits for its last answers to go out and their connections
 * to close before it closes what is left: below the time a cancelled run has to stop on
 * its own (cli/commands/run.ts), after which its thread is stopped by force.
 */
const ENDING_MS = 1000;

/** How long a client still sending a body too large is read, and dropped, after its 413. */
const LINGER_MS = 5000;

/**
 * Answers 413 to a request whose body is still arriving, then closes the connection.
 * Closing a socket with bytes of the body still unread makes the kernel reset the
 * connection, and a client still writing then sees EPIPE or ECONNRESET instead of the
 * 413. So the answer is written whole but ended (which closes the connection) only
 * once the rest of the body has been read and dropped, or the client, answered, has
 * gone, or LINGER_MS have passed.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent || res.writableEnded) return;
  const text = "request body too large\n";
  res.writeHead(413, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    connection: "close",
  });
  res.write(text);
  const close = () => {
    clearTimeout(timer);
    if (!res.writableEnded && !res.destroyed) res.end();
  };
  const timer = setTimeout(close, LINGER_MS);
  if (req.complete || req.destroyed) return close();
  req.once("end", close);
  req.once("close", close);
  req.resume();
}

/** A fixed answer that names no data. */
function reply(res: ServerResponse, status: number, text: string, close = false): void {
  if (res.headersSent || res.writableEnded) return;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...(close ? { connection: "close" } : {}),
  });
  res.end(text);
}

export const serve = (grant: Grant, port: number, handler: Handler, requests: unknown = undefined): Promise<null> => {
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return Promise.reject(new Failure(StartError.make("InvalidPort", port)));
  // Where `serve` was called: the place of a crash that has none of its own (a
  // Response that cannot be sent, a handler that waited past its time).
  const serveSite = new Error();
  const depth = S.depth;
  return call(
    grant,
    {
      name: "std.server.serve",
      need: { path: ["network", "socket"], scope: port },
      denied: () => StartError.make("PermissionDenied", port),
      overBudget: () => StartError.make("OverBudget", port),
      refusedByGuard: (origin, sink) => StartError.make("Guarded", origin, sink),
    },
    { port },
    async () => {
      // A replay listens to nothing: the recorded requests are fed to the handler (spec/recording.md, "Servers").
      const recordedRequests = requestsToReplay();
      if (recordedRequests !== undefined) {
        await trackTasks();
        return feedRecorded(recordedRequests, { handler, serveSite, depth, requestValue, responseProblem });
      }
      // node:http is loaded by the first serve, not when every program starts.
      const { createServer } = await hostImport<typeof import("node:http")>("node:http");
      await trackTasks();
      return new Promise<null>((resolve, reject) => {
        const limit = requests instanceof Some ? (requests.value as number) : Infinity;
        let answered = 0;
        // Once the server is ending, no request is started, and each answer says so and closes its connection.
        let ending = false;
        /** For each request in flight: gives it up, when the server ends before its handler answered. */
        const inFlight = new Set<() => void>();
        /**
         * Ends the server (spec/effects.md, server): it stops listening and closes its idle
         * connections first, then answers each request in flight 503 and stops its task, so
         * that no handler acts after serve has returned, and returns once those answers have
         * gone out and their connections closed, or after ENDING_MS, when whatever is left
         * (a client that has not finished sending its request) is closed.
         */
        const end = (error?: unknown) => {
          if (ending) return;
          ending = true;
          stopWatching();
          const bound = setTimeout(() => server.closeAllConnections(), ENDING_MS);
          // Closing the idle connections before anything more is written: a connection whose
          // answer is still being written is not idle, and is closed once it has gone out.
          server.close(() => {
            clearTimeout(bound);
            if (error === undefined) resolve(null);
            else reject(error);
          });
          for (const giveUp of [...inFlight]) giveUp();
        };
        /**
         * Counts a request answered by the server, before its answer is written: the one
         * that reaches `requests` ends the server first, and its answer, written after,
         * closes its connection once it has gone out instead of being cut off as idle.
         */
        const counted = () => {
          served.answered++;
          if (++answered >= limit) end();
        };
        const crashed = (e: unknown) => {
          served.crashed++;
          servingHost().crashed(e);
        };
        /** A fixed answer that names no data; while the server ends, it closes its connection. */
        const say = (res: ServerResponse, status: number, text: string) => reply(res, status, text, ending);

        const answer = async (req: IncomingMessage, res: ServerResponse) => {
          const account = requestAccount();
          // Answered (or given up on) once: by the handler, at the request's time limit, or at the server's end.
          let over = false;
          let timer: NodeJS.Timeout | undefined;
          /** The request's number in a recorded run: its answer is recorded with it. */
          let recorded: number | undefined;
          /** A fixed answer, recorded as it goes out. */
          const sayRecorded = (status: number, text: string) => {
            recordAnswer(recorded, responseOf(status, FIXED_HEADERS, Buffer.from(text, "utf8")));
            say(res, status, text);
          };
          const giveUp = () => {
            if (over) return;
            over = true;
            stop(account, { serverEnded: true });
            say(res, 503, "the server is stopping\n");
          };
          inFlight.add(giveUp);
          try {
            const incoming = await requestOf(req);
            const request = incoming.value;
            if (over) return;
            // Recorded once its handler is to be called, and every call on its account is recorded as its own.
            recorded = recordIncoming(incoming.fields);
            if (recorded !== undefined) bindRequest(account, recorded);
            // The request's time runs from the handler's call: receiving it is timed by the server (receivingLimits).
            timer = setTimeout(() => {
              if (over) return;
              over = true;
              stop(account, { milliseconds: REQUEST_LIMITS.timeoutMs });
              counted();
              sayRecorded(500, "internal error\n");
              crashed(withStack(new Crash("E-RT-LIMIT-TIME", { milliseconds: REQUEST_LIMITS.timeoutMs }), serveSite));
            }, REQUEST_LIMITS.timeoutMs);
            const previous = switchTo(account);
            let pending: unknown;
            try {
              S.depth = depth;
              pending = handler(request);
            } finally {
              switchTo(previous);
            }
            const response = (await pending) as ResponseValue;
            if (over) return;
            // A run cancelled while the handler answered is answered 503, even before the server's own poll sees it.
            const cancelled = cancellationAsked();
            if (cancelled !== undefined) return end(cancelled);
            const problem = responseProblem(response);
            if (problem !== undefined) throw withStack(new Crash("E-RT-RESPONSE", problem), serveSite);
            const headers: Record<string, string> = {};
            for (const [k, v] of response.headers.entries()) headers[String(k)] = String(v);
            const body = response.body !== "" ? Buffer.from(response.body, "utf8") : Buffer.from(response.bytes);
            // Recorded as the handler gave them, without the framing the server adds.
            const given = responseOf(response.status, headers, body);
            // 204 and 304 have no body, and must not say how long it is.
            if (response.status !== 204 && response.status !== 304) headers["content-length"] = String(body.length);
            over = true;
            counted();
            recordAnswer(recorded, given);
            if (ending) headers["connection"] = "close";
            res.writeHead(response.status, headers);
            res.end(body);
          } catch (e) {
            if (over) return;
            const cancelled = e instanceof Cancelled ? e : cancellationAsked();
            if (cancelled !== undefined) {
              // The run is stopping (Ctrl-C, its time limit): not the request's fault, nor is a
              // failure or crash its cancellation caused (a call cut short). The server ends, and
              // answers this request 503 with every other in flight.
              return end(cancelled);
            }
            over = true;
            if (e instanceof ClientGone) {
              // Nobody is left to answer.
            } else if (e instanceof TooLarge) {
              counted();
              refuseTooLarge(req, res);
            } else if (e instanceof DataCrash) {
              // A crash guarded data decided on ends the run, not the request: a client could otherwise ask a question
              // a request.
              end(e);
              say(res, 500, "internal error\n");
            } else {
              counted();
              // A response refused by a guard says why (its message names no data); any other crash says nothing.
              sayRecorded(500, e instanceof Crash && e.code === "E-RT-GUARD" ? `${e.message}\n` : "internal error\n");
              crashed(e);
            }
          } finally {
            clearTimeout(timer);
            inFlight.delete(giveUp);
          }
        };
        const server = createServer(receivingLimits(REQUEST_LIMITS.timeoutMs), (req, res) => {
          if (!admitted(req, res)) return;
          // A request that arrives while the server ends (on a connection kept alive) is not started.
          if (ending) say(res, 503, "the server is stopping\n");
          else void answer(req, res);
        });
        const admitted = holdConnections(server, MAX_SERVER_CONNECTIONS);
        // A client that asks first (`Expect: 100-continue`) is told 413 before it sends a body too large.
        server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
          if (!admitted(req, res)) return;
          if (ending) return say(res, 503, "the server is stopping\n");
          if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
            counted();
            reply(res, 413, "request body too large\n", true);
            return;
          }
          res.writeContinue();
          void answer(req, res);
        });
        server.on("error", (e: NodeJS.ErrnoException) => {
          stopWatching();
          reject(
            new Failure(
              e.code === "EADDRINUSE" ? StartError.make("InUse", port) : StartError.make("PermissionDenied", port),
            ),
          );
        });
        // Cancellation (Ctrl-C, the deadline) ends the server as reaching `requests` does, and serve ends with it.
        const stopWatching = watchCancellation(end);
        server.listen(port, () => servingHost().listening());
      });
    },
  );
};

function withStack(crash: Crash, site: Error): Crash {
  if (site.stack !== undefined)
    crash.stack = `${crash.name}: ${crash.message}\n${site.stack.split("\n").slice(1).join("\n")}`;
  return crash;
}

/** A Response, for handlers. */
export const respond = (status: number, body: string, headers: RMap = new RMap()): unknown =>
  ResponseRecord.desc.make([status, headers, body, new Uint8Array(Buffer.from(body, "utf8"))]);
