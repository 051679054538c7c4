// A replay (spec/recording.md): every call through the gateway is answered
// from a recording instead of performed. The recording is indexed once, by
// each call's key (key.ts), into a queue of the entries with that key in
// recorded order, so that a call is found in constant time however long the
// recording is, and identical calls are answered in the order they were
// recorded. Concurrent calls that complete in another order find their own
// entries all the same: the key is the call, not its place.

import { Crash, Failure } from "../errors.js";
import { decideOnEveryGuard } from "../origins.js";
import { LIVE, type Answerer, type Primitive } from "../gateway.js";
import { decodeValue, shapeText } from "../json.js";
import { DateRecord, JsonError, NONE, OPTIONAL, PRELUDE_VARIANTS, Some } from "../prelude.js";
import { DYNAMIC, descOf, NOTHING, record, TEXT, variant, type Shape } from "../values.js";
import { capabilityInfo, covers } from "../../vocabulary/capabilities.js";
import { grantText, needText, type GrantItem, type Need } from "../../vocabulary/needs.js";
import { readNeedText } from "../../vocabulary/grant-text.js";
import { REDACTED, type JsonValue, type RecordedCall } from "../../vocabulary/recording.js";
import type { RunFacts } from "../../vocabulary/problems/run.js";
import { encodeArguments, isHttpPrimitive } from "./encode.js";
import {
  argumentsFromRedacted,
  argumentsKey,
  FROM_REDACTED,
  isRedactedForm,
  markedArguments,
  redactedForms,
  redactedNames,
} from "./key.js";
import { callText, differences, nearest } from "./difference.js";

/**
 * Where soleText leaves the one text argument it found: a replay runs on one thread, and each is read right after it is
 * set.
 */
let soleName = "";
let soleValue = "";

/** The result types of primitives that declare none to the gateway. */
const RESULT_SHAPES: Readonly<Record<string, Shape>> = {
  "std.console.error": NOTHING,
  "std.console.read_line": variant(OPTIONAL, [TEXT]),
  "std.time.today": record(DateRecord.desc),
  "std.time.sleep": NOTHING,
  "std.filesystem.write_text": NOTHING,
  "std.filesystem.write_bytes": NOTHING,
  "std.filesystem.append_text": NOTHING,
  "std.filesystem.remove": NOTHING,
  "std.server.serve": NOTHING,
};

/** Primitives whose recorded result is one of their arguments' items, found by its JSON form. */
const FROM_ITEMS = new Set(["std.random.choice", "std.random.shuffle"]);

/**
 * Primitives that wrap program code, which a replay cannot answer with a value: a transaction recorded before its
 * statements were (one without a number) is one.
 */
const NOT_REPLAYABLE = new Set(["std.database.transaction"]);

/** The output primitives `renyi reproduce` still performs, so that the console shows the run. */
const CONSOLE = new Set(["std.console.print", "std.console.error"]);

/** How many capability texts checkGrant keeps the verdict of. */
const CAPABILITIES_KEPT = 64;

/** The console lines that differ a replay keeps to list at its end; the rest are counted. */
const MAX_CONSOLE_DIFFERENCES = 10;

interface Queue {
  readonly calls: RecordedCall[];
  next: number;
}

export interface ReplayOptions {
  /** Performs console.print and console.error as well (renyi reproduce). */
  readonly writeConsole?: boolean;
  /** Told of what each console.print of the replay writes, for the output's hash. */
  readonly onStdout?: (text: string) => void;
  /**
   * A resumed run (renyi run --resume): the first call the recording does not
   * hold, or holds as a failure, goes live instead of stopping the run, and so
   * does every call after it. Told of each entry answered, in matching order.
   */
  readonly resume?: {
    readonly onAnswered: (entry: RecordedCall) => void;
    /** `--from N`: a call matched to an entry of sequence N or later goes live too (a success the run failed on). */
    readonly from?: number;
  };
  /**
   * One attempt of a durable run (spec/durable.md, "The run side"): every call is answered from the journal while its
   * key's queue has an entry left, successes and failures alike, and any other is made live; no call ever makes the
   * run live for good, as a resumed run's does.
   */
  readonly durable?: true;
  /**
   * The sequence numbers of the recording's sealed calls (spec/recording.md,
   * "Sealed calls"), opened with the key: the program must keep the
   * recording's guards to be replayed against them, and what the replay says
   * of a call that differs shows none of their values.
   */
  readonly sealed?: ReadonlySet<number>;
  /**
   * Those of the sealed calls whose arguments carried no guarded data (an `environment.get` of a guarded variable,
   * sealed for what it gave back): a call is compared with their arguments as with any entry's.
   */
  readonly sealedForResult?: ReadonlySet<number>;
  /**
   * The names the recording is redacted under (its header's `redacted`): the
   * placeholder matches any value under these names alone. Without it (a
   * recording written before the header said), every name the placeholder
   * stands under in the recorded arguments.
   */
  readonly redacted?: readonly string[];
  /**
   * The run follows what a redacted name gives by its origin (spec/recording.md, "Redaction"): a place an entry marks
   * in `redacted_at` matches a value of the call that carries the origin, and no other. Without it (a program compiled
   * without the origin operators), marks are not read, and the placeholder matches as in a recording without them.
   */
  readonly originMarks?: boolean;
  /**
   * A console line the recording does not hold does not stop the replay (renyi run --replay, renyi reproduce): it is
   * shown, takes the recorded console line in its place when that is the next entry, and is listed at the end.
   */
  readonly consoleDiffers?: boolean;
}

