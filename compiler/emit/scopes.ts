// The names in scope while a JavaScript tree is walked, innermost last: what the
// compiler's free-name check (free-names.ts) and the bundle validator
// (cli/bundles/validate.ts) both resolve names by, each on its own kind of tree.

export class Scopes {
  private readonly outermost: ReadonlySet<string>;
  private readonly chain: Set<string>[] = [];
  /**
   * How many open scopes inside the outermost declare each name: a name is
   * looked up once, not in every scope from the innermost out (most names a
   * walk meets are the runtime's, declared only in the outermost).
   */
  private readonly inner = new Map<string, number>();

  /** `outermost`: what surrounds the whole tree (the runtime's imports). */
  constructor(outermost: ReadonlySet<string>) {
    this.outermost = new Set(outermost);
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

  /**
   * Opens a scope of `names`, to be closed by `leave` (what `within` does, without a function to
   * call). The set is read here, once: it must hold every name its scope declares and not change
   * while the scope is open. Each `leave` closes the scope the last `enter` opened; the outermost
   * is never closed.
   */
  enter(names: Set<string>): void {
    this.chain.push(names);
    for (const name of names) this.inner.set(name, (this.inner.get(name) ?? 0) + 1);
  }

  leave(): void {
    const names = this.chain.pop();
    if (names === undefined) return;
    for (const name of names) {
      const count = this.inner.get(name)! - 1;
      if (count === 0) this.inner.delete(name);
      else this.inner.set(name, count);
    }
  }

  /** Whether some scope declares `name`. */
  declares(name: string): boolean {
    return this.inner.has(name) || this.outermost.has(name);
  }

  /** Whether `name` here is the outermost scope's, not hidden by a declaration inside it. */
  isOutermost(name: string): boolean {
    return !this.inner.has(name) && this.outermost.has(name);
  }
}
