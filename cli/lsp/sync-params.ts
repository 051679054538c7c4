// The document notifications a client sends (didOpen, didChange, didClose,
// willSave, didSave), checked at the edge before the documents' store sees
// them: a message of the wrong shape is ignored, with one line on standard
// error, so that one bad message never reaches the workspace's texts
// (spec/editor.md section 11).

import type {
  Disposable,
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
  DidSaveTextDocumentParams,
  NotificationHandler,
  TextDocuments,
  WillSaveTextDocumentParams,
} from "vscode-languageserver/node";

/** What the documents' store listens to (the library does not export the type by name). */
type TextDocumentConnection = Parameters<TextDocuments<never>["listen"]>[0];

type Fields = Record<string, unknown>;
const isRecord = (v: unknown): v is Fields => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isPosition = (v: unknown) => isRecord(v) && isCount(v.line) && isCount(v.character);
const isRange = (v: unknown) => isRecord(v) && isPosition(v.start) && isPosition(v.end);
const isChange = (v: unknown) =>
  isRecord(v) && typeof v.text === "string" && (v.range === undefined || isRange(v.range));
const namesDocument = (p: unknown): p is { textDocument: Fields } =>
  isRecord(p) && isRecord(p.textDocument) && typeof p.textDocument.uri === "string";

function isOpenParams(p: unknown): p is DidOpenTextDocumentParams {
  return namesDocument(p) && typeof p.textDocument.text === "string" && isCount(p.textDocument.version);
}

function isChangeParams(p: unknown): p is DidChangeTextDocumentParams {
  return (
    namesDocument(p) &&
    isCount(p.textDocument.version) &&
    Array.isArray((p as Fields).contentChanges) &&
    ((p as Fields).contentChanges as unknown[]).every(isChange)
  );
}

const isDocumentParams = namesDocument;

/** The message written for a notification that is ignored: its method, and what was wrong, on one line. */
function ignored(method: string): void {
  process.stderr.write(`renyi lsp: ${method} ignored: its params are not of the protocol's shape\n`);
}

function checked<P>(method: string, valid: (p: unknown) => boolean, handler: NotificationHandler<P>) {
  return (params: P) => {
    if (valid(params)) handler(params);
    else ignored(method);
  };
}

/** The connection as the documents' store listens to it, every notification's params checked first. */
export function checkedDocumentSync(connection: TextDocumentConnection): TextDocumentConnection {
  return {
    onDidOpenTextDocument: (h: NotificationHandler<DidOpenTextDocumentParams>): Disposable =>
      connection.onDidOpenTextDocument(checked("textDocument/didOpen", isOpenParams, h)),
    onDidChangeTextDocument: (h: NotificationHandler<DidChangeTextDocumentParams>): Disposable =>
      connection.onDidChangeTextDocument(checked("textDocument/didChange", isChangeParams, h)),
    onDidCloseTextDocument: (h: NotificationHandler<DidCloseTextDocumentParams>): Disposable =>
      connection.onDidCloseTextDocument(checked("textDocument/didClose", isDocumentParams, h)),
    onWillSaveTextDocument: (h: NotificationHandler<WillSaveTextDocumentParams>): Disposable =>
      connection.onWillSaveTextDocument(checked("textDocument/willSave", isDocumentParams, h)),
    onWillSaveTextDocumentWaitUntil: (h) =>
      connection.onWillSaveTextDocumentWaitUntil((params, token) => (isDocumentParams(params) ? h(params, token) : [])),
    onDidSaveTextDocument: (h: NotificationHandler<DidSaveTextDocumentParams>): Disposable =>
      connection.onDidSaveTextDocument(checked("textDocument/didSave", isDocumentParams, h)),
  };
}
