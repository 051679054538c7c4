// A real Restate server for the tests of durable runs (spec/durable.md): the
// binary the @restatedev/restate-server package ships, started from
// node_modules on ports of 127.0.0.1 found free, with a data folder of its own,
// and the few calls of its admin API and ingress the tests make. Retries come
// quickly (100 ms, at most 500 ms apart), so that an endpoint started again is
// invoked again at once.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { connect } from "node:net";
import { freePort, RENYI } from "./support.js";

/**
 * The binary itself, not the package's `bin` (a node script that starts it): a SIGKILL must reach the server, not a
 * wrapper that would leave it running.
 */
const RESTATE_SERVER = createRequire(import.meta.url).resolve(
  `@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`,
);

/** How long a server may take to answer its health check after it starts. */
const START_TIMEOUT_MS = 60_000;

export interface RestateOptions {
  /** Environment variables of its configuration (`RESTATE_…`), beside the ones set here. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface Invoked {
  readonly status: number;
  readonly body: string;
  readonly headers: Headers;
}

/**
 * Starts one restate-server node on its ports of 127.0.0.1, quick to retry, with `more` of its configuration; what it
 * writes is given to `log`.
 */
function startNode(
  node: { name: string; dataDir: string; admin: string; ingress: string; fabricPort: number },
  more: Readonly<Record<string, string>>,
  log: (text: string) => void,
): ChildProcess {
  const env = {
    ...process.env,
    RESTATE_ADMIN__BIND_ADDRESS: node.admin,
    RESTATE_INGRESS__BIND_ADDRESS: node.ingress,
    RESTATE_BIND_ADDRESS: `127.0.0.1:${node.fabricPort}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node.fabricPort}/`,
    RESTATE_LISTEN_MODE: "tcp",
    RESTATE_DISABLE_TELEMETRY: "true",
    RESTATE_ADMIN__DISABLE_WEB_UI: "true",
    RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: "100ms",
    RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: "500ms",
    RESTATE_LOG_FILTER: "warn",
    ...more,
  };
  const child = spawn(RESTATE_SERVER, ["--base-dir", node.dataDir, "--node-name", node.name, "--no-logo"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => log(d.toString()));
  child.stderr!.on("data", (d: Buffer) => log(d.toString()));
  return child;
}

/** One restate-server process; `stop()` ends it (and removes its data unless `keepData`). */
export class RestateServer {
  private process: ChildProcess | undefined;
  private log = "";

  private constructor(
    readonly dataDir: string,
    readonly adminPort: number,
    readonly ingressPort: number,
    readonly fabricPort: number,
    private readonly options: RestateOptions,
  ) {}

  /** Starts a server on free ports with a fresh data folder, and waits until it answers. */
  static async start(options: RestateOptions = {}): Promise<RestateServer> {
    const dataDir = mkdtempSync(join(tmpdir(), "renyi-restate-"));
    const server = new RestateServer(dataDir, await freePort(), await freePort(), await freePort(), options);
    await server.boot();
    return server;
  }

  get adminUrl(): string {
    return `http://127.0.0.1:${this.adminPort}`;
  }

  get ingressUrl(): string {
    return `http://127.0.0.1:${this.ingressPort}`;
  }

  /** The server's process id while it runs (for its CPU time). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** What the server wrote on its standard output and error, for a failing test's message. */
  output(): string {
    return this.log;
  }

  /** Starts the process again on the same ports and data (after `kill()`): a restart of the server. */
  async boot(): Promise<void> {
    const child = startNode(
      {
        name: "n1",
        dataDir: this.dataDir,
        admin: `127.0.0.1:${this.adminPort}`,
        ingress: `127.0.0.1:${this.ingressPort}`,
        fabricPort: this.fabricPort,
      },
      // 4 partitions rather than 24: a single node starts in a third of the CPU time, which the tests share. (A
      // cluster keeps 24, so that each of its nodes leads some.)
      { RESTATE_DEFAULT_NUM_PARTITIONS: "4", ...this.options.env },
      (text) => {
        this.log = (this.log + text).slice(-64 * 1024);
      },
    );
    this.process = child;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`restate-server exited with ${child.exitCode}:\n${this.log}`);
      try {
        const health = await fetch(`${this.adminUrl}/health`);
        const ingress = await fetch(`${this.ingressUrl}/restate/health`);
        // The partitions are led a little after the health checks answer: a query of them is the sign.
        if (health.ok && ingress.ok && (await this.partitionsReady())) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`restate-server did not answer within ${START_TIMEOUT_MS} ms:\n${this.log}`);
  }

  private async partitionsReady(): Promise<boolean> {
    try {
      await this.query("SELECT count(*) AS n FROM sys_invocation");
      return true;
    } catch {
      return false;
    }
  }

  /** Ends the process with SIGKILL, keeping its data (a crash); `boot()` starts it again. */
  async kill(): Promise<void> {
    await killHard(this.process);
  }

  /** Ends the process and removes its data. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Registers (again, forcing) the endpoint at `uri` (`http://127.0.0.1:PORT`); gives the admin API's answer. */
  async register(uri: string): Promise<{ status: number; body: string }> {
    const response = await fetch(`${this.adminUrl}/deployments`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ uri, force: true }),
    });
    return { status: response.status, body: await response.text() };
  }

  /** `POST /SERVICE/HANDLER` through the ingress, waiting for the result (`send`: in the background). */
  async invoke(path: string, body: unknown, options: { idempotencyKey?: string; raw?: string } = {}): Promise<Invoked> {
    const response = await fetch(`${this.ingressUrl}/${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.idempotencyKey !== undefined ? { "idempotency-key": options.idempotencyKey } : {}),
      },
      body: options.raw ?? JSON.stringify(body),
    });
    return { status: response.status, body: await response.text(), headers: response.headers };
  }

  /** Starts `SERVICE/run` in the background; gives its invocation id. */
  async send(service: string, body: unknown, idempotencyKey?: string): Promise<string> {
    const answer = await this.invoke(
      `${service}/run/send`,
      body,
      idempotencyKey !== undefined ? { idempotencyKey } : {},
    );
    if (answer.status >= 300) throw new Error(`send to ${service} answered ${answer.status}: ${answer.body}`);
    return (JSON.parse(answer.body) as { invocationId: string }).invocationId;
  }

  /** Waits for the invocation's result (`GET /restate/invocation/ID/output`). */
  async waitFor(id: string, timeoutMs = 60_000): Promise<Invoked> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const controller = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
      try {
        const response = await fetch(`${this.ingressUrl}/restate/invocation/${id}/attach`, { signal: controller });
        return { status: response.status, body: await response.text(), headers: response.headers };
      } catch (e) {
        if (Date.now() >= deadline) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Cancels the invocation through the admin API. */
  async cancel(id: string): Promise<number> {
    const response = await fetch(`${this.adminUrl}/invocations/${id}/cancel`, { method: "PATCH" });
    await response.text();
    return response.status;
  }

  /** An SQL query of the admin API (`sys_journal`, `sys_invocation`…): its rows. */
  query(sql: string): Promise<Record<string, unknown>[]> {
    return queryAdmin(this.adminUrl, sql);
  }

  /** Waits until the invocation's journal holds a timer (its run sleeps), failing after `timeoutMs`. */
  async untilSlept(id: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (
      (await this.query(`SELECT index FROM sys_journal WHERE id = '${id}' AND entry_type = 'Command: Sleep'`))
        .length === 0
    ) {
      if (Date.now() >= deadline) throw new Error(`invocation ${id} never slept within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** A SQL query of a node's admin API (its `sys_*` tables): the rows. */
async function queryAdmin(adminUrl: string, sql: string): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${adminUrl}/query`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query: sql }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`query answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { rows: Record<string, unknown>[] }).rows;
}

