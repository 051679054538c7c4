// The standard input and output of `renyi mcp` as a protocol transport: one
// JSON-RPC message a line (spec/mcp.md, "Limits and hostile input"). Unlike
// the SDK's own stdio transport, which drops a line it cannot read (leaving
// its sender waiting for ever) and closes on a line over 10 MiB, this one
// answers every line that is not a message with a JSON-RPC error, carrying
// the request's id when one can be read, and goes on reading:
//
// - a line longer than MAX_MESSAGE_BYTES is skipped as it arrives, never held
//   whole, and answered `-32600 message too large`;
// - a line that is not UTF-8 is answered `-32700`, naming the byte offset:
//   it is refused rather than read with U+FFFD in place of what it held;
// - a line that is not JSON, `-32700`; JSON that is not a JSON-RPC message, `-32600`.

import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * The longest line read as a message: a request carries at most 1 MiB of sources, which JSON may write six times over.
 */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** JSON-RPC's codes for a line that is not a message. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

type Id = string | number | null;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** Set while the rest of a line too long to read is skipped: its first and last bytes, to find its id. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private closed = false;
  /** Input is not read while the output's buffer is full (see send). */
  private paused = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onInputError);
  }

  /**
   * Writes one message. While the client does not read what is written (the
   * output's buffer is full), no more input is read: answers cannot then pile
   * up in memory faster than the client takes them.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const line = `${JSON.stringify(message)}\n`;
    if (this.output.write(line)) return;
    if (!this.paused) {
      this.paused = true;
      this.input.pause();
      this.output.once("drain", () => {
        this.paused = false;
        if (!this.closed) this.input.resume();
      });
    }
    await new Promise<void>((resolve) => this.output.once("drain", resolve));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onInputError);
    this.pieces = [];
    this.onclose?.();
  }

  private readonly onEnd = (): void => void this.close();
  private readonly onInputError = (e: Error): void => this.onerror?.(e);

  private readonly onData = (data: Buffer | string): void => {
    let chunk = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    while (chunk.length > 0 && !this.closed) {
      const newline = chunk.indexOf(10);
      const part = newline < 0 ? chunk : chunk.subarray(0, newline);
      this.take(part);
      if (newline < 0) return;
      this.endLine();
      chunk = chunk.subarray(newline + 1);
    }
  };

  /** Adds part of the current line: held while it fits, skipped (its ends kept) once it does not. */
  private take(part: Buffer): void {
    if (this.skipping !== undefined) {
      this.skipping.bytes += part.length;
      this.skipping.tail = Buffer.concat([this.skipping.tail, part]).subarray(-256);
      return;
    }
    // A carriage return before the line feed does not count against the bound.
    if (this.pieceBytes + part.length <= MAX_MESSAGE_BYTES + 1) {
      this.pieces.push(part);
      this.pieceBytes += part.length;
      return;
    }
    const held = Buffer.concat([...this.pieces, part]);
    this.skipping = { head: held.subarray(0, 256), tail: held.subarray(-256), bytes: held.length };
    this.pieces = [];
    this.pieceBytes = 0;
  }

  private endLine(): void {
    if (this.skipping !== undefined) {
      const { head, tail, bytes } = this.skipping;
      this.skipping = undefined;
      const id = idAtStart(head.toString("utf8")) ?? idAtEnd(tail.toString("utf8"));
      this.refuse(
        id,
        INVALID_REQUEST,
        `message too large: a line of ${bytes.toLocaleString("en")} bytes or more, and renyi mcp reads lines of ` +
          `at most ${MAX_MESSAGE_BYTES.toLocaleString("en")} (8 MiB); a request carries at most 1 MiB of sources`,
      );
      return;
    }
    const bytes = Buffer.concat(this.pieces);
    this.pieces = [];
    this.pieceBytes = 0;
    const line = bytes.at(-1) === 13 ? bytes.subarray(0, -1) : bytes;
    if (line.length > MAX_MESSAGE_BYTES) {
      this.refuse(
        idAtStart(line.subarray(0, 256).toString("utf8")) ?? idAtEnd(line.subarray(-256).toString("utf8")),
        INVALID_REQUEST,
        `message too large: a line of ${line.length.toLocaleString("en")} bytes, and renyi mcp reads lines of at ` +
          `most ${MAX_MESSAGE_BYTES.toLocaleString("en")} (8 MiB); a request carries at most 1 MiB of sources`,
      );
      return;
    }
    // An empty line is skipped; any other line is read as a message, or answered as not one.
    if (line.length === 0) return;
    this.read(line);
  }

  private read(line: Buffer): void {
    let text: string;
    try {
      text = this.decoder.decode(line);
    } catch {
      const at = firstInvalidUtf8(line);
      this.refuse(
        idOf(safeParse(line.toString("utf8"))),
        PARSE_ERROR,
        `the message is not UTF-8: byte ${at} (0x${line[at]?.toString(16).padStart(2, "0") ?? "??"}) begins no ` +
          `character`,
      );
      return;
    }
    const value = safeParse(text);
    if (value === NOT_JSON) {
      this.refuse(null, PARSE_ERROR, "the line is not JSON: each line renyi mcp reads is one JSON-RPC message");
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      this.refuse(
        idOf(value),
        INVALID_REQUEST,
        "the line is JSON but not a JSON-RPC 2.0 message (a request, notification or response)",
      );
      return;
    }
    this.onmessage?.(message.data);
  }

  /** Answers a line that is not a message, unless it was a notification (JSON-RPC answers those never). */
  private refuse(id: Id | undefined, code: number, message: string): void {
    this.onerror?.(new Error(message));
    if (id === undefined) return;
    void this.send({
      jsonrpc: "2.0",
      id: id as string | number,
      error: { code, message },
    } as unknown as JSONRPCMessage);
  }
}

