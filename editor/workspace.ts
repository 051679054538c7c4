// The language server's modules, kept between edits. Pure: the open
// documents' texts are given (open, change, close), and the files they use
// that are not open are read through the reader the caller gives.
//
// It answers with the same views as analyse (analysis.ts) would for the same
// texts, keeping what an edit did not change:
//   - a file is parsed again only when its text changed;
//   - an entry is checked again only when its own text changed, or the
//     interface (interfaceOf) of a module its program reaches, or the text of
//     one whose body its checking reads (bodiesChecked), or which modules its
//     `use` lines find.

import {
  bodiesChecked,
  interfaceOf,
  parseFile,
  programOf,
  viewOf,
  type ModuleView,
  type ParsedFile,
  type ProgramModule,
  type Snapshot,
} from "./analysis.js";

/** The text of a file that is not open, or undefined when there is none (or it cannot be read). */
export type ReadFile = (file: string) => string | undefined;

/** A file's parsed text, with a number that changes exactly when what its users see of it changes. */
interface Kept {
  readonly parsed: ParsedFile;
  /** Unique to this text. */
  readonly version: number;
  /** The same for two texts with the same interface. */
  readonly interfaceVersion: number;
}

/** What the workspace did, counted since it was made: for tests and the benchmark. */
export interface WorkspaceCounts {
  parses: number;
  checks: number;
}

export class Workspace {
  private readonly open = new Map<string, string>();
  private readonly kept = new Map<string, Kept>();
  private readonly views = new Map<string, { key: string; view: ModuleView }>();
  private next = 1;
  readonly counts: WorkspaceCounts = { parses: 0, checks: 0 };

  constructor(private readonly read: ReadFile) {}

  /** Opens a document, or gives an open one its new text. */
  set(file: string, text: string): void {
    this.open.set(file, text);
  }

  close(file: string): void {
    this.open.delete(file);
    this.views.delete(file);
  }

  isOpen(file: string): boolean {
    return this.open.has(file);
  }

  /** The text of a file as the workspace last took it: open, or read for an open document. */
  textOf(file: string): string | undefined {
    return this.open.get(file) ?? this.kept.get(file)?.parsed.text;
  }

  openFiles(): string[] {
    return [...this.open.keys()];
  }

  /** The view of every open document. Files read for them are read again, so that a change on disk is seen. */
  snapshot(): Snapshot {
    const modules = new Map<string, ModuleView>();
    const fresh = new Map<string, Kept | undefined>();
    for (const file of this.open.keys()) modules.set(file, this.viewIn(file, fresh));
    this.forget(fresh);
    return { modules };
  }

  /** The view of one file, open or not (a module reached through `use`, for a definition there). */
  view(file: string): ModuleView | undefined {
    const fresh = new Map<string, Kept | undefined>();
    if (this.keptIn(file, fresh) === undefined) return undefined;
    return this.viewIn(file, fresh);
  }

  private viewIn(file: string, fresh: Map<string, Kept | undefined>): ModuleView {
    const program = programOf(file, (f) => this.keptIn(f, fresh)?.parsed);
    const key = this.keyOf(program, fresh);
    const known = this.views.get(file);
    if (known !== undefined && known.key === key) return known.view;
    this.counts.checks++;
    const view = viewOf(program);
    this.views.set(file, { key, view });
    return view;
  }

  /** Each file's text is taken once per snapshot: the open document's, or the reader's. */
  private keptIn(file: string, fresh: Map<string, Kept | undefined>): Kept | undefined {
    if (fresh.has(file)) return fresh.get(file);
    const text = this.open.get(file) ?? this.read(file);
    const kept = text === undefined ? undefined : this.keep(file, text);
    fresh.set(file, kept);
    return kept;
  }

  private keep(file: string, text: string): Kept {
    const old = this.kept.get(file);
    if (old !== undefined && old.parsed.text === text) return old;
    this.counts.parses++;
    const parsed = parseFile(file, text);
    const version = this.next++;
    const interfaceVersion =
      old !== undefined && interfaceOf(old.parsed) === interfaceOf(parsed) ? old.interfaceVersion : version;
    const kept = { parsed, version, interfaceVersion };
    this.kept.set(file, kept);
    return kept;
  }

  /** What decides an entry's view (analysis.ts, viewOf): the same key, the same view. */
  private keyOf(program: readonly ProgramModule[], fresh: Map<string, Kept | undefined>): string {
    const bodies = bodiesChecked(program);
    return program
      .map((m) => {
        const kept = fresh.get(m.parsed.file)!;
        return `${m.name}\u0000${m.parsed.file}\u0000${bodies.has(m.name) ? `t${kept.version}` : `i${kept.interfaceVersion}`}`;
      })
      .join("\u0001");
  }

  /** Drops the parses of files no open document reached in this snapshot. */
  private forget(fresh: ReadonlyMap<string, Kept | undefined>): void {
    for (const file of this.kept.keys()) if (!fresh.has(file)) this.kept.delete(file);
    for (const file of this.views.keys()) if (!this.open.has(file)) this.views.delete(file);
  }
}