/** A console line of a replay that the recording does not hold, beside the recorded line it took the place of. */
export interface ConsoleDifference {
  readonly primitive: string;
  /** The line the program wrote now. */
  readonly now: string;
  /** The recorded line it took the place of: its sequence, and its text unless the entry was sealed. */
  readonly recorded?: { readonly sequence: number; readonly text?: string };
}

/**
 * The recorded calls of one primitive. A call whose one argument is a text (a
 * variable's name, a URL, a line to print: most calls) is found by that text
 * itself, under its argument's name, with no key built; any other by its
 * canonical key (key.ts). Both are exact: a call of one text argument has the
 * same canonical key as an entry exactly when the entry's one argument is the
 * same text under the same name (see soleText).
 */
interface PrimitiveIndex {
  readonly byText: Map<string, Map<string, Queue>>;
  readonly byKey: Map<string, Queue>;
}

export class Replayer {
  /** The entries whose arguments were not sealed, by primitive: the only ones a call of plain arguments is compared with. */
  private readonly index = new Map<string, PrimitiveIndex>();
  /** The entries whose arguments were sealed, by primitive: compared only with a call whose arguments carry origins. */
  private readonly sealedIndex = new Map<string, PrimitiveIndex>();
  private readonly redacted = new Set<string>();
  /** A resumed run has gone live: from then on every call is made (spec/recording.md, "Resuming a run"). */
  private live = false;

  constructor(
    private readonly calls: readonly RecordedCall[],
    /** The recording's grant header, read back. */
    private readonly grant: readonly GrantItem[],
    private readonly options: ReplayOptions = {},
  ) {
    if (options.redacted !== undefined) for (const name of options.redacted) this.redacted.add(name.toLowerCase());
    else for (const call of calls) redactedNames(call.arguments, this.redacted);
    for (const call of calls) {
      if (this.heldAsTransaction(call)) continue;
      const index = this.argumentsSealed(call.sequence) ? this.sealedIndex : this.index;
      const name = this.indexedAs(call);
      let at = index.get(name);
      if (at === undefined) index.set(name, (at = { byText: new Map(), byKey: new Map() }));
      let queues: Map<string, Queue>;
      let key: string;
      if (!this.marked(call) && this.soleText(call.arguments)) {
        queues = at.byText.get(soleName) ?? at.byText.set(soleName, new Map()).get(soleName)!;
        key = soleValue;
      } else {
        queues = at.byKey;
        key = argumentsKey(this.keyedArguments(call), this.redacted);
      }
      const queue = queues.get(key);
      if (queue === undefined) queues.set(key, { calls: [call], next: 0 });
      else queue.calls.push(call);
    }
  }

  /**
   * Whether `args` is one text argument that the canonical key would write as
   * it is: not redacted, and not a body (compared by meaning). Its name and
   * text are left in soleName and soleValue, so that finding a call allocates
   * nothing.
   */
  private soleText(args: Readonly<Record<string, unknown>>): boolean {
    let name: string | undefined;
    for (const k in args) {
      if (name !== undefined) return false;
      name = k;
    }
    if (name === undefined || name === "body") return false;
    const value = args[name];
    if (typeof value !== "string" || (this.redacted.size > 0 && this.redacted.has(name.toLowerCase()))) return false;
    // A text that holds the placeholder is keyed with its encodings made one (key.ts).
    if (value.includes("redacted")) return false;
    soleName = name;
    soleValue = value;
    return true;
  }

