// The `server` module: answer HTTP requests on a port with the program's
// handler, until the run is cancelled or `requests` requests were answered.

import type { IncomingMessage } from "node:http";
import { call } from "../gateway.js";
import { Cancelled, Failure } from "../errors.js";
import type { Grant } from "../grants.js";
import { checkCancelled } from "../limits.js";
import { Request as RequestRecord, Response as ResponseRecord, Some, StartError } from "../prelude.js";
import { RMap } from "../values.js";
import { hostImport } from "../host-import.js";

type Handler = (request: unknown) => unknown;

async function requestOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const url = new URL(req.url ?? "/", "http://localhost");
  const query = new RMap();
  for (const [k, v] of url.searchParams) query.setInPlace(k, v);
  const headers = new RMap();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.setInPlace(k.toLowerCase(), Array.isArray(v) ? v.join(", ") : v);
  return RequestRecord.desc.make([req.method ?? "GET", url.pathname, query, headers, bytes.toString("utf8"), new Uint8Array(bytes)]);
}

export const serve = (grant: Grant, port: number, handler: Handler, requests: unknown = undefined): Promise<null> =>
  call(
    grant,
    {
      name: "std.server.serve",
      need: { path: ["network", "socket"], scope: port },
      denied: () => StartError.make("PermissionDenied", port),
      overBudget: () => StartError.make("OverBudget", port),
    },
    { port },
    async () => {
      // node:http is loaded by the first serve, not when every program starts.
      const { createServer } = await hostImport<typeof import("node:http")>("node:http");
      return new Promise<null>((resolve, reject) => {
        const limit = requests instanceof Some ? (requests.value as number) : Infinity;
        let answered = 0;
        let ended = false;
        const end = (error?: unknown) => {
          if (ended) return;
          ended = true;
          clearInterval(poll);
          server.close(() => (error === undefined ? resolve(null) : reject(error)));
          server.closeAllConnections();
        };
        const server = createServer((req, res) => {
          void (async () => {
            try {
              const response = (await handler(await requestOf(req))) as { status: number; headers: RMap; body: string; bytes: Uint8Array };
              const headers: Record<string, string> = {};
              for (const [k, v] of response.headers.entries()) headers[String(k)] = String(v);
              res.writeHead(response.status, headers);
              res.end(response.body !== "" ? response.body : Buffer.from(response.bytes));
              if (++answered >= limit) end();
            } catch (e) {
              // A crash in the handler ends the run; the client gets a 500 that names no data.
              res.writeHead(500, { "content-type": "text/plain" });
              res.end("the program stopped while answering this request\n");
              end(e);
            }
          })();
        });
        server.on("error", (e: NodeJS.ErrnoException) => {
          clearInterval(poll);
          reject(new Failure(e.code === "EADDRINUSE" ? StartError.make("InUse", port) : StartError.make("PermissionDenied", port)));
        });
        // Cancellation (Ctrl-C, the deadline) stops the server gracefully.
        const poll = setInterval(() => {
          try {
            checkCancelled();
          } catch (e) {
            if (e instanceof Cancelled) end(e);
          }
        }, 50);
        server.listen(port, () => undefined);
      });
    },
  );

/** A Response, for handlers. */
export const respond = (status: number, body: string, headers: RMap = new RMap()): unknown =>
  ResponseRecord.desc.make([status, headers, body, new Uint8Array(Buffer.from(body, "utf8"))]);
