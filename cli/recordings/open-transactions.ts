// A run stopped by force in the middle of a transaction (spec/recording.md, "Transactions"):
// its statements were recorded as they completed, numbered, but the transaction's own entry,
// written when it ends, never came. SQLite rolls back what was not committed, so the
// recording is closed with that entry, `rolled back`: a recording is never left naming a
// transaction it does not hold (the reader would refuse it, and the run would be lost).

import type { RecordedCall } from "../../vocabulary/recording.js";

const TRANSACTION = "std.database.transaction";

/** `calls`, with an entry added after them, rolled back, for each transaction their statements name and none ends. */
export function closeOpenTransactions(calls: readonly RecordedCall[]): RecordedCall[] {
  const ended = new Set<number>();
  for (const call of calls)
    if (call.primitive === TRANSACTION && call.transaction !== undefined) ended.add(call.transaction);
  const open = new Map<number, string>();
  for (const call of calls)
    if (call.transaction !== undefined && !ended.has(call.transaction)) open.set(call.transaction, call.capability);
  if (open.size === 0) return [...calls];
  let sequence = calls.length === 0 ? 0 : calls[calls.length - 1]!.sequence;
  const closed = [...calls];
  for (const [transaction, capability] of [...open].sort((a, b) => b[0] - a[0]))
    closed.push({
      sequence: ++sequence,
      capability,
      primitive: TRANSACTION,
      arguments: {},
      outcome: { failure: "rolled back" },
      transaction,
    });
  return closed;
}
