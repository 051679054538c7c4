// The endpoint of `renyi serve --restate`: one Restate service per program
// registered (named after main's module, its one handler `run` taking the
// request's bytes as they came, for the handler to read as hostile input),
// and the budget object, served over HTTP/2 by the SDK's handler. It says
// where it listens and how to register it, and serves until SIGINT or SIGTERM,
// which end the runs going on (each invocation's next attempt resumes it).

import "./polyfill.js";
import { createServer, type ServerHttp2Session } from "node:http2";
import * as restate from "@restatedev/restate-sdk";
import { EXIT } from "../../vocabulary/outcomes.js";
import type { SharedBudget } from "../../vocabulary/durable.js";
import { killAll } from "./attempt-process.js";
import { budgetObject } from "./budget-object.js";
import { runHandler } from "./handler.js";
import type { Registered } from "./registration.js";
import type { ServeOptions } from "./serve-options.js";

export async function serveEndpoint(options: ServeOptions, programs: readonly Registered[]): Promise<number> {
  const shared: SharedBudget[] = options.ceiling.atMost.map((a) => ({
    key: a.text,
    need: a.need,
    count: a.count,
    unit: a.unit,
  }));
  const serving = { limits: options.limits, trust: options.trust, shared, redacted: options.redact };
  const services = programs.map((program) =>
    restate.service({
      name: program.name,
      handlers: {
        run: restate.handlers.handler(
          // Any content type: the bytes are read as JSON by the handler, whatever the client called them (curl -d).
          { input: restate.serde.binary, accept: "*/*" },
          runHandler(program, serving),
        ),
      },
    }),
  );
  const server = createServer(restate.createEndpointHandler({ services: [...services, budgetObject] }));
  // Restate keeps its connections open: they are closed when the endpoint ends, or it would not.
  const sessions = new Set<ServerHttp2Session>();
  server.on("session", (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const port = await new Promise<number | string>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : options.port);
    });
  }).catch((e: NodeJS.ErrnoException) => e.message);
  if (typeof port === "string") {
    process.stderr.write(`error: renyi serve cannot listen on ${options.host}:${options.port}: ${port}\n`);
    return EXIT.refused;
  }
  const shown = options.host === "0.0.0.0" ? "127.0.0.1" : options.host;
  const uri = `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
  process.stdout.write(
    `renyi serve: ${programs.map((p) => p.name).join(", ")} on ${uri}; register it with the Restate server: ` +
      `curl -X POST http://127.0.0.1:9070/deployments -H 'content-type: application/json' -d '{"uri": "${uri}"}'\n`,
  );
  return new Promise<number>((resolve) => {
    const end = () => {
      process.off("SIGINT", end);
      process.off("SIGTERM", end);
      killAll();
      server.close(() => resolve(EXIT.finished));
      for (const session of sessions) session.destroy();
    };
    process.on("SIGINT", end);
    process.on("SIGTERM", end);
  });
}