  /**
   * The queue of the recorded calls the call of `primitive` with `args` (as the program gave them) matches. A call of
   * plain arguments is compared only with the entries whose arguments were not sealed, so that whether the recording
   * holds it (the replay goes on or stops) tells nothing of sealed arguments: an edited program's plain guess at them
   * is never answered. A call whose arguments carry origins (`guarded`) is compared with the entries whose arguments
   * were sealed first, then with the others, and that comparison is a decision on their data, whichever guard's it is
   * (spec/runtime.md, "Decisions on guarded data").
   */
  private queueOf(
    primitive: string,
    args: Readonly<Record<string, unknown>>,
    guarded: boolean,
    fromRedacted?: ReadonlySet<string>,
  ): Queue | undefined {
    if (guarded && this.sealedIndex.has(primitive)) {
      decideOnEveryGuard();
      const sealed = this.queueIn(this.sealedIndex, primitive, args, fromRedacted);
      if (sealed !== undefined && sealed.next < sealed.calls.length) return sealed;
      return this.queueIn(this.index, primitive, args, fromRedacted) ?? sealed;
    }
    return this.queueIn(this.index, primitive, args, fromRedacted);
  }

  private queueIn(
    index: ReadonlyMap<string, PrimitiveIndex>,
    primitive: string,
    args: Readonly<Record<string, unknown>>,
    fromRedacted?: ReadonlySet<string>,
  ): Queue | undefined {
    const at = index.get(primitive);
    if (at === undefined) return undefined;
    const fromName =
      fromRedacted === undefined ? undefined : argumentsFromRedacted(encodeArguments(args), fromRedacted);
    if (fromName !== undefined) return at.byKey.get(argumentsKey(fromName, this.redacted));
    if (this.soleText(args)) return at.byText.get(soleName)?.get(soleValue);
    return at.byKey.get(argumentsKey(encodeArguments(args), this.redacted));
  }

  /**
   * Why the recording may not be replayed under the program's grant, or
   * undefined: every item of its grant header, then the capability of every
   * recorded call, must be covered by the program's grant (and each call's by
   * the header too).
   */
  checkGrant(program: readonly GrantItem[]): RunFacts<"E-RT-REPLAY-GRANT"> | undefined {
    // A durable run's journal has no grant header: it was made by this code, and each call it answers is checked against
    // the program's grant at the gateway first, as a live call is.
    if (this.options.durable === true) return undefined;
    const needs = programText(program);
    for (const item of this.grant) {
      if (!program.some((g) => covers(g, item)))
        return { problem: "header", grant: grantText(item), needs, sequence: 0, capability: "" };
    }
    // Most calls of a recording name one of a few capabilities: each of the first few texts is read and held to the
    // grants once. Past those (a variable's name or a path a call), a Map of them all would cost more than it saves.
    const checked = new Map<string, "call-beyond-header" | "call" | undefined>();
    for (const call of this.calls) {
      let problem = checked.get(call.capability);
      if (problem === undefined && !checked.has(call.capability)) {
        const need = readNeedText(call.capability) as Need; // the reader has checked it
        problem = !this.grant.some((g) => covers(g, need))
          ? "call-beyond-header"
          : !program.some((g) => covers(g, need))
            ? "call"
            : undefined;
        if (checked.size < CAPABILITIES_KEPT) checked.set(call.capability, problem);
      }
      if (problem !== undefined)
        return { problem, grant: "", needs, sequence: call.sequence, capability: call.capability };
    }
    if ((this.options.sealed?.size ?? 0) > 0) {
      for (const item of this.grant) {
        if (item.guard !== undefined && !program.some((g) => keepsGuard(g, item)))
          return { problem: "guard", grant: grantText(item), needs, sequence: 0, capability: "" };
      }
    }
    return undefined;
  }

  /**
   * The gateway's answerer: the recorded outcome of the call, decoded as the primitive's type, or a crash at the first
   * call the recording does not hold.
   */
  readonly answer: Answerer = (primitive, args, perform, guarded, redactedParts) => {
    this.fromRedacted = this.options.originMarks === true ? redactedParts : undefined;
    const within = this.transactionOf(primitive);
    if (within !== undefined) return this.answerStatement(primitive, within, args, perform, guarded);
    if (this.options.durable === true) return this.answerDurable(primitive, args, perform, guarded);
    if (this.live) return LIVE;
    const queue = this.queueOf(primitive.name, args, guarded, this.fromRedacted);
    if (primitive.transaction !== undefined) return this.answerTransaction(primitive, args, queue, guarded);
    const resume = this.options.resume;
    if (resume !== undefined) {
      const held = queue !== undefined && queue.next < queue.calls.length ? queue.calls[queue.next]! : undefined;
      if (
        held === undefined ||
        "failure" in held.outcome ||
        NOT_REPLAYABLE.has(primitive.name) ||
        (resume.from !== undefined && held.sequence >= resume.from)
      ) {
        this.live = true;
        return LIVE;
      }
      queue!.next++;
      resume.onAnswered(held);
      // A redacted variable: the program is given its value, read now, not the placeholder.
      if (primitive.name === "std.environment.get" && (held.outcome as { success: JsonValue }).success === REDACTED)
        return perform();
      return this.answerWith(primitive, held, args, perform);
    }
    if (queue === undefined || queue.next >= queue.calls.length) {
      if (this.options.consoleDiffers === true && CONSOLE.has(primitive.name))
        return this.differentLine(primitive, args, perform);
      throw this.mismatch(primitive.name, encodeArguments(args), queue, guarded);
    }
    return this.answerWith(primitive, queue.calls[queue.next++]!, args, perform);
  };

