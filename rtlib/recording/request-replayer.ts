// A replay of a run that served (spec/recording.md, "Servers"): the run's own
// calls are answered as in any replay, and each request's handler calls from
// that request's own entries, matched within them alone, so that two requests
// making the same call with different answers each get their own, whatever
// order concurrent requests completed their calls in. `serve` is answered by
// feeding the recorded requests to the handler (lib/server.ts) instead of
// listening.

import { Cancelled } from "../errors.js";
import type { Answerer, Primitive } from "../gateway.js";
import type { GrantItem } from "../../vocabulary/needs.js";
import type { RecordedCall } from "../../vocabulary/recording.js";
import type { RecordedRequest } from "../../vocabulary/recorded-requests.js";
import type { RunFacts } from "../../vocabulary/problems/run.js";
import { Replayer, type ConsoleDifference, type ReplayOptions } from "./replayer.js";
import { loadedRequest, replayRequests, RequestNotAnswered } from "./requests.js";

/** What a run's configuration takes as its replayer (rtlib/run-main.ts), and what the workers read of it after. */
export interface RunReplayer {
  readonly answer: Answerer;
  checkGrant(program: readonly GrantItem[]): RunFacts<"E-RT-REPLAY-GRANT"> | undefined;
  readonly offline: boolean;
  readonly lastAnswered: RecordedCall | undefined;
  readonly unshownConsole: number;
  /** How many console lines differed from the recording, and the first of them (replayer.ts, consoleDiffers). */
  readonly consoleDiffered: number;
  readonly consoleDifferences: readonly ConsoleDifference[];
  unreached(): RecordedCall[];
}

/**
 * The replayer of a recording: a plain one (replayer.ts) when the run served no request, and one that answers each
 * request's calls apart when it did. A resumed run answers a server's calls as a plain replay would.
 */
export function replayerOf(
  calls: readonly RecordedCall[],
  grant: readonly GrantItem[],
  given: ReplayOptions & { readonly requests?: readonly RecordedRequest[] } = {},
): RunReplayer {
  const { requests, ...options } = given;
  if (requests === undefined || requests.length === 0 || options.resume !== undefined) {
    replayRequests(undefined);
    return new Replayer(calls, grant, options);
  }
  return new ServerReplayer(calls, grant, options, requests);
}

class ServerReplayer implements RunReplayer {
  /** The run's own calls (those with no `request`). */
  private readonly run: Replayer;
  /** Each request's calls, by the request's number, made into a replayer when the request is fed. */
  private readonly byRequest = new Map<number, RecordedCall[]>();
  private readonly replayers = new Map<number, Replayer>();
  /** The requests recorded without a response: their handlers were stopped, and a call they do not hold stops them. */
  private readonly unanswered = new Set<number>();
  /** Whether the recorded run's `serve` returned: a run stopped while serving has no entry for it. */
  private readonly serveEnded: boolean;
  private fed = false;
  private last: Replayer;

  constructor(
    private readonly calls: readonly RecordedCall[],
    private readonly grant: readonly GrantItem[],
    private readonly options: ReplayOptions,
    requests: readonly RecordedRequest[],
  ) {
    const own: RecordedCall[] = [];
    for (const request of requests) {
      this.byRequest.set(request.sequence, []);
      if (request.response === undefined) this.unanswered.add(request.sequence);
    }
    for (const call of calls) {
      const list = call.request === undefined ? undefined : this.byRequest.get(call.request);
      if (list === undefined) own.push(call);
      else list.push(call);
    }
    this.run = new Replayer(own, grant, options);
    this.last = this.run;
    this.serveEnded = own.some((c) => c.primitive === "std.server.serve");
    replayRequests(requests);
  }

  checkGrant(program: readonly GrantItem[]): RunFacts<"E-RT-REPLAY-GRANT"> | undefined {
    // Every call's capability, the handlers' included, must be covered as in any replay.
    return new Replayer(this.calls, this.grant, this.options).checkGrant(program);
  }

  get offline(): boolean {
    return true;
  }

  get lastAnswered(): RecordedCall | undefined {
    return this.last.lastAnswered;
  }

  get unshownConsole(): number {
    let n = this.run.unshownConsole;
    for (const r of this.replayers.values()) n += r.unshownConsole;
    return n;
  }

  get consoleDiffered(): number {
    let n = this.run.consoleDiffered;
    for (const r of this.replayers.values()) n += r.consoleDiffered;
    return n;
  }

  get consoleDifferences(): readonly ConsoleDifference[] {
    return [this.run, ...this.replayers.values()].flatMap((r) => r.consoleDifferences);
  }

  unreached(): RecordedCall[] {
    const left = this.run.unreached();
    for (const [sequence, calls] of this.byRequest) {
      const replayer = this.replayers.get(sequence);
      left.push(...(replayer === undefined ? calls : replayer.unreached()));
    }
    return left.sort((a, b) => a.sequence - b.sequence);
  }

  private replayerFor(request: number): Replayer {
    let replayer = this.replayers.get(request);
    if (replayer === undefined) {
      replayer = new Replayer(this.byRequest.get(request) ?? [], this.grant, this.options);
      this.replayers.set(request, replayer);
    }
    return replayer;
  }

  readonly answer: Answerer = (primitive, args, perform, guarded, redactedParts) => {
    const request = loadedRequest();
    if (request !== undefined) {
      const replayer = this.replayerFor(request);
      this.last = replayer;
      if (this.unanswered.has(request)) {
        try {
          return replayer.answer(primitive, args, perform, guarded, redactedParts);
        } catch (e) {
          // The recorded handler stopped before this call: the server ended while it ran.
          if (isMismatch(e)) throw new RequestNotAnswered();
          throw e;
        }
      }
      return replayer.answer(primitive, args, perform, guarded, redactedParts);
    }
    this.last = this.run;
    if (primitive.name === "std.server.serve" && !this.fed) return this.serve(primitive, args, perform, guarded);
    return this.run.answer(primitive, args, perform, guarded, redactedParts);
  };

  /**
   * The first `serve`: answered as recorded (a failure, such as a port in use, at once), and fed the recorded
   * requests by `perform` first (lib/server.ts listens to nothing in a replay). A recorded run stopped while it
   * served (Ctrl-C, its time limit) has no entry for `serve`: its replay feeds the requests, then is cancelled.
   */
  private serve(
    primitive: Primitive,
    args: Readonly<Record<string, unknown>>,
    perform: () => unknown,
    guarded: boolean,
  ) {
    this.fed = true;
    const answered = this.serveEnded ? this.run.answer(primitive, args, perform, guarded) : null;
    return (async () => {
      await perform();
      if (!this.serveEnded) throw new Cancelled("interrupt");
      return answered instanceof Promise ? await answered : answered;
    })();
  }
}

function isMismatch(e: unknown): boolean {
  return typeof e === "object" && e !== null && "code" in e && e.code === "E-RT-REPLAY-MISMATCH";
}
