// What the host learns of a program's servers: that one is listening (the
// default time limit of a run does not apply to a server, spec/runtime.md),
// each request that crashed (to report it with its .ry position), and the
// totals for the run's final report. `renyi run`'s worker sends these to the
// main thread, which renders crashes the way it renders a run's.

export interface ServingHost {
  listening(): void;
  /** A request's handler crashed or failed: the error, whose stack or site gives its place. */
  crashed(error: unknown): void;
}

export const served = { answered: 0, crashed: 0 };

let host: ServingHost = {
  listening: () => undefined,
  crashed: (e) => {
    const code = typeof e === "object" && e !== null && "code" in e ? String(e.code) : "E-RT-FAILED";
    const message = e instanceof Error ? e.message : "a request's handler failed";
    process.stderr.write(`error[${code}]: ${message}\n`);
  },
};

export function serveWith(next: ServingHost): void {
  host = next;
}

export function servingHost(): ServingHost {
  return host;
}