  /**
   * Every call is answered from the recording (not a resumed run nor a durable one, which go live): the run looks no
   * host name up (spec/runtime.md, section 9).
   */
  get offline(): boolean {
    return this.options.resume === undefined && this.options.durable === undefined;
  }

  // ---- A durable run (spec/durable.md, "The run side") ----

  /**
   * A call of a durable run: the next entry of its key's queue, whatever any call before it was, or live when the queue
   * is spent. Every call the journal holds was made by this same invocation with this same code, so no call it holds
   * is made again, whatever order concurrent tasks reach the gateway in.
   */
  private answerDurable(
    primitive: Primitive,
    args: Readonly<Record<string, unknown>>,
    perform: () => unknown,
    guarded: boolean,
  ): unknown {
    const queue = this.queueOf(primitive.name, args, guarded, this.fromRedacted);
    if (primitive.transaction !== undefined) return this.answerTransaction(primitive, args, queue, guarded);
    if (queue === undefined || queue.next >= queue.calls.length || NOT_REPLAYABLE.has(primitive.name)) return LIVE;
    const held = queue.calls[queue.next++]!;
    // A redacted variable: the program is given its value, read now, not the placeholder.
    if (primitive.name === "std.environment.get" && "success" in held.outcome && held.outcome.success === REDACTED)
      return perform();
    return this.answerWith(primitive, held, args, perform);
  }

  /** The entry the last call was answered with: a narrated replay shows its recorded duration. */
  lastAnswered: RecordedCall | undefined;

  /** The console.print and console.error calls answered from the recording and not performed (a replay without --console). */
  unshownConsole = 0;

  private answerWith(
    primitive: Primitive,
    entry: RecordedCall,
    args: Readonly<Record<string, unknown>>,
    perform: () => unknown,
  ): unknown {
    this.lastAnswered = entry;
    if (NOT_REPLAYABLE.has(primitive.name)) {
      throw new Crash("E-RT-REPLAY-MISMATCH", {
        problem: "not-replayable",
        call: primitive.name.replace(/^std\./, ""),
      });
    }
    if ("failure" in entry.outcome) throw new Failure(this.decodeFailure(primitive, entry));
    const value = this.decodeSuccess(primitive, entry, args);
    if (primitive.name === "std.console.print") this.options.onStdout?.(`${String(args["text"])}\n`);
    if (CONSOLE.has(primitive.name)) {
      if (this.options.writeConsole === true) perform();
      else this.unshownConsole++;
    }
    return value;
  }

  // ---- Transactions (spec/recording.md, "Transactions") ----

  /** The recorded transaction being replayed on each database (by its path), by its number in the recording. */
  private readonly transactions = new Map<string, number>();
  /** How many statements each recorded transaction holds, and how many of them the replay has answered. */
  private readonly statements = new Map<number, { held: number; answered: number }>();
  /** The numbered transaction entries of each database (by capability), in the order they were begun. */
  private readonly numbered = new Map<string, Queue>();
  /** Whether `numbered` has been sorted by number (once, at the first transaction: entries come in completion order). */
  private numberedInOrder = false;

  /** A numbered transaction's entry: kept apart, found by its database and the order the transactions began. */
  private heldAsTransaction(call: RecordedCall): boolean {
    if (call.primitive !== TRANSACTION || call.transaction === undefined) return false;
    const queue = this.numbered.get(call.capability);
    if (queue === undefined) this.numbered.set(call.capability, { calls: [call], next: 0 });
    else queue.calls.push(call);
    return true;
  }

  /** The name an entry is indexed under: a statement made inside a transaction is found only inside its replay. */
  private indexedAs(call: RecordedCall): string {
    if (call.transaction === undefined) return call.primitive;
    const counted = this.statements.get(call.transaction) ?? { held: 0, answered: 0 };
    counted.held++;
    this.statements.set(call.transaction, counted);
    return inTransaction(call.primitive, call.transaction);
  }

