// What a service of the language server is (services.ts lists them): what
// it announces it can do and how it answers, from the context the server gives.

import {
  ErrorCodes,
  ResponseError,
  type Connection,
  type Position,
  type Range,
  type ServerCapabilities,
  type TextDocumentPositionParams,
} from "vscode-languageserver/node";
import type { ModuleView, Snapshot } from "../../editor/analysis.js";
import type { SourceFile, Span } from "../../compiler/source.js";

export interface ServerContext {
  /** The views of the open documents, every change received so far analysed. */
  snapshot(): Snapshot;
  /** The view of one file, open or not (a module reached through `use`). */
  view(file: string): ModuleView | undefined;
  fileOfUri(uri: string): string;
  uriOfFile(file: string): string;
  /** The text of a file the workspace holds (open, or read for an open one), for its positions. */
  sourceOf(file: string): SourceFile | undefined;
  /** A position's offset in a file, clamped to its text; undefined for a file the workspace does not hold. */
  offsetAt(file: string, position: Position): number | undefined;
  rangeOf(span: Span): Range | undefined;
  /**
   * A request's handler made safe: an exception it throws is answered as the
   * protocol's internal error and written to standard error, and the server goes on.
   */
  answer<P, R>(name: string, handler: (params: P) => R): (params: P) => R | ResponseError<void>;
}

export interface Service {
  readonly name: string;
  readonly capabilities: ServerCapabilities;
  register(connection: Connection, context: ServerContext): void;
}

/**
 * The error response for an exception, written to standard error on one line: the method and the
 * error's kind and message; its stack only when RENYI_LSP_TRACE=1 asks for it (spec/editor.md section 11).
 */
export function failedAnswer(name: string, e: unknown): ResponseError<void> {
  const trace = process.env.RENYI_LSP_TRACE === "1" && e instanceof Error ? e.stack : undefined;
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  process.stderr.write(`renyi lsp: ${name} failed: ${trace ?? message.replace(/\s+/g, " ")}\n`);
  return new ResponseError(ErrorCodes.InternalError, `renyi lsp: ${name} failed`);
}

/** The snapshot, file and offset a request names; undefined for a document that is not open. */
export function positionIn(context: ServerContext, params: TextDocumentPositionParams) {
  const file = context.fileOfUri(params.textDocument.uri);
  const snapshot = context.snapshot();
  if (!snapshot.modules.has(file)) return undefined;
  const offset = context.offsetAt(file, params.position);
  return offset === undefined ? undefined : { snapshot, file, offset };
}
