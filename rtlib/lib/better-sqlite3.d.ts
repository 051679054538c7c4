// The part of better-sqlite3's API the database module uses (the package ships no types).
declare module "better-sqlite3" {
  interface Statement {
    all(...parameters: unknown[]): Record<string, unknown>[];
    /** Rows one at a time; leaving the loop early resets the statement. */
    iterate(...parameters: unknown[]): IterableIterator<Record<string, unknown>>;
    run(...parameters: unknown[]): { changes: number };
  }
  interface Database {
    prepare(sql: string): Statement;
    exec(sql: string): void;
    close(): void;
    readonly inTransaction: boolean;
  }
  const Database: new (path: string, options?: { timeout?: number }) => Database;
  export default Database;
}