  /** The recorded transaction a statement is made in: one being replayed on its database. */
  private transactionOf(primitive: Primitive): number | undefined {
    if (this.transactions.size === 0 || primitive.transaction !== undefined) return undefined;
    if (primitive.name !== "std.database.execute" && primitive.name !== "std.database.query") return undefined;
    return this.transactions.get(String(primitive.need.scope));
  }

  /**
   * A statement inside a replayed transaction: answered from the transaction's own entries, failures included, in a
   * resumed run too (a transaction the recording holds is answered whole, never part live); one it does not hold stops
   * the run.
   */
  private answerStatement(
    primitive: Primitive,
    transaction: number,
    args: Readonly<Record<string, unknown>>,
    perform: () => unknown,
    guarded: boolean,
  ): unknown {
    const name = inTransaction(primitive.name, transaction);
    const queue = this.queueOf(name, args, guarded);
    if (queue === undefined || queue.next >= queue.calls.length)
      throw this.mismatch(primitive.name, encodeArguments(args), queue, guarded);
    const entry = queue.calls[queue.next++]!;
    this.statements.get(transaction)!.answered++;
    this.options.resume?.onAnswered(entry);
    return this.answerWith(primitive, entry, args, perform);
  }

  /**
   * A call of `database.transaction`: it takes the next numbered transaction of its database, in the order they were
   * begun. One whose BEGIN failed fails as recorded; any other is replayed by running the program's work, with no BEGIN
   * or COMMIT, its statements answered from the recording, and how it ended is compared with how the recorded one did.
   * A resumed run holds a transaction that committed, and goes live at any other. A recording without numbers holds
   * transactions this replay cannot run again.
   */
  private answerTransaction(
    primitive: Primitive,
    args: Readonly<Record<string, unknown>>,
    unnumbered: Queue | undefined,
    guarded: boolean,
  ): unknown {
    if (!this.numberedInOrder) {
      for (const queue of this.numbered.values()) queue.calls.sort((a, b) => a.transaction! - b.transaction!);
      this.numberedInOrder = true;
    }
    const numbered = this.numbered.get(needText(primitive.need));
    const queue = numbered !== undefined && numbered.next < numbered.calls.length ? numbered : unnumbered;
    const entry = queue !== undefined && queue.next < queue.calls.length ? queue.calls[queue.next]! : undefined;
    // A durable run: a transaction the journal holds is answered from it, as any call is; another is made live.
    if (this.options.durable === true) {
      if (entry?.transaction === undefined) return LIVE;
      primitive.transaction!.answeredAs(entry.transaction);
    }
    const resume = this.options.resume;
    if (resume !== undefined) {
      // A transaction begun inside the work of one the recording holds is answered from the recording too, whatever
      // it ended as: going live there would begin it on a database the held transaction never opened.
      const insideHeld = this.transactions.size > 0;
      if (!insideHeld && (entry?.transaction === undefined || !committed(entry))) {
        this.live = true;
        return LIVE;
      }
      if (entry?.transaction !== undefined) primitive.transaction!.answeredAs(entry.transaction);
    }
    if (entry === undefined) throw this.mismatch(primitive.name, encodeArguments(args), queue, guarded);
    queue!.next++;
    this.lastAnswered = entry;
    if (entry.transaction === undefined) {
      if ("failure" in entry.outcome) throw new Failure(this.decodeFailure(primitive, entry));
      throw new Crash("E-RT-REPLAY-MISMATCH", { problem: "not-replayable", call: "database.transaction" });
    }
    if ("failure" in entry.outcome && entry.outcome.at === "BEGIN") {
      this.options.resume?.onAnswered(entry);
      throw new Failure(this.decodeFailure(primitive, entry));
    }
    return this.replayTransaction(primitive, entry, entry.transaction);
  }

  private async replayTransaction(primitive: Primitive, entry: RecordedCall, number: number): Promise<unknown> {
    const path = String(primitive.need.scope);
    const outer = this.transactions.get(path);
    this.transactions.set(path, number);
    let result: unknown;
    let failed: { thrown: unknown } | undefined;
    try {
      result = await primitive.transaction!.replayWork();
    } catch (e) {
      failed = { thrown: e };
    } finally {
      if (outer === undefined) this.transactions.delete(path);
      else this.transactions.set(path, outer);
    }
    // A crash or a cancellation in the work (a statement the recording does not hold among them) ends the run as is.
    if (failed !== undefined && !(failed.thrown instanceof Failure)) throw failed.thrown;
    const recorded = committed(entry) ? "committed" : ROLLED_BACK;
    const here = failed === undefined ? "committed" : ROLLED_BACK;
    const commitFailed = "failure" in entry.outcome && entry.outcome.at === "COMMIT";
    const counted = this.statements.get(number) ?? { held: 0, answered: 0 };
    const differences: string[] = [];
    if (commitFailed ? failed !== undefined : here !== recorded)
      differences.push(
        `outcome: ${here} here, ${commitFailed ? "COMMIT failed after the work returned" : recorded} in the recording`,
      );
    if (counted.answered < counted.held)
      differences.push(`statements: ${counted.answered} made here, ${counted.held} in the recording`);
    if (differences.length > 0)
      throw new Crash("E-RT-REPLAY-MISMATCH", {
        problem: "not-held",
        call: callText(primitive.name, {}),
        nearest: `(sequence ${entry.sequence}): ${callText(entry.primitive, entry.arguments)}`,
        differences,
      });
    this.options.resume?.onAnswered(entry);
    if (failed !== undefined) throw failed.thrown;
    if (commitFailed) throw new Failure(this.decodeFailure(primitive, entry));
    return result;
  }

