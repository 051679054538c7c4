// One row of the catalogue of problems: everything Renyi says about one code.
// A diagnostic or a runtime error carries only its code and its facts; the
// words people read are made from the facts by the row's `render`, here and
// nowhere else, so the same code always reads the same way. The title, the
// long explanation and the two examples are what `renyi explain CODE` prints
// and what spec/diagnostics.md is generated from.

/** The words of one instance of a problem, made from its facts. */
export interface Rendered {
  /** One sentence: what was found. */
  readonly message: string;
  /** What the caret under the span says (what was expected there). */
  readonly label?: string;
  /** The label of each related place the instance points at, in the order given. */
  readonly related?: readonly string[];
  /** Further facts, one sentence each. */
  readonly notes?: readonly string[];
  /** What to write instead, often with an example. */
  readonly hint?: string;
}

/** Every key any member of a union of fact shapes has, so that each is documented. */
type AllKeys<T> = T extends unknown ? keyof T : never;

export interface ProblemEntry<F> {
  /** A short line: the kind of problem (`A call gives a wrong argument`). */
  readonly title: string;
  /** What each fact an instance carries is, one line each. */
  readonly facts: { readonly [K in AllKeys<F>]-?: string };
  readonly render: (facts: F) => Rendered;
  /** Why this is a problem and how to think about it: paragraphs of Markdown. */
  readonly explanation: string;
  /** A short program (or command) that has the problem. */
  readonly wrong: string;
  /** The same program, put right. */
  readonly right: string;
  /**
   * Set when the problem cannot be shown by a program (a file that is not
   * UTF-8, one that cannot be read): the examples then describe the situation
   * and are not checked or run by the tests.
   */
  readonly described?: true;
  /**
   * Run-time rows: how a run that meets the problem ends. A `crash` is the
   * program's doing, a `limit` one of the run's limits reached, `internal` a
   * fault of Renyi's own; `failed` and `refused` are outcomes of their own.
   */
  readonly kind?: "failed" | "crash" | "limit" | "refused" | "internal";
}

/** Declares a row with its fact shape `F` (the identity, typed). */
export function problem<F = Record<never, never>>(entry: ProblemEntry<F>): ProblemEntry<F> {
  return entry;
}

/** The fact shape of a row. */
export type FactsOf<E> = E extends ProblemEntry<infer F> ? F : never;

/** `a` or `an` before a word, for rendered sentences. */
export function article(word: string): string {
  return /^[aeiouAEIOU]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** `1 argument`, `2 arguments`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
