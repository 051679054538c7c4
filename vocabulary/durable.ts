// A durable run (spec/durable.md): the messages between `renyi serve --restate`
// and the `renyi run --durable` process it starts for each attempt of an
// invocation, over that process's IPC channel, and the entries the endpoint
// keeps in Restate's journal. Declared once here: both sides read them.

import type { BudgetUnit, Need } from "./needs.js";
import type { RecordedCall } from "./recording.js";

/** The environment variable that marks a run started by `renyi serve --restate` (with an IPC channel). */
export const DURABLE_ENV = "RENYI_DURABLE";

/** The form of the journal's entries: the header's `renyi` field. */
export const DURABLE_FORM = "durable-1";

/** The name of every `ctx.run` the endpoint journals: one name, so that a replay never sees another. */
export const JOURNAL_RUN_NAME = "renyi";

/** The virtual object that keeps the shared budgets (one key per budget). */
export const BUDGET_OBJECT = "renyi-budget";

/** A ceiling budget of `renyi serve`, shared by every run on every endpoint of one Restate cluster. */
export interface SharedBudget {
  /** The budget object's key: the budget as its flag writes it, `network.http("api.example.com")=5/minute`. */
  readonly key: string;
  readonly need: Need;
  readonly count: number;
  readonly unit: BudgetUnit;
}

/** The first message to a durable run, before its program runs. */
export interface DurableStart {
  readonly start: {
    /** Every call the journal holds, in journal order: each is answered from here while its key's queue has one. */
    readonly journaled: RecordedCall[];
    /** The code hash the endpoint registered: a program whose code is now another is refused. */
    readonly code: string;
    readonly shared: SharedBudget[];
    /** The names the journal is redacted under (`renyi serve --redact`). */
    readonly redacted: string[];
  };
}

/** What the endpoint answers a durable run with, after the start. */
export type ToDurableRun =
  | DurableStart
  /** The calls sent with that id are in the journal. */
  | { readonly kept: number }
  /** The durable timer of that id has fired. */
  | { readonly woke: number }
  /** The shared budgets asked for with that id allowed the call (ok) or refused it. */
  | { readonly taken: number; readonly ok: boolean };

/** What a durable run asks of the endpoint. */
export type FromDurableRun =
  /** Live calls completed, as `renyi record` writes them: journal them, then answer `kept`. */
  | { readonly keep: { readonly id: number; readonly calls: RecordedCall[] } }
  /** `time.sleep(ms)`: a durable timer; answer `woke` when it fires. */
  | { readonly sleep: { readonly id: number; readonly ms: number } }
  /** A live call about to be made under these shared budgets: take one of each, answer `taken`. */
  | { readonly take: { readonly id: number; readonly keys: string[] } };

/** The first entry of an invocation's journal. */
export interface JournalHeader {
  readonly renyi: typeof DURABLE_FORM;
  readonly program: string;
  readonly code: string;
  /** main's grant once narrowed, as its needs line writes each item. */
  readonly grant: string[];
  /** The program options the run was given, as its command line writes them. */
  readonly arguments: string[];
  readonly redacted: string[];
  readonly started_ms: number;
}

/** How a run ended, the last entry of its journal. */
export interface JournalEnd {
  readonly ended: {
    readonly outcome: string;
    /** `sha256:` and the hash of what the program printed, and its length in bytes. */
    readonly stdout: string;
    readonly bytes: number;
  };
}

/** Every other entry the endpoint journals (spec/durable.md, "The journal"). */
export type JournalEntry =
  | JournalHeader
  | JournalEnd
  | { readonly calls: RecordedCall[] }
  | { readonly sleep: { readonly ms: number; readonly until: number } }
  | { readonly budget: { readonly key: string; readonly request: BudgetRequest } }
  | { readonly attempt: number };

/** What the budget object's `take` handler is asked. */
export interface BudgetRequest {
  readonly count: number;
  readonly unit: BudgetUnit;
}