  // Console lines that differ (spec/recording.md, "When a call differs"). The program reads nothing back from a line it
  // writes, so a line the recording does not hold changes nothing the replay answers after it: the replay goes on.

  /** The first console lines that differed, at most MAX_CONSOLE_DIFFERENCES of them. */
  readonly consoleDifferences: ConsoleDifference[] = [];
  /** How many console lines differed in all. */
  consoleDiffered = 0;
  /** Where each entry stands in its queue, made at the first line that differs. */
  private places: Map<RecordedCall, { readonly queue: Queue; readonly at: number }> | undefined;
  /** The index in `calls` before which every entry has been answered. */
  private firstOpen = 0;

  /** A console line the recording does not hold (or holds fewer times): written, taking the next entry when it is a line. */
  private differentLine(
    primitive: Primitive,
    args: Readonly<Record<string, unknown>>,
    perform: () => unknown,
  ): unknown {
    const now = String(args["text"]);
    const taken = this.takeNextLine(primitive.name);
    if (taken !== undefined) this.lastAnswered = taken;
    this.consoleDiffered++;
    if (this.consoleDifferences.length < MAX_CONSOLE_DIFFERENCES) {
      const sealed = taken !== undefined && this.options.sealed?.has(taken.sequence) === true;
      const text = taken?.arguments["text"];
      this.consoleDifferences.push({
        primitive: primitive.name,
        now,
        ...(taken !== undefined
          ? { recorded: { sequence: taken.sequence, ...(!sealed && typeof text === "string" ? { text } : {}) } }
          : {}),
      });
    }
    if (primitive.name === "std.console.print") this.options.onStdout?.(`${now}\n`);
    if (this.options.writeConsole === true) perform();
    else this.unshownConsole++;
    return decodeValue(null, primitive.result ?? RESULT_SHAPES[primitive.name] ?? NOTHING);
  }

  /**
   * The recorded entry that comes next (the first, in recorded order, not yet answered), taken as answered when it is a
   * line of the same primitive: so that a line written otherwise leaves no entry unreached, and a line added takes none.
   */
  private takeNextLine(primitive: string): RecordedCall | undefined {
    if (this.places === undefined) {
      const places = new Map<RecordedCall, { readonly queue: Queue; readonly at: number }>();
      const place = (queue: Queue) => {
        for (let at = 0; at < queue.calls.length; at++) places.set(queue.calls[at]!, { queue, at });
      };
      for (const index of [this.index, this.sealedIndex])
        for (const at of index.values()) {
          for (const queues of at.byText.values()) queues.forEach(place);
          at.byKey.forEach(place);
        }
      this.places = places;
    }
    while (this.firstOpen < this.calls.length) {
      const place = this.places.get(this.calls[this.firstOpen]!)!;
      if (place.queue.next <= place.at) break;
      this.firstOpen++;
    }
    const next = this.calls[this.firstOpen];
    if (next === undefined || next.primitive !== primitive) return undefined;
    const place = this.places.get(next)!;
    if (place.queue.next !== place.at) return undefined;
    place.queue.next++;
    this.firstOpen++;
    return next;
  }

  /** The recorded calls no call of the replay was answered with, in recorded order. */
  unreached(): RecordedCall[] {
    const left: RecordedCall[] = [];
    const take = (queue: Queue) => {
      for (let i = queue.next; i < queue.calls.length; i++) left.push(queue.calls[i]!);
    };
    for (const index of [this.index, this.sealedIndex]) {
      for (const at of index.values()) {
        for (const queues of at.byText.values()) queues.forEach(take);
        at.byKey.forEach(take);
      }
    }
    this.numbered.forEach(take);
    return left.sort((a, b) => a.sequence - b.sequence);
  }

