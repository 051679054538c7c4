// Diagnostics waiting to be sent, the latest for each document only. A client
// that reads slowly, or never, holds at most one notification per document
// here: a notification is written only while the output has room, and a newer
// one for the same document replaces the one still waiting.

import type { PublishDiagnosticsParams } from "vscode-languageserver/node";

/** Bytes the output may hold unread before notifications wait (requests' answers are not held). */
export const OUTPUT_ROOM = 1024 * 1024;

export interface Output {
  readonly writableLength: number;
  once(event: "drain", listener: () => void): unknown;
}

export class Outbox {
  private readonly waiting = new Map<string, PublishDiagnosticsParams>();
  private waitingForDrain = false;

  constructor(
    private readonly output: Output,
    private readonly send: (params: PublishDiagnosticsParams) => void,
  ) {}

  publish(params: PublishDiagnosticsParams): void {
    this.waiting.delete(params.uri);
    this.waiting.set(params.uri, params);
    this.pump();
  }

  /** How many documents' diagnostics are waiting: never more than the documents. */
  get size(): number {
    return this.waiting.size;
  }

  private pump(): void {
    for (const [uri, params] of this.waiting) {
      if (this.output.writableLength > OUTPUT_ROOM) break;
      this.waiting.delete(uri);
      this.send(params);
    }
    if (this.waiting.size > 0 && !this.waitingForDrain) {
      this.waitingForDrain = true;
      this.output.once("drain", () => {
        this.waitingForDrain = false;
        this.pump();
      });
    }
  }
}
