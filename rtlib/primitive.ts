// A primitive call as the capability gateway sees it (gateway.ts): its name, the
// capability it uses and how it fails when refused. Apart from the gateway, so
// that what the gateway calls (the narration of effects) can name it too.

import type { Need } from "../vocabulary/needs.js";
import type { Grant } from "./grants.js";
import type { Shape } from "./values.js";

/** A primitive call as the gateway sees it. */
export interface Primitive {
  /** `std.http.get` */
  readonly name: string;
  /** The capability the call uses, with the scope of this very call (its host, its path). */
  readonly need: Need;
  /** The failure when the grant refuses the call; a primitive that cannot fail crashes instead. */
  readonly denied?: (refused: Grant) => unknown;
  /** The failure when a budget is spent. */
  readonly overBudget?: () => unknown;
  /**
   * The failure when a guard refuses the call: its failure type's `Guarded(origin, sink)`; a primitive that cannot fail
   * crashes instead.
   */
  readonly refusedByGuard?: (origin: string, sink: string) => unknown;
  /** The primitive's declared result type; what the call gives back is checked against it. */
  readonly result?: Shape;
  /**
   * The live call's result is made by the runtime itself in the declared shape (environment.get's text or
   * nothing, from a host value whose type it tests): the live path does not check it again. An answer read
   * from a recording is checked all the same.
   */
  readonly madeConforming?: true;
  /** It reads the clock (time.now, time.today): how long the run took to get here is data of what it decided on. */
  readonly readsClock?: true;
  /** `database.transaction`: the program's work inside it, which a replay runs against the recorded statements. */
  readonly transaction?: TransactionCall;
  /** A statement made while a transaction was open on its database: that transaction's number in the run. */
  readonly inTransaction?: number;
}

/** How a transaction ended (spec/recording.md, "Transactions"). */
export type TransactionEnd = "committed" | "rolled back" | "BEGIN failed" | "COMMIT failed";

/** A call of `database.transaction`, as the gateway and a replay see it. */
export interface TransactionCall {
  /** Its number in the run, in the order the transactions were begun, once it is made: its statements carry it too. */
  number: number | undefined;
  /** How it ended, once it has. */
  ended: TransactionEnd | undefined;
  /** Runs the program's work with no BEGIN or COMMIT: a replay answers the statements inside it. */
  readonly replayWork: () => Promise<unknown>;
  /** A resumed run answered it with the recorded transaction `number`: live ones are numbered after it. */
  readonly answeredAs: (number: number) => void;
}
