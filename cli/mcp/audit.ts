// The audit log of `renyi mcp` (spec/mcp.md, "The audit log"): `audit.jsonl` in
// the recordings folder, one JSON object a line for every tool call, written
// when the call ends, and for a grant the person approves also at the moment
// of approval, before the program runs. Lines are appended whole by one write
// each to a file opened for appending, so that servers sharing a folder do not
// interleave them, and a server stopped mid-run has already logged what it
// was allowed to run and by whom.
//
// A call refused before its tool is reached (a tool that does not exist,
// arguments the input schema refuses, a name the SDK cannot read) is logged
// too, by AuditedCalls, which sees every request and every answer the
// transport carries.

import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { makeFolders } from "../cache/cache.cjs";

const AUDIT_FILE = "audit.jsonl";

/** Who allowed main's grant: the ceiling the server was started with, or the person, asked through the client. */
type ApprovedBy = "ceiling" | "person" | "person-earlier";

export interface AuditEntry {
  /** The tool called; for a call refused before its tool, the name as the client sent it, cut at 100 characters. */
  readonly tool: string;
  /** What the call came to: answered, refused, declined, cancelled, or a run's outcome. */
  readonly outcome: string;
  readonly program?: string;
  /** sha256 of the request's sources, each module's name and text in order. */
  readonly sources?: string;
  /** sha256 of main's grant as the grant tool hashes it. */
  readonly grant?: string;
  readonly approvedBy?: ApprovedBy;
  readonly recording?: string;
  readonly exit?: number;
  readonly code?: string;
  /** Where a run's error arose: FILE:LINE:COLUMN. */
  readonly at?: string;
  /** Why the call was refused: the refusal's first line, which quotes no data a program read. */
  readonly reason?: string;
  readonly ms?: number;
  /** `approved`: the line written before an approved run begins. */
  readonly event?: "approved";
}

export class AuditLog {
  private constructor(
    readonly file: string,
    private fd: number | undefined,
  ) {}

  /** Opens (or creates) the log in the folder; throws when it cannot be written. */
  static open(folder: string): AuditLog {
    makeFolders(folder);
    const file = join(folder, AUDIT_FILE);
    return new AuditLog(file, openSync(file, "a", 0o600));
  }

  /** Whether lines can still be written: the run and test tools run nothing unlogged. */
  get writable(): boolean {
    return this.fd !== undefined;
  }

  write(entry: AuditEntry): void {
    if (this.fd === undefined) return;
    const line = `${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`;
    try {
      writeSync(this.fd, line);
    } catch (e) {
      // A log that can no longer be written is said once on standard error; from then on nothing runs.
      process.stderr.write(
        `renyi mcp: the audit log ${this.file} cannot be written: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      this.close();
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

type Id = string | number;
const key = (id: Id): string => `${typeof id}:${id}`;

/**
 * The most requests remembered at once, each way: a client that never reads its answers does not grow them without
 * bound.
 */
const MAX_REMEMBERED = 10_000;

/** The tool calls whose tool wrote its own audit line, by request id; each is taken once, when its answer goes out. */
export class AnsweredCalls {
  private readonly ids = new Map<string, number>();

  add(id: Id): void {
    if (this.ids.size >= MAX_REMEMBERED) this.ids.delete(this.ids.keys().next().value!);
    this.ids.set(key(id), (this.ids.get(key(id)) ?? 0) + 1);
  }

  /** Whether the call answered with this id wrote its line (and forgets it). */
  take(id: Id): boolean {
    const count = this.ids.get(key(id));
    if (count === undefined) return false;
    if (count <= 1) this.ids.delete(key(id));
    else this.ids.set(key(id), count - 1);
    return true;
  }
}

/**
 * A transport that writes an audit line for each tool call answered without
 * reaching its tool: the SDK refuses a tool that does not exist and arguments
 * of the wrong shape itself, before any tool's code runs. Every `tools/call`
 * request is noted as it arrives; when its answer goes out and the tool wrote
 * no line for it (AnsweredCalls), this writes one: `refused`, with the answer's
 * first line as the reason.
 */
export class AuditedCalls implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly pending = new Map<string, { tool: string; started: number }[]>();

  constructor(
    private readonly inner: Transport,
    private readonly audit: AuditLog,
    private readonly answered: AnsweredCalls,
  ) {
    inner.onmessage = (message, extra) => {
      this.arrived(message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.answering(message);
    return this.inner.send(message, options);
  }

  private arrived(message: JSONRPCMessage): void {
    if (!("method" in message)) return;
    const params = (message.params ?? {}) as { name?: unknown; requestId?: unknown };
    if (
      message.method === "notifications/cancelled" &&
      (typeof params.requestId === "string" || typeof params.requestId === "number")
    ) {
      // A cancelled request is not answered: its tool's line (if it reached its tool) is written all the same.
      this.pending.get(key(params.requestId))?.shift();
      return;
    }
    if (message.method !== "tools/call" || !("id" in message)) return;
    if (this.pending.size >= MAX_REMEMBERED) this.pending.delete(this.pending.keys().next().value!);
    const tool =
      typeof params.name === "string"
        ? cut(params.name, 100)
        : `(${params.name === undefined ? "no name" : `a name that is not text: ${typeof params.name}`})`;
    const waiting = this.pending.get(key(message.id)) ?? [];
    waiting.push({ tool, started: performance.now() });
    this.pending.set(key(message.id), waiting);
  }

  private answering(message: JSONRPCMessage): void {
    if (!("id" in message) || "method" in message || message.id === undefined) return;
    const id = message.id;
    const waiting = this.pending.get(key(id));
    const call = waiting?.shift();
    if (call === undefined) return;
    if (waiting!.length === 0) this.pending.delete(key(id));
    if (this.answered.take(id)) return;
    const result =
      "result" in message
        ? (message.result as { isError?: boolean; content?: { type?: string; text?: string }[] })
        : undefined;
    const reason =
      result !== undefined
        ? (result.content ?? []).map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("\n")
        : "error" in message
          ? `JSON-RPC error ${message.error.code}: ${message.error.message}`
          : "";
    const refused = result === undefined || result.isError === true;
    this.audit.write({
      tool: call.tool,
      outcome: refused ? "refused" : "answered",
      ...(refused ? { reason: cut(reason.split("\n")[0] ?? "", 500) } : {}),
      ms: Math.round(performance.now() - call.started),
    });
  }
}

function cut(text: string, most: number): string {
  return text.length > most ? `${text.slice(0, most)}…` : text;
}
