// Data coming in (spec/effects.md, "Data coming in"): a response body, a file,
// a process's output, a database result. Each is read as it arrives and
// counted, and the reading stops as soon as it passes the limit of a text:
// nothing past the limit is ever held in memory, and the call fails with its
// module's failure, which a program can handle like any other.

import { MAX_ELEMENTS, MAX_TEXT } from "../../vocabulary/limits.js";

/**
 * The limits data coming in is held to: the bytes one call brings in (a text's
 * limit: bytes decoded as UTF-8 give at most as many characters), and the rows
 * of one database result (a list's limit). Set by the host that starts a run
 * (configureIncoming), never by a program.
 */
export const INCOMING: { bytes: number; rows: number } = { bytes: MAX_TEXT, rows: MAX_ELEMENTS };

/** For the host that starts a run (and the tests, which lower the limits to stay small). */
export function configureIncoming(limits: { bytes?: number; rows?: number }): void {
  INCOMING.bytes = limits.bytes ?? MAX_TEXT;
  INCOMING.rows = limits.rows ?? MAX_ELEMENTS;
}

/** A number with thousands separated, as the messages write them. */
export function counted(n: number): string {
  return n.toLocaleString("en-US");
}

/** The reason a failure gives: `its output passed the limit of 67,108,864 bytes for data coming in`. */
export function overLimit(what: string): string {
  return `${what} passed the limit of ${counted(INCOMING.bytes)} bytes for data coming in`;
}

/**
 * Chunks of bytes, counted as they are added. `add` says false, and drops what
 * was kept, as soon as the total passes the limit; the caller then stops reading.
 */
export class Gathered {
  private chunks: Uint8Array[] = [];
  size = 0;

  add(chunk: Uint8Array): boolean {
    this.size += chunk.length;
    if (this.size > INCOMING.bytes) {
      this.chunks = [];
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  get over(): boolean {
    return this.size > INCOMING.bytes;
  }

  /** The bytes, in one buffer; the chunks are let go. */
  take(): Buffer {
    const whole = Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    return whole;
  }
}
