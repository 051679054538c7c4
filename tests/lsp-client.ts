// A real client of `renyi lsp`: the server started as a child process, as an
// editor starts it, and spoken to through the protocol's own library
// (vscode-languageserver-protocol). Every test of the editor's services
// starts one with startLsp.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/node";
import type {
  InitializeResult,
  PublishDiagnosticsParams,
  TextDocumentContentChangeEvent,
} from "vscode-languageserver-protocol";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before } from "node:test";
import { RENYI } from "./support.js";

export interface LspOptions {
  /** Node's own flags, before the command (the permission model, a --require). */
  readonly node?: readonly string[];
  readonly cwd?: string;
  readonly env?: Record<string, string>;
}

export interface LspClient {
  readonly connection: ProtocolConnection;
  readonly child: ChildProcessWithoutNullStreams;
  readonly initialized: InitializeResult;
  /** What the server wrote to standard error so far. */
  stderr(): string;
  /** Every publication received, by URI, oldest first. */
  readonly published: Map<string, PublishDiagnosticsParams[]>;
  /** The next publication for `uri` after this call. */
  nextDiagnostics(uri: string, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  /** The first publication for `uri` of `version` or later (perhaps one received already). */
  diagnosticsOf(uri: string, version: number, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  open(uri: string, text: string, version?: number): void;
  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): void;
  close(uri: string): void;
  request<R>(method: string, params: unknown): Promise<R>;
  /** shutdown, then exit; the server's exit code. */
  stop(): Promise<number | null>;
}

export const uriOf = (path: string): string => pathToFileURL(path).href;

/** The test process's environment without RENYI_LSP_TRACE, which a test that wants stacks gives itself. */
function inherited(): NodeJS.ProcessEnv {
  const { RENYI_LSP_TRACE: _, ...rest } = process.env;
  return rest;
}

/**
 * One server for a whole test file, started in `work` before its first test and stopped after its last, which
 * finds that it ended with 0 and wrote nothing to standard error; `work` is removed then.
 */
export function oneServerPerFile(work: string, started: (client: LspClient) => void): void {
  let client: LspClient | undefined;
  before(async () => {
    client = await startLsp({ cwd: work });
    started(client);
  });
  after(async () => {
    assert.equal(await client!.stop(), 0, "the server ends with 0 after shutdown and exit");
    assert.equal(client!.stderr(), "", "the server wrote nothing to standard error");
    rmSync(work, { recursive: true, force: true });
  });
}

export async function startLsp(options: LspOptions = {}): Promise<LspClient> {
  const child = spawn(process.execPath, [...(options.node ?? []), RENYI, "lsp", "--stdio"], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...inherited(), ...options.env },
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const published = new Map<string, PublishDiagnosticsParams[]>();
  const waiting: { uri: string; accept: (p: PublishDiagnosticsParams) => boolean }[] = [];
  connection.onNotification("textDocument/publishDiagnostics", (params: PublishDiagnosticsParams) => {
    published.set(params.uri, [...(published.get(params.uri) ?? []), params]);
    for (const w of [...waiting]) if (w.uri === params.uri && w.accept(params)) waiting.splice(waiting.indexOf(w), 1);
  });
  connection.listen();
  const wait = (uri: string, accepts: (p: PublishDiagnosticsParams) => boolean, timeoutMs: number) =>
    new Promise<PublishDiagnosticsParams>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms; stderr: ${stderr}`)),
        timeoutMs,
      );
      waiting.push({
        uri,
        accept: (p) => {
          if (!accepts(p)) return false;
          clearTimeout(timer);
          resolve(p);
          return true;
        },
      });
    });
  const initialized = (await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
  })) as InitializeResult;
  await connection.sendNotification("initialized", {});
  return {
    connection,
    child,
    initialized,
    stderr: () => stderr,
    published,
    nextDiagnostics: (uri, timeoutMs = 20_000) => wait(uri, () => true, timeoutMs),
    diagnosticsOf: (uri, version, timeoutMs = 20_000) => {
      const had = (published.get(uri) ?? []).find((p) => (p.version ?? 0) >= version);
      return had !== undefined ? Promise.resolve(had) : wait(uri, (p) => (p.version ?? 0) >= version, timeoutMs);
    },
    open: (uri, text, version = 1) =>
      void connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId: "renyi", version, text },
      }),
    change: (uri, version, changes) =>
      void connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: changes,
      }),
    close: (uri) => void connection.sendNotification("textDocument/didClose", { textDocument: { uri } }),
    request: <R>(method: string, params: unknown) => connection.sendRequest(method, params) as Promise<R>,
    stop: async () => {
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
}
