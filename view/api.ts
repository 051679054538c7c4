// What the page of `renyi view` and its server say to each other (JSON over GET, under the
// run's token), and what the page and its playground's worker say (postMessage). The server
// (cli/view) and the page (view/) both import these types; nothing here runs.
//
// Every text in these shapes is shown as text: the page puts it in the DOM with textContent,
// never as markup, so a recording or a program that holds `<script>` shows `<script>`.

/** `GET api/items`: what was found under the paths `renyi view` was given. */
export interface ItemList {
  /** The folders and files served, as given on the command line, resolved. */
  readonly roots: readonly string[];
  readonly items: readonly Item[];
  /** Files found but not listed (too large, unreadable), with why. */
  readonly skipped: readonly { readonly id: string; readonly message: string }[];
  /** True when the walk stopped at its bound (files or depth) before seeing everything. */
  readonly truncated: boolean;
}

export interface Item {
  readonly kind: "program" | "recording";
  /** `<root index>/<path under that root>` with `/` between parts: what the other requests name it by. */
  readonly id: string;
  readonly bytes: number;
  /** For a recording, from its manifest when it could be read: the program it ran and its outcome. */
  readonly program?: string;
  readonly outcome?: string;
}

/** A refusal or a failure, as every api/ request answers one (with a 4xx status). */
export interface Refusal {
  readonly code: string;
  readonly message: string;
}

/** A place in a module: lines and columns from 1, as the diagnostics print them. */
export interface Span {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** `GET api/program?id=ID`: a program, checked, as the review shows it. */
export interface ProgramView {
  readonly id: string;
  readonly modules: readonly ModuleView[];
  readonly diagnostics: readonly DiagnosticView[];
  /** main's grant and each test's, in words. */
  readonly grants: readonly GrantView[];
  /** Each public definition (and main), with its purpose and needs. */
  readonly definitions: readonly DefinitionView[];
  /** Which function reaches which capability, directly or through the functions it calls. */
  readonly reach: readonly ReachView[];
}

export interface ModuleView {
  readonly name: string;
  readonly file: string;
  readonly text: string;
  /** Highlighting: spans of the text by kind, in order, not overlapping. */
  readonly tokens: readonly TokenView[];
}

export interface TokenView {
  readonly line: number;
  readonly column: number;
  readonly length: number;
  /** keyword, type, function, variable, parameter, property, capability, string, number, comment, operator... */
  readonly kind: string;
}

export interface DiagnosticView extends Span {
  readonly module: string;
  readonly code: string;
  readonly severity: "error" | "warning" | "note";
  readonly message: string;
  readonly notes: readonly string[];
  readonly edits: readonly EditView[];
}

export interface EditView {
  readonly title: string;
  /** The changes of one suggested edit, each a span of the module replaced by text. */
  readonly changes: readonly (Span & { readonly module: string; readonly text: string })[];
}

export interface GrantView {
  /** `main`, or the test's name. */
  readonly name: string;
  readonly kind: "main" | "test";
  readonly module: string;
  readonly line: number;
  /** The grant as written (`needs ...`). */
  readonly text: string;
  /** The grant in words, a line each: what it may reach, its budgets, its guards. */
  readonly words: readonly string[];
}

export interface DefinitionView {
  readonly module: string;
  readonly name: string;
  readonly kind: string;
  readonly public: boolean;
  readonly line: number;
  readonly purpose?: string;
  readonly needs: readonly string[];
}

export interface ReachView {
  readonly module: string;
  readonly function: string;
  readonly line: number;
  /** Functions of the program it calls, as `module.name`. */
  readonly calls: readonly string[];
  /** Capabilities it uses itself (`network.http`, `filesystem.read`...). */
  readonly uses: readonly string[];
  /** Capabilities it reaches, itself or through what it calls. */
  readonly reaches: readonly string[];
}

/** `GET api/recording?id=ID`: a recording, as the review shows it. */
export interface RecordingView {
  readonly id: string;
  readonly manifest: ManifestView;
  /** Every call, in the recording's order, without its arguments and answer (`api/call` gives those). */
  readonly calls: readonly CallSummary[];
  readonly budgets: readonly BudgetView[];
  readonly leastGrant: LeastGrantView;
}

export interface ManifestView {
  readonly program?: string;
  readonly codeHash?: string;
  readonly outcome: string;
  readonly outputHash?: string;
  /** The grant the run had, as written, and in words. */
  readonly grant: string;
  readonly grantWords: readonly string[];
  /** Every other field of the manifest, as name and text. */
  readonly fields: readonly (readonly [string, string])[];
}

export interface CallSummary {
  readonly index: number;
  /** `std.http.get`... */
  readonly primitive: string;
  /** The capability with its scope, or the target it reached (`network.http("api.example.com")`). */
  readonly target: string;
  /** The lane it is drawn in: its task when the recording says, else its target. */
  readonly lane: string;
  readonly atMs: number;
  readonly durationMs: number;
  readonly failed: boolean;
  /** What failed, when it failed: the error's kind. */
  readonly failure?: string;
}

/** `GET api/call?id=ID&index=N`: one call, its arguments and its outcome as JSON text. */
export interface CallDetail {
  readonly index: number;
  readonly primitive: string;
  /** Pretty JSON text, cut at a bound with the bytes left said; `<redacted>` stays as it is. */
  readonly arguments: string;
  readonly outcome: string;
  readonly cut: boolean;
}

export interface BudgetView {
  /** The capability the budget is on, as written. */
  readonly capability: string;
  readonly limit: number;
  readonly windowMs: number;
  /** The `at_ms` of each call it counted. */
  readonly counted: readonly number[];
}

export interface LeastGrantView {
  readonly declared: string;
  readonly least: string;
  /** Parts of the declared grant that no call used, in words. */
  readonly wider: readonly string[];
}

/** `GET api/compare?a=ID&b=ID`: two recordings, the calls that differ and their outcomes. */
export interface CompareView {
  readonly a: { readonly id: string; readonly outcome: string; readonly calls: number };
  readonly b: { readonly id: string; readonly outcome: string; readonly calls: number };
  readonly same: boolean;
  readonly differences: readonly CallDifference[];
}

export interface CallDifference {
  readonly index: number;
  readonly primitive: string;
  /** The field that differs (`arguments.url`, `outcome`...), as the replayer names it. */
  readonly field: string;
  readonly a: string;
  readonly b: string;
}

// `GET api/text?id=ID` answers a program's or a recording's text as it is on disk (text/plain), for
// the playground: a program to start from, a recording to replay.

// ---- the playground's worker ----

export interface PlaygroundLimits {
  readonly fuel: number;
  readonly depth: number;
  readonly outputBytes: number;
  readonly timeMs: number;
}

export type ToWorker = {
  readonly kind: "run";
  readonly file: string;
  readonly source: string;
  /** The recording's text the capabilities other than console, time and random are answered from. */
  readonly recording?: string;
  readonly limits: PlaygroundLimits;
  /**
   * Narrate the run, as `renyi run --explain` does: its lines come as `narration` messages. With a recording, time and
   * random are answered from it too, so that a narrated replay reads the same every time.
   */
  readonly narrate?: boolean;
};

export type FromWorker =
  | { readonly kind: "output"; readonly text: string }
  /** Lines of the narration (a narrated run), each ending in a newline, indented two spaces a call depth. */
  | { readonly kind: "narration"; readonly text: string }
  | {
      readonly kind: "ended";
      readonly outcome: "finished" | "crashed" | "refused";
      readonly exit: number;
      readonly code?: string;
      readonly message?: string;
      readonly line?: number;
      readonly column?: number;
    };