  /**
   * The crash at a call the recording does not hold. A sealed entry's values
   * are shown nowhere in it, nor used to choose the nearest call. (A call whose
   * own arguments carry origins needs nothing here: its crash's message is
   * checked against the console as any crash made from guarded data is.)
   */
  private mismatch(
    primitive: string,
    args: { [name: string]: JsonValue },
    queue: Queue | undefined,
    guarded: boolean,
  ): Crash {
    const call = callText(primitive, args);
    if (queue !== undefined)
      return new Crash("E-RT-REPLAY-MISMATCH", { problem: "answered", call, times: queue.calls.length });
    const sealed = this.options.sealed;
    const unreached = this.unreached();
    const near = nearest(
      primitive,
      args,
      sealed === undefined ? unreached : unreached.map((c) => (sealed.has(c.sequence) ? { ...c, arguments: {} } : c)),
    );
    if (near === undefined) return new Crash("E-RT-REPLAY-MISMATCH", { problem: "not-held", call, differences: [] });
    const diff: string[] = [];
    if (near.primitive !== primitive) diff.push(`primitive: ${primitive} here, ${near.primitive} in the recording`);
    const hidden = sealed?.has(near.sequence) === true;
    if (!hidden) differences(args, near.arguments, "arguments", diff);
    if (!hidden && this.marked(near)) this.originDifferences(args, near, diff);
    else {
      diff.push("arguments: not shown, the recorded call's are sealed");
      if (!guarded && this.argumentsSealed(near.sequence))
        diff.push("guards: this call's arguments carry no guarded data, and are compared with no sealed arguments");
    }
    return new Crash("E-RT-REPLAY-MISMATCH", {
      problem: "not-held",
      call,
      nearest:
        `(sequence ${near.sequence}): ` +
        `${hidden ? `${near.primitive} (sealed)` : callText(near.primitive, near.arguments)}`,
      differences: diff,
    });
  }

  // ---- places that came from a redacted name (spec/recording.md, "Redaction") ----

  /** The texts of the call being answered that came from a redacted name (a replay that reads the marks). */
  private fromRedacted: ReadonlySet<string> | undefined;

  /** Each place the entry marks as from a redacted name where the call's value does not come from one, or the reverse. */
  private originDifferences(args: { [name: string]: JsonValue }, near: RecordedCall, out: string[]): void {
    const forms = redactedForms(this.fromRedacted ?? []);
    const marked = markedArguments(near.arguments, near.redacted_at!);
    const walk = (made: JsonValue | undefined, recorded: JsonValue | undefined, at: string): void => {
      const markedHere = typeof recorded === "object" && recorded !== null && FROM_REDACTED in recorded;
      if (typeof made === "string" || typeof made === "number") {
        const fromName = isRedactedForm(made, forms);
        if (markedHere && !fromName)
          out.push(`${at}: the recording's came from a redacted name (--redact), and this call's does not`);
        else if (!markedHere && fromName && recorded !== undefined)
          out.push(`${at}: this call's comes from a redacted name (--redact), and the recording's did not`);
      } else if (typeof made === "object" && made !== null && typeof recorded === "object" && recorded !== null)
        for (const k of Object.keys(made))
          walk((made as Record<string, JsonValue>)[k], (recorded as Record<string, JsonValue>)[k], `${at}.${k}`);
    };
    walk(args, marked, "arguments");
  }

  /** Whether the entry marks places of its arguments as from a redacted name, and the replay reads the marks. */
  private marked(call: RecordedCall): boolean {
    return this.options.originMarks === true && call.redacted_at !== undefined && call.redacted_at.length > 0;
  }

  /** An entry's arguments as its key is made of: its marked places keyed as from a redacted name (key.ts). */
  private keyedArguments(call: RecordedCall): { [name: string]: JsonValue } {
    return this.marked(call) ? markedArguments(call.arguments, call.redacted_at!) : call.arguments;
  }

  /** Whether the entry's arguments were sealed (they carried guarded data), not only its outcome. */
  private argumentsSealed(sequence: number): boolean {
    return this.options.sealed?.has(sequence) === true && this.options.sealedForResult?.has(sequence) !== true;
  }

  private decodeSuccess(primitive: Primitive, entry: RecordedCall, args: Readonly<Record<string, unknown>>): unknown {
    let json = (entry.outcome as { success: JsonValue }).success;
    if (FROM_ITEMS.has(primitive.name)) return this.fromItems(primitive, entry, json, args);
    if (isHttpPrimitive(primitive.name)) json = this.httpHop(entry, json);
    const shape = primitive.result ?? RESULT_SHAPES[primitive.name] ?? DYNAMIC;
    return this.decode(entry, json, shape);
  }