const NOT_JSON = Symbol("not JSON");

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/**
 * The id to answer a line that is not a message with: its own when it has one
 * of the right kind, undefined for a notification (an object with a method and
 * no id), and null when it cannot be told.
 */
function idOf(value: unknown): Id | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as { id?: unknown; method?: unknown };
  if (typeof record.id === "string" || (typeof record.id === "number" && Number.isFinite(record.id))) return record.id;
  if (!("id" in record) && typeof record.method === "string") return undefined;
  return null;
}

const ID_VALUE = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,100}")`;
/** `{"jsonrpc":"2.0","id":7,` or `{"id":7,` at the start of a line. */
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}\s*,`);
/** `,"id":7}` closing the line: the outermost object's last key (a nested one would close twice). */
const ID_AT_END = new RegExp(String.raw`,\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

function idAtStart(text: string): Id | undefined {
  const m = ID_AT_START.exec(text);
  return m === null ? undefined : (JSON.parse(m[1]!) as Id);
}

function idAtEnd(text: string): Id {
  const m = ID_AT_END.exec(text);
  return m === null ? null : (JSON.parse(m[1]!) as Id);
}

/** The offset of the first byte that does not begin, or continue, a UTF-8 character. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const [length, low, high] =
      b < 0x80
        ? [1, 0, 0]
        : b >= 0xc2 && b <= 0xdf
          ? [2, 0x80, 0xbf]
          : b === 0xe0
            ? [3, 0xa0, 0xbf]
            : b === 0xed
              ? [3, 0x80, 0x9f]
              : b >= 0xe1 && b <= 0xef
                ? [3, 0x80, 0xbf]
                : b === 0xf0
                  ? [4, 0x90, 0xbf]
                  : b === 0xf4
                    ? [4, 0x80, 0x8f]
                    : b >= 0xf1 && b <= 0xf3
                      ? [4, 0x80, 0xbf]
                      : [0, 0, 0];
    if (length === 0 || i + length > bytes.length) return i;
    const second = bytes[i + 1];
    if (length > 1 && (second === undefined || second < low || second > high)) return i;
    for (let k = 2; k < length; k++) {
      const c = bytes[i + k]!;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return bytes.length;
}
