// `renyi lsp`: the language server, over standard input and output
// (spec/editor.md). Documents are synchronised incrementally; the workspace
// (editor/workspace.ts) keeps what an edit did not change, and the diagnostics
// of every open document whose view changed are published, the documents
// that use an edited module among them.
//
// The server reads: the documents the client sends, and the modules they use
// that are not open, from disk (files.ts). It writes no file, opens no socket
// and starts no process (spec/security.md, "Editor services run nothing").

import {
  createConnection,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type Position,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { SourceFile, type Span } from "../../compiler/source.js";
import type { ModuleView, Snapshot } from "../../editor/analysis.js";
import { Workspace } from "../../editor/workspace.js";
import { VERSION } from "../host/version.cjs";
import { publishedDiagnostics } from "./diagnostics.js";
import { fileOfUri, readModule, uriOfFile } from "./files.js";
import { Outbox } from "./outbox.js";
import { offsetAt, rangeOf } from "./positions.js";
import { Schedule } from "./schedule.js";
import { checkedDocumentSync } from "./sync-params.js";
import { failedAnswer, type ServerContext } from "./service.js";
import { capabilitiesOf, SERVICES } from "./services.js";

export function serve(): Promise<number> {
  const connection = createConnection(process.stdin, process.stdout);
  startServer(connection, process.stdout);
  connection.listen();
  // The protocol's `exit` notification, or the end of standard input, ends the process (vscode-languageserver).
  return new Promise<number>(() => undefined);
}

function startServer(connection: Connection, output: NodeJS.WritableStream & { writableLength: number }): void {
  const documents = new TextDocuments(TextDocument);
  const workspace = new Workspace(readModule);
  const outbox = new Outbox(output, (params) => void connection.sendDiagnostics(params));
  /**
   * The view and version each open document's diagnostics were last published
   * for: published again when either changed (an edit undone within one
   * analysis gives the same view, for a new version).
   */
  const published = new Map<string, { view: ModuleView; version: number | undefined }>();
  let latest: Snapshot = { modules: new Map() };
  // Each open document's URI as its client wrote it: a client may encode a path otherwise than pathToFileURL does.
  const clientUris = new Map<string, string>();
  const uriOf = (file: string) => clientUris.get(file) ?? uriOfFile(file);

  const sourceOf = (file: string): SourceFile | undefined => {
    const open = latest.modules.get(file)?.source;
    if (open !== undefined) return open;
    const text = workspace.textOf(file);
    return text === undefined ? undefined : new SourceFile(file, text);
  };

  const analyse = () => {
    try {
      latest = workspace.snapshot();
    } catch (e) {
      failedAnswer("analysis", e);
      return;
    }
    for (const [file, view] of latest.modules) {
      const version = documents.get(uriOf(file))?.version;
      const last = published.get(file);
      if (last !== undefined && last.view === view && last.version === version) continue;
      published.set(file, { view, version });
      outbox.publish({
        uri: uriOf(file),
        ...(version === undefined ? {} : { version }),
        diagnostics: publishedDiagnostics(view.diagnostics, view.source, sourceOf),
      });
    }
  };
  const schedule = new Schedule(analyse);

  const context: ServerContext = {
    snapshot() {
      schedule.flush();
      return latest;
    },
    view: (file) => (workspace.isOpen(file) ? context.snapshot().modules.get(file) : workspace.view(file)),
    fileOfUri,
    uriOfFile: uriOf,
    sourceOf,
    offsetAt: (file: string, position: Position) => {
      const source = sourceOf(file);
      return source === undefined ? undefined : offsetAt(source, position);
    },
    rangeOf: (span: Span) => {
      const source = sourceOf(span.file);
      return source === undefined ? undefined : rangeOf(source, span);
    },
    answer:
      <P, R>(name: string, handler: (params: P) => R) =>
      (params: P) => {
        try {
          return handler(params);
        } catch (e) {
          return failedAnswer(name, e);
        }
      },
  };

  connection.onInitialize(() => ({
    capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental, ...capabilitiesOf(SERVICES) },
    serverInfo: { name: "renyi", version: VERSION },
  }));

  const changed = (uri: string, text: string) => {
    const file = fileOfUri(uri);
    clientUris.set(file, uri);
    workspace.set(file, text);
    schedule.changed();
  };
  // A notification's handler that fails is written to standard error; the server goes on.
  documents.onDidChangeContent((e) => guard("didChange", () => changed(e.document.uri, e.document.getText())));
  documents.onDidClose((e) =>
    guard("didClose", () => {
      const file = fileOfUri(e.document.uri);
      workspace.close(file);
      published.delete(file);
      clientUris.delete(file);
      outbox.publish({ uri: e.document.uri, diagnostics: [] });
      schedule.changed();
    }),
  );
  // What the server has done and holds, for the benchmark (bench/editor.ts): the heap after a collection when Node
  // was started with --expose-gc.
  connection.onRequest(
    "renyi/statistics",
    context.answer("statistics", () => {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      const memory = process.memoryUsage();
      return { ...workspace.counts, rss: memory.rss, heapUsed: memory.heapUsed, collected: gc !== undefined };
    }),
  );
  for (const service of SERVICES) service.register(connection, context);
  documents.listen(checkedDocumentSync(connection));
}

function guard(name: string, run: () => void): void {
  try {
    run();
  } catch (e) {
    failedAnswer(name, e);
  }
}
