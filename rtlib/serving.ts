// What the host learns of a program's servers: that one is listening (the
// default time limit of a run does not apply to a server, spec/runtime.md),
// each request that crashed (to report it with its .ry position), and the
// totals for the run's final report. `renyi run`'s worker sends these to the
// main thread, which renders crashes the way it renders a run's. And how many
// connections a server holds at once.

import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

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

/** What a connection past the limit is told when every connection held has a request in flight. */
const BUSY_TEXT = "the server is busy\n";
const BUSY =
  `HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n` +
  `content-length: ${BUSY_TEXT.length}\r\nconnection: close\r\n\r\n${BUSY_TEXT}`;

/**
 * Holds a server to `most` connections at once (spec/security.md, "Servers"),
 * fewer than the files the process may open, so that clients cannot take every
 * file from the program (its own files, its children's pipes, its outgoing
 * calls). A connection past the limit takes the place of the one idle longest
 * (no request in flight); when every one has a request in flight, it is
 * answered 503 and closed, and what it sends is not handed to the program.
 * Gives back what the server calls first for each request: whether to answer it.
 */
export function holdConnections(server: Server, most: number): (req: IncomingMessage, res: ServerResponse) => boolean {
  // Each connection held, with its requests in flight, the one busy longest ago first.
  const held = new Map<Socket, number>();
  const refused = new WeakSet<Socket>();
  server.on("connection", (socket: Socket) => {
    if (held.size >= most) {
      let idle: Socket | undefined;
      for (const [s, busy] of held) {
        if (busy === 0) {
          idle = s;
          break;
        }
      }
      if (idle === undefined) {
        refused.add(socket);
        socket.end(BUSY);
        return;
      }
      held.delete(idle);
      idle.destroy();
    }
    held.set(socket, 0);
    socket.once("close", () => held.delete(socket));
  });
  return (req, res) => {
    const socket = req.socket;
    if (refused.has(socket)) {
      res.destroy();
      return false;
    }
    const busy = held.get(socket);
    if (busy === undefined) return true;
    held.set(socket, busy + 1);
    res.once("close", () => {
      const now = held.get(socket);
      if (now === undefined) return;
      // To the end of the order: busy most recently.
      held.delete(socket);
      held.set(socket, now - 1);
    });
    return true;
  };
}

/** Node's longest wait for a request's headers, which a run's request time only shortens. */
const MOST_FOR_HEADERS_MS = 60_000;

/**
 * How long a client has to send its request (spec/security.md, "Servers"): the
 * whole request, headers and body, within the run's request time
 * (`--request-timeout`), its headers within that and within Node's 60 s. Node
 * looks at its connections for these every `connectionsCheckingInterval`, a
 * tenth of the time for headers (at least 100 ms, at most Node's 30 s), so that
 * a client that trickles is closed near its limit, not up to 30 s past it.
 * The time a handler takes is its own, and runs from its call (lib/server.ts).
 */
export function receivingLimits(requestTimeoutMs: number): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const requestTimeout = Math.max(1, Math.min(Math.ceil(requestTimeoutMs), Number.MAX_SAFE_INTEGER));
  const headersTimeout = Math.min(MOST_FOR_HEADERS_MS, requestTimeout);
  const connectionsCheckingInterval = Math.min(30_000, Math.max(100, Math.ceil(headersTimeout / 10)));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}
