// `renyi view`'s server (spec/view.md, section 2): node:http on 127.0.0.1, answering only a
// request that holds the token as its path's first part, names this server as its host (a
// page of another site that rebinds a name to 127.0.0.1 does not) and, when it says its
// origin, comes from the page itself. The page's files are read once, at the start, from
// dist/view; no part of a request's path is ever a file name: the API names files by the ids
// of what was found under the roots (api.ts).

import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { isToken, newToken } from "./token.js";
import { type ApiAnswer, viewRefusal } from "./answers.js";
import { answerApi, type ViewContext } from "./api.js";
import { rootOf } from "./found.js";
import { ReaderProcess } from "./reader-process.js";

/** The page's policy: its own scripts and styles, requests to its own server, nothing else. */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** The playground's worker evaluates the program it compiled, and can reach nothing. */
const WORKER_POLICY = "default-src 'none'; script-src 'self' 'unsafe-eval'; connect-src 'none'";

const ASSETS: Record<string, string> = {
  "": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "worker.js": "text/javascript; charset=utf-8",
  "playground.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};

export interface ViewServer {
  /** `http://127.0.0.1:PORT/TOKEN/` */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1:`port` (0: one the system chooses) for the roots, with the page from `assets`. */
export async function startViewServer(options: {
  readonly roots: readonly string[];
  readonly port: number;
  /** The folder of the built page (dist/view). */
  readonly assets: string;
}): Promise<ViewServer> {
  const token = newToken();
  const files = new Map<string, Buffer>();
  for (const name of Object.keys(ASSETS)) files.set(name, readFileSync(join(options.assets, name || "index.html")));
  const reader = new ReaderProcess();
  const context: ViewContext = { roots: options.roots.map(rootOf), reader };
  let port = options.port;
  const server = createServer((request, response) => {
    void answer(request, response).catch((error: unknown) => {
      // The message alone: a stack trace says nothing to the page, and much about this machine.
      send(response, viewRefusal(500, "E-VIEW-INTERNAL", { detail: messageOf(error) }));
    });
  });
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refused = refusal(request, token, port);
    if (refused !== undefined) return send(response, refused);
    const url = new URL(request.url ?? "/", `http://127.0.0.1:${port}`);
    const rest = url.pathname.slice(token.length + 2);
    const type = ASSETS[rest];
    if (type !== undefined)
      return send(response, {
        status: 200,
        type,
        body: files.get(rest)!,
        ...(rest === "worker.js" ? { policy: WORKER_POLICY } : {}),
      });
    if (rest.startsWith("api/")) return send(response, await answerApi(rest.slice(4), url.searchParams, context));
    send(response, viewRefusal(404, "E-VIEW-NOT-FOUND", { what: rest, why: "nothing is served at this address" }));
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, reader.close()]);
    },
  };
}

/**
 * Why a request is not answered: no token (checked first: a request without it learns nothing, not even which methods
 * are answered), a host or origin not this server's, a method other than GET or HEAD.
 */
function refusal(request: IncomingMessage, token: string, port: number): ApiAnswer | undefined {
  const path = (request.url ?? "").split("?", 1)[0]!;
  const first = /^\/([^/]*)\//.exec(path)?.[1];
  if (first === undefined || !isToken(token, first)) return forbidden("token");
  const ownHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!ownHosts.includes(request.headers.host ?? "")) return forbidden("host");
  const origin = request.headers.origin;
  if (origin !== undefined && !ownHosts.some((host) => origin === `http://${host}`)) return forbidden("origin");
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return forbidden("site");
  if (request.method !== "GET" && request.method !== "HEAD")
    return viewRefusal(405, "E-VIEW-METHOD", { method: request.method ?? "" });
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split("\n", 1)[0]!.slice(0, 300) : "unknown";
}

function forbidden(why: "token" | "host" | "origin" | "site"): ApiAnswer {
  return viewRefusal(403, "E-VIEW-FORBIDDEN", { why });
}

function send(response: ServerResponse, answer: ApiAnswer & { policy?: string }): void {
  response.writeHead(answer.status, {
    "Content-Type": answer.type,
    "Content-Security-Policy": answer.policy ?? PAGE_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
  response.end(answer.body);
}
