// The statements a program's SQL may not run (spec/security.md, "Databases"): a
// statement may touch only the database file the grant names. better-sqlite3
// keeps SQLite's defensive mode on (SQLITE_DBCONFIG_DEFENSIVE: no writable
// schema, no raw page writes) and the SQL function load_extension off, but it
// exposes neither an authorizer nor sqlite3_limit (SQLITE_LIMIT_ATTACHED), so
// the statements that reach other files are told by their first words, read
// as SQLite's tokenizer reads them: ATTACH and DETACH, VACUUM ... INTO, and
// every PRAGMA outside a list of those that concern only this file and this
// connection. These statements can only begin with their keyword (after
// EXPLAIN), and better-sqlite3 prepares one statement at a time.

/** Pragmas about this database file and this connection alone. Any other is refused. */
const PRAGMAS = new Set([
  "analysis_limit",
  "application_id",
  "auto_vacuum",
  "automatic_index",
  "cache_size",
  "cache_spill",
  "cell_size_check",
  "collation_list",
  "data_version",
  "database_list",
  "defer_foreign_keys",
  "encoding",
  "foreign_key_check",
  "foreign_key_list",
  "foreign_keys",
  "freelist_count",
  "function_list",
  "ignore_check_constraints",
  "incremental_vacuum",
  "index_info",
  "index_list",
  "index_xinfo",
  "integrity_check",
  "journal_mode",
  "journal_size_limit",
  "legacy_alter_table",
  "locking_mode",
  "max_page_count",
  "module_list",
  "optimize",
  "page_count",
  "page_size",
  "pragma_list",
  "query_only",
  "quick_check",
  "read_uncommitted",
  "recursive_triggers",
  "reverse_unordered_selects",
  "secure_delete",
  "synchronous",
  "table_info",
  "table_list",
  "table_xinfo",
  "temp_store",
  "user_version",
  "wal_autocheckpoint",
  "wal_checkpoint",
]);

type Token = { kind: "word" | "quoted" | "other"; text: string };

// SQLite's whitespace (sqlite3Isspace): space, tab, newline, vertical tab, form feed, carriage return.
const SPACE = /[ \t\n\v\f\r]/;
const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD = /[A-Za-z0-9_$\u0080-\uffff]/;

/** The first `limit` tokens of a statement, comments and whitespace skipped. */
function tokens(sql: string, limit: number): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length && out.length < limit) {
    const c = sql[i]!;
    if (SPACE.test(c)) i++;
    else if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < sql.length && WORD.test(sql[j]!)) j++;
      out.push({ kind: "word", text: sql.slice(i, j).toLowerCase() });
      i = j;
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      let text = "";
      for (; j < sql.length; j++) {
        if (sql[j] === close) {
          if (close !== "]" && sql[j + 1] === close) {
            text += close;
            j++;
            continue;
          }
          break;
        }
        text += sql[j];
      }
      out.push({ kind: c === "'" ? "other" : "quoted", text: text.toLowerCase() });
      i = j + 1;
    } else {
      out.push({ kind: "other", text: c });
      i++;
    }
  }
  return out;
}

/** Why a statement is refused, or undefined when it may run. */
export function refusal(sql: string): string | undefined {
  // A statement's first words are all that is needed, and a few more for `VACUUM schema INTO`.
  const words = tokens(sql, 8);
  let at = 0;
  if (words[at]?.kind === "word" && words[at]!.text === "explain") {
    at++;
    if (words[at]?.text === "query" && words[at + 1]?.text === "plan") at += 2;
  }
  const first = words[at];
  if (first === undefined) return undefined; // no statement: better-sqlite3 says so
  if (first.kind !== "word") return "a statement that does not begin with a keyword is refused";
  switch (first.text) {
    case "attach":
    case "detach":
      return `${first.text.toUpperCase()} is refused: a statement may use only the database file the grant names`;
    case "vacuum": {
      // `VACUUM` and `VACUUM schema` rewrite this file; anything more (INTO a file) is refused.
      const rest = tokens(sql, at + 4)
        .slice(at + 1)
        .filter((t) => t.text !== ";");
      const plain = rest.length === 0 || (rest.length === 1 && rest[0]!.kind !== "other");
      return plain ? undefined : "VACUUM INTO is refused: a statement may write only the database file the grant names";
    }
    case "pragma": {
      // PRAGMA [schema.]name
      let name = words[at + 1];
      if (words[at + 2]?.text === ".") name = words[at + 3];
      // SQLite's own busy wait blocks the thread, where a cancellation is not seen: the wait is database.ts's.
      if (name?.text === "busy_timeout")
        return (
          "PRAGMA busy_timeout is refused: a statement waits up to a second for a database another connection " +
          "holds, and a cancellation ends the wait"
        );
      if (name === undefined || name.kind === "other" || !PRAGMAS.has(name.text)) {
        return `PRAGMA ${name?.text ?? ""} is refused: only pragmas about this database file and this connection may be used`.replace(
          "PRAGMA  is",
          "this PRAGMA is",
        );
      }
      return undefined;
    }
    default:
      return undefined;
  }
}
