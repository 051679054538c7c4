// A small static server for the browser tests of the playground's worker and of the compiler
// bundled for a browser: dist/view under /TOKEN/ with the Content-Security-Policies `renyi view`
// sends (the page's, and the worker's own, which allows eval and connects nowhere), and a
// test page of the test's own. 127.0.0.1 only, a random port; everything else 404.

import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./golden.js";

export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
export const WORKER_CSP = "default-src 'none'; script-src 'self' 'unsafe-eval'; connect-src 'none'";

export interface Served {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves dist/view and `extra` (name -> [type, body]) under `/TOKEN/`. */
export async function serveView(extra: Readonly<Record<string, readonly [string, string]>>): Promise<Served> {
  const token = randomBytes(32).toString("base64url");
  const dist = join(ROOT, "dist", "view");
  const files: Record<string, readonly [string, string]> = {
    "worker.js": ["text/javascript", readFileSync(join(dist, "worker.js"), "utf8")],
    ...extra,
  };
  const server: Server = createServer((request, response) => {
    const path = request.url ?? "";
    const name = path.startsWith(`/${token}/`) ? path.slice(token.length + 2) : undefined;
    const file = name === undefined ? undefined : files[name];
    response.setHeader("Content-Security-Policy", name === "worker.js" ? WORKER_CSP : PAGE_CSP);
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    response.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": `${file[0]}; charset=utf-8` }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A page that loads `script` and nothing else. */
export const TEST_PAGE = `<!doctype html><meta charset="utf-8"><title>test</title><script src="test.js"></script>`;
