// A replayed `serve` (spec/recording.md, "Servers"): no port is bound. Each
// recorded request is fed to the program's handler, in the order the handlers
// were called, on an account of its own with the limits a live request has
// (rtlib/limits.ts); its calls are answered from its own recorded calls
// (recording/request-replayer.ts); and the response it gives, as the server
// would send it (a crash answered 500, as live), is compared with the recorded
// one. The first that differs stops the replay at the `serve` call.

import { Cancelled, Crash, DataCrash } from "../errors.js";
import { cancellationAsked, requestAccount, S, switchTo } from "../limits.js";
import { served, servingHost } from "../serving.js";
import { RMap } from "../values.js";
import { bindRequest, bytesOf, RequestNotAnswered, responseDifferences, responseOf } from "./requests.js";
import type { RecordedRequest, RecordedResponse } from "../../vocabulary/recorded-requests.js";
import type { RunFacts } from "../../vocabulary/problems/run.js";

type ResponseValue = { status: number; headers: RMap; body: string; bytes: Uint8Array };

/** What lib/server.ts gives a replay of its handling: the handler, where serve was called, and its own rules. */
export interface Handling {
  readonly handler: (request: unknown) => unknown;
  readonly serveSite: Error;
  readonly depth: number;
  readonly requestValue: (method: string, path: string, query: RMap, headers: RMap, bytes: Buffer) => unknown;
  readonly responseProblem: (response: ResponseValue) => RunFacts<"E-RT-RESPONSE"> | undefined;
}

const FIXED_HEADERS = { "content-type": "text/plain; charset=utf-8" };

/** Crashes that stop a replay rather than answer one request 500: the recording no longer fits the program. */
const STOPS_REPLAY = new Set(["E-RT-REPLAY-MISMATCH", "E-RT-REPLAY-SHAPE", "E-RT-REPLAY-RESPONSE"]);

export async function feedRecorded(requests: readonly RecordedRequest[], handling: Handling): Promise<null> {
  for (const recorded of requests) {
    const made = await handled(recorded, handling);
    // A sealed response (a recording for renyi mcp) is not compared: whether a guess equals it is never told.
    if (made === undefined || recorded.response === undefined || recorded.response === "sealed") continue;
    const differences = responseDifferences(made, recorded.response);
    if (differences.length > 0)
      throw placedAt(
        new Crash("E-RT-REPLAY-RESPONSE", {
          request: recorded.sequence,
          method: recorded.method,
          path: recorded.path,
          differences,
        }),
        handling.serveSite,
      );
  }
  return null;
}

/** The response the handler gives the recorded request, as the server would send it; undefined when it gives none. */
async function handled(recorded: RecordedRequest, handling: Handling): Promise<RecordedResponse | undefined> {
  const account = requestAccount();
  bindRequest(account, recorded.sequence);
  const value = handling.requestValue(
    recorded.method,
    recorded.path,
    mapOf(recorded.query),
    mapOf(recorded.headers),
    bytesOf(recorded),
  );
  try {
    const previous = switchTo(account);
    let pending: unknown;
    try {
      S.depth = handling.depth;
      pending = handling.handler(value);
    } finally {
      switchTo(previous);
    }
    const response = (await pending) as ResponseValue;
    const cancelled = cancellationAsked();
    if (cancelled !== undefined) throw cancelled;
    const problem = handling.responseProblem(response);
    if (problem !== undefined) throw placedAt(new Crash("E-RT-RESPONSE", problem), handling.serveSite);
    const headers: Record<string, string> = {};
    for (const [k, v] of response.headers.entries()) headers[String(k)] = String(v);
    const body = response.body !== "" ? Buffer.from(response.body, "utf8") : Buffer.from(response.bytes);
    served.answered++;
    return responseOf(response.status, headers, body);
  } catch (e) {
    // The recorded handler was stopped here (its server ended): nothing was answered.
    if (e instanceof RequestNotAnswered) return undefined;
    const cancelled = e instanceof Cancelled ? e : cancellationAsked();
    if (cancelled !== undefined) throw cancelled;
    if (e instanceof DataCrash) throw e;
    if (e instanceof Crash && STOPS_REPLAY.has(e.code)) throw e;
    // As live: the request is answered 500, reported with its place, and the server goes on.
    served.answered++;
    served.crashed++;
    servingHost().crashed(e);
    const text = e instanceof Crash && e.code === "E-RT-GUARD" ? `${e.message}\n` : "internal error\n";
    return responseOf(500, FIXED_HEADERS, Buffer.from(text, "utf8"));
  }
}

function mapOf(texts: { readonly [name: string]: string }): RMap {
  const map = new RMap();
  for (const [k, v] of Object.entries(texts)) map.setInPlace(k, v);
  return map;
}

/** The crash placed at `site` (the serve call): the handler's own frames say nothing of the recording. */
function placedAt(crash: Crash, site: Error): Crash {
  if (site.stack !== undefined)
    crash.stack = `${crash.name}: ${crash.message}\n${site.stack.split("\n").slice(1).join("\n")}`;
  return crash;
}