  private decodeFailure(primitive: Primitive, entry: RecordedCall): unknown {
    const errorType = capabilityInfo(primitive.need.path)?.errorType;
    const desc = errorType === undefined ? undefined : PRELUDE_VARIANTS[errorType];
    if (desc === undefined)
      throw this.shapeCrash(
        entry,
        `${primitive.name.replace(/^std\./, "")} cannot fail, but the recording has it fail`,
      );
    return this.decode(entry, (entry.outcome as { failure: JsonValue }).failure, variant(desc));
  }

  private decode(entry: RecordedCall, json: JsonValue, shape: Shape): unknown {
    try {
      return decodeValue(json, shape);
    } catch (e) {
      if (e instanceof Failure && descOf(e.value)?.variant === JsonError.desc.name) {
        const { path, expected, found } = e.value as { path: string; expected: string; found: string };
        throw this.shapeCrash(
          entry,
          `its outcome does not fit ${shapeText(shape)}: at ${path} it should be ${expected}, but is ${found}`,
        );
      }
      throw e;
    }
  }

  /** A recorded response (status, headers, body or bytes) as the hop the gateway gives back. */
  private httpHop(entry: RecordedCall, json: JsonValue): JsonValue {
    if (typeof json !== "object" || json === null || Array.isArray(json)) return json;
    const { body, bytes, ...rest } = json;
    if (body === undefined) return json;
    if (typeof body !== "string") throw this.shapeCrash(entry, "its response's `body` is not a text");
    const fromBody = Buffer.from(body, "utf8").toString("base64");
    if (bytes !== undefined && bytes !== fromBody)
      throw this.shapeCrash(entry, "its response has a `body` and `bytes` that differ; give one of them");
    return { ...rest, bytes: fromBody };
  }

  /** random.choice and random.shuffle answer with items of their argument: found by their JSON form. */
  private fromItems(
    primitive: Primitive,
    entry: RecordedCall,
    json: JsonValue,
    args: Readonly<Record<string, unknown>>,
  ): unknown {
    const items = (args["items"] ?? []) as unknown[];
    // Where the recording says which items it answered (their forms alone did not tell them apart), those.
    const places = (entry.outcome as { items?: number[] }).items;
    if (places !== undefined) {
      const at = (p: number): unknown => {
        if (!(p >= 0 && p < items.length))
          throw this.shapeCrash(entry, `it answers item ${p}, but the call was given ${items.length} items`);
        return items[p];
      };
      if (primitive.name === "std.random.choice") return new Some(at(places[0]!));
      return places.map(at);
    }
    const encoded = (encodeArguments({ items }).items ?? []) as JsonValue[];
    const byText = new Map<string, unknown[]>();
    encoded.forEach((e, i) => {
      const t = JSON.stringify(e);
      byText.set(t, [...(byText.get(t) ?? []), items[i]]);
    });
    const take = (e: JsonValue): unknown => {
      const found = byText.get(JSON.stringify(e));
      if (found === undefined || found.length === 0)
        throw this.shapeCrash(
          entry,
          `it answers with ${JSON.stringify(e)}, which is not one of the items the call was given`,
        );
      return found.shift();
    };
    if (primitive.name === "std.random.choice") return json === null ? NONE : new Some(take(json));
    if (!Array.isArray(json) || json.length !== items.length)
      throw this.shapeCrash(entry, `its outcome is not the ${items.length} items shuffled`);
    return json.map(take);
  }

  private shapeCrash(entry: RecordedCall, why: string): Crash {
    return new Crash("E-RT-REPLAY-SHAPE", { sequence: entry.sequence, primitive: entry.primitive, why });
  }
}

const TRANSACTION = "std.database.transaction";
const ROLLED_BACK = "rolled back";

/** The name a statement of recorded transaction `number` is indexed under. */
function inTransaction(primitive: string, number: number): string {
  return `${primitive} in transaction ${number}`;
}

function committed(entry: RecordedCall): boolean {
  return "success" in entry.outcome && entry.outcome.success === "committed";
}

/**
 * Whether the program's item `g` keeps the guard of the recording's `item`:
 * it carries a guard, covers every call the item covers (so their answers
 * carry its origin), and allows no sink the item's guard does not.
 */
function keepsGuard(g: GrantItem, item: GrantItem): boolean {
  if (g.guard === undefined || item.guard === undefined || !covers(g, item)) return false;
  return g.guard.sinks.every((sink) => item.guard!.sinks.some((allowed) => covers(allowed, sink)));
}

function programText(program: readonly GrantItem[]): string {
  return program.length === 0 ? "it needs nothing" : `it needs ${program.map(grantText).join(", ")}`;
}
