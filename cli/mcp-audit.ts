// The audit log of `renyi mcp` (spec/mcp.md, "The audit log"): `audit.jsonl` in
// the recordings folder, one JSON object a line for every tool call, written
// when the call ends, and for a grant the person approves also at the moment
// of approval, before the program runs. Lines are appended whole by one write
// each to a file opened for appending, so that servers sharing a folder do not
// interleave them, and a server stopped mid-run has already logged what it
// was allowed to run and by whom.

import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { makeFolders } from "./cache.cjs";

export const AUDIT_FILE = "audit.jsonl";

/** Who allowed main's grant: the ceiling the server was started with, or the person, asked through the client. */
export type ApprovedBy = "ceiling" | "person" | "person-earlier";

export interface AuditEntry {
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
      process.stderr.write(`renyi mcp: the audit log ${this.file} cannot be written: ${e instanceof Error ? e.message : String(e)}\n`);
      this.close();
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