// ---- A cluster of servers (spec/durable.md, "Several machines") ----

/** One node of a RestateCluster: its ports and data folder, and its process while it runs. */
export interface ClusterNode {
  readonly name: string;
  readonly adminUrl: string;
  readonly ingressUrl: string;
  readonly fabricPort: number;
  readonly dataDir: string;
  process: ChildProcess | undefined;
  log: string;
}

/**
 * Several restate-server processes on this machine forming one cluster: one metadata store replicated across all of
 * them (each lists every node's fabric address), the first node alone provisioning the cluster, and the log and the
 * partitions replicated on `replication` nodes.
 */
export class RestateCluster {
  private constructor(readonly nodes: ClusterNode[]) {}

  static async start(size = 3, replication = 2): Promise<RestateCluster> {
    const nodes: ClusterNode[] = [];
    for (let i = 1; i <= size; i++) {
      const [admin, ingress, fabric] = [await freePort(), await freePort(), await freePort()];
      nodes.push({
        name: `n${i}`,
        adminUrl: `http://127.0.0.1:${admin}`,
        ingressUrl: `http://127.0.0.1:${ingress}`,
        fabricPort: fabric,
        dataDir: mkdtempSync(join(tmpdir(), `renyi-restate-${i}-`)),
        process: undefined,
        log: "",
      });
    }
    const cluster = new RestateCluster(nodes);
    const addresses = `[${nodes.map((n) => `"http://127.0.0.1:${n.fabricPort}/"`).join(",")}]`;
    for (const [i, node] of nodes.entries()) {
      node.process = startNode(
        {
          name: node.name,
          dataDir: node.dataDir,
          admin: node.adminUrl.slice("http://".length),
          ingress: node.ingressUrl.slice("http://".length),
          fabricPort: node.fabricPort,
        },
        {
          RESTATE_CLUSTER_NAME: "renyi-test",
          RESTATE_AUTO_PROVISION: i === 0 ? "true" : "false",
          RESTATE_DEFAULT_REPLICATION: String(replication),
          RESTATE_METADATA_CLIENT__ADDRESSES: addresses,
        },
        (text) => {
          node.log = (node.log + text).slice(-64 * 1024);
        },
      );
    }
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (const node of nodes) {
      while (!(await cluster.ready(node))) {
        if (node.process!.exitCode !== null) throw new Error(`${node.name} exited:\n${node.log}`);
        if (Date.now() > deadline) throw new Error(`${node.name} did not answer in time:\n${node.log}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    return cluster;
  }

  /** Whether the node answers its health checks and a query of every partition. */
  private async ready(node: ClusterNode): Promise<boolean> {
    try {
      const health = await fetch(`${node.adminUrl}/health`);
      const ingress = await fetch(`${node.ingressUrl}/restate/health`);
      if (!health.ok || !ingress.ok) return false;
      await this.query(node, "SELECT count(*) AS n FROM sys_invocation");
      return true;
    } catch {
      return false;
    }
  }

  /** An SQL query of a node's admin API: its rows. */
  query(node: ClusterNode, sql: string): Promise<Record<string, unknown>[]> {
    return queryAdmin(node.adminUrl, sql);
  }

  /** Ends one node with SIGKILL (a machine lost), keeping its data. */
  async kill(node: ClusterNode): Promise<void> {
    await killHard(node.process);
  }

  /** Ends every node and removes their data. */
  async stop(): Promise<void> {
    for (const node of this.nodes) {
      await this.kill(node);
      rmSync(node.dataDir, { recursive: true, force: true });
    }
  }
}

/** A `renyi serve --restate` process and what it wrote on standard error. */
export interface Endpoint {
  readonly child: ChildProcess;
  readonly port: number;
  stderr: string;
}

/** `renyi serve --restate --port PORT ARGS…` (flags, then programs) in `cwd`, once it accepts connections. */
export async function startEndpoint(
  port: number,
  args: readonly string[],
  options: { readonly cwd?: string; readonly env: NodeJS.ProcessEnv },
): Promise<Endpoint> {
  const child = spawn(process.execPath, [RENYI, "serve", "--restate", "--port", String(port), ...args], {
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const endpoint: Endpoint = { child, port, stderr: "" };
  child.stderr!.on("data", (d: Buffer) => (endpoint.stderr += d.toString()));
  child.stdout!.resume();
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null) throw new Error(`renyi serve exited with ${child.exitCode}: ${endpoint.stderr}`);
    if (Date.now() > deadline) throw new Error(`renyi serve did not listen: ${endpoint.stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return endpoint;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Ends a process with SIGKILL (a crash, a machine lost) and waits until it is gone; one already gone is left. */
export async function killHard(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await gone;
}
