// The names in scope while a JavaScript tree is walked, innermost last: what the
// compiler's free-name check (free-names.ts) and the bundle validator
// (cli/validate.ts) both resolve names by, each on its own kind of tree.

export class Scopes {
  private readonly chain: Set<string>[];

  /** `outermost`: what surrounds the whole tree (the runtime's imports). */
  constructor(outermost: ReadonlySet<string>) {
    this.chain = [new Set(outermost)];
  }

  /** Walks with `names` declared in a scope of their own. */
  within(names: Set<string>, walk: () => void): void {
    this.enter(names);
    try {
      walk();
    } finally {
      this.leave();
    }
  }

  /** Opens a scope of `names`, to be closed by `leave` (what `within` does, without a function to call). */
  enter(names: Set<string>): void {
    this.chain.push(names);
  }

  leave(): void {
    this.chain.pop();
  }

  /** Whether some scope declares `name`. */
  declares(name: string): boolean {
    for (let i = this.chain.length - 1; i >= 0; i--) if (this.chain[i]!.has(name)) return true;
    return false;
  }

  /** Whether `name` here is the outermost scope's, not hidden by a declaration inside it. */
  isOutermost(name: string): boolean {
    for (let i = this.chain.length - 1; i > 0; i--) if (this.chain[i]!.has(name)) return false;
    return this.chain[0]!.has(name);
  }
}
