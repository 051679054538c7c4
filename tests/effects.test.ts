// The effectful library against real components: a child process, an SQLite
// file, an HTTP server the program runs and the test calls on loopback, a
// JavaScript module, and python refused.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ROOT } from "./golden.js";
import { startProgram } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "renyi-effects-"));
after(() => rmSync(work, { recursive: true, force: true }));

function start(source: string, ...args: string[]) {
  return startProgram(work, source, { after: args });
}

test("process.run: arguments as a list, no shell, every exit code a result, a missing program a failure", async () => {
  const { done } = start(`public function main() or fails with ProcessError
  purpose: Run programs.
  needs console, process("node"), process("no-such-program-here")
  let r be process.run("node", ["-e", "process.stdout.write(process.argv[1] + '|'); process.stderr.write('err'); process.exit(3)", "$(echo not expanded)"]) otherwise fail
  console.print("{r.exit_code} {r.stdout} {r.stderr}")
  let echo be process.run("node", ["-e", "process.stdin.pipe(process.stdout)"], input: "piped in") otherwise fail
  console.print(echo.stdout)
  let missing be process.run("no-such-program-here") otherwise
    when ProcessError.NotFound(p) then ProcessResult(exit_code: -1, stdout: "not found: {p}", stderr: "")
    when _ then crash with "unexpected"
  end
  console.print(missing.stdout)
  let refused be process.run("sh", ["-c", "echo hi"]) otherwise
    when ProcessError.PermissionDenied(p) then ProcessResult(exit_code: -1, stdout: "refused: {p}", stderr: "")
    when _ then crash with "unexpected"
  end
  console.print(refused.stdout)
end
`);
  const result = await done;
  // The checker refuses a call to "sh" that no needs cover only at run time: the scope is the program's name.
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(result.stdout.trim().split("\n"), [
    "3 $(echo not expanded)| err",
    "piped in",
    "not found: no-such-program-here",
    "refused: sh",
  ]);
});

test("database: parameters bound, rows read into records, constraints and transactions", async () => {
  const { done } = start(`type Person is record
  id: Int
  name: Text
  active: Boolean
  score: Optional<Float>
end

public function main() or fails with DbError
  purpose: Use an SQLite file.
  needs console, filesystem.database("people.db")
  let db be database.open("people.db") otherwise fail
  database.execute(db, "CREATE TABLE IF NOT EXISTS person (id INTEGER PRIMARY KEY, name TEXT UNIQUE, active INTEGER, score REAL)") otherwise fail
  database.execute(db, "DELETE FROM person") otherwise fail
  let added be database.execute(db, "INSERT INTO person (id, name, active, score) VALUES (?, ?, ?, ?), (?, ?, ?, ?)", [1.to_json(), "Ann'; DROP TABLE person; --".to_json(), true.to_json(), 2.5.to_json(), 2.to_json(), "Bob".to_json(), false.to_json(), nothing.to_json()]) otherwise fail
  console.print("added {added}")
  let people be database.query(db, "SELECT * FROM person WHERE id >= ? ORDER BY id", [1.to_json()], as: Person) otherwise fail
  for each p in people
    console.print("{p}")
  end
  let duplicate be database.execute(db, "INSERT INTO person (id, name, active) VALUES (3, 'Bob', 1)") otherwise
    when DbError.Constraint(message) then -1
    when _ then -2
  end
  console.print("duplicate: {duplicate}")
  let kept be database.transaction(db, function (d: Database) returns Int
    needs filesystem.database("people.db")
    let n be database.execute(d, "INSERT INTO person (id, name, active) VALUES (4, 'Cid', 1)") otherwise crash with "insert"
    return n
  end) otherwise fail
  let rolled be database.transaction(db, function (d: Database) returns Int
    needs filesystem.database("people.db")
    database.execute(d, "INSERT INTO person (id, name, active) VALUES (5, 'Dee', 1)") otherwise crash with "insert"
    let bad be database.execute(d, "INSERT INTO nowhere VALUES (1)") otherwise crash with "the second insert failed"
    return bad
  end) otherwise fail
  console.print("not reached {kept} {rolled}")
end
`);
  const result = await done;
  assert.equal(result.status, 2, result.stderr);
  assert.deepEqual(result.stdout.trim().split("\n"), [
    "added 2",
    `Person(id: 1, name: "Ann'; DROP TABLE person; --", active: true, score: Some(2.5))`,
    'Person(id: 2, name: "Bob", active: false, score: None)',
    "duplicate: -1",
  ]);
  assert.match(result.stderr, /E-RT-CRASH\]: the second insert failed/);
  // The rolled-back insert of Dee is not there; Cid's committed one is.
  const check = start(`type Name is record
  name: Text
end

public function main() or fails with DbError
  purpose: Read the names back.
  needs console, filesystem.database("people.db")
  let db be database.open("people.db") otherwise fail
  let names be database.query(db, "SELECT name FROM person ORDER BY id", as: Name) otherwise fail
  console.print("{from n in names select n.name}")
end
`);
  const after = await check.done;
  assert.equal(after.status, 0, after.stderr);
  assert.equal(after.stdout.trim(), `["Ann'; DROP TABLE person; --", "Bob", "Cid"]`);
});

test("server.serve answers requests with the program's handler, then stops after `requests`", async () => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const program = start(`public function main() or fails with StartError
  purpose: Answer two requests.
  needs console, network.socket(${port})
  console.print("listening")
  server.serve(${port}, function (request: Request) returns Response
    needs console
    console.print("{request.method} {request.path} {request.query.get("name")}")
    return server.respond(200, "hello {request.query.get("name").or_else("you")} {request.body}")
  end, requests: Some(2)) otherwise fail
  console.print("done")
end
`);
  while (!program.output().includes("listening")) await new Promise((r) => setTimeout(r, 20));
  let first: string | undefined;
  for (let attempt = 0; attempt < 100 && first === undefined; attempt++) {
    try {
      first = await (await fetch(`http://127.0.0.1:${port}/greet?name=Ada`)).text();
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  assert.equal(first, "hello Ada ");
  const second = await fetch(`http://127.0.0.1:${port}/post`, { method: "POST", body: "payload" });
  assert.equal(second.status, 200);
  assert.equal(await second.text(), "hello you payload");
  const result = await program.done;
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(result.stdout.trim().split("\n"), [
    "listening",
    'GET /greet Some("Ada")',
    "POST /post None",
    "done",
  ]);
});

test("foreign.call calls a JavaScript module with JSON; python is refused when a run starts", async () => {
  writeFileSync(
    join(work, "helpers.mjs"),
    "export function add(a, b) { return { sum: a + b }; }\nexport function boom() { throw new Error('kaboom'); }\n",
  );
  const { done } = start(`public function main() or fails with ForeignError
  purpose: Call JavaScript.
  needs console, foreign("helpers.mjs")
  let r be foreign.call("helpers.mjs", "add", [2.to_json(), 3.to_json()]) otherwise fail
  console.print(json.encode(r))
  let bad be foreign.call("helpers.mjs", "boom") otherwise
    when ForeignError.Failed(_, reason) then reason.to_json()
    when _ then nothing.to_json()
  end
  console.print(json.encode(bad))
end
`);
  const result = await done;
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(result.stdout.trim().split("\n"), ['{"sum":5}', '"kaboom"']);
  const python = start(`public function main()
  purpose: Need python.
  needs console, python("tool")
  console.print("ran")
end
`);
  const refused = await python.done;
  assert.equal(refused.status, 3);
  assert.match(refused.stderr, /python, which this version of Renyi knows but does not run yet/);
});

test("a port in use is StartError.InUse; a locked database is DbError.Sql", async () => {
  const { createServer } = await import("node:http");
  const busy = createServer(() => undefined);
  await new Promise<void>((resolve) => busy.listen(0, resolve));
  const port = (busy.address() as { port: number }).port;
  const serve = start(`public function main()
  purpose: Try a busy port.
  needs console, network.socket(${port})
  server.serve(${port}, (request: Request) => server.respond(200, "x")) otherwise
    when StartError.InUse(p) then console.print("in use: {p}")
    when _ then console.print("other")
  end
end
`);
  const served = await serve.done;
  busy.close();
  assert.equal(served.status, 0, served.stderr);
  assert.equal(served.stdout.trim(), `in use: ${port}`);

  const Sqlite = (await import("better-sqlite3")).default;
  const path = join(work, "locked.db");
  const holder = new Sqlite(path);
  holder.exec("CREATE TABLE t (x INTEGER)");
  holder.exec("BEGIN EXCLUSIVE");
  const locked = start(`public function main()
  purpose: Write to a locked database.
  needs console, filesystem.database("locked.db")
  let db be database.open("locked.db") otherwise crash with "open"
  let n be database.execute(db, "INSERT INTO t VALUES (1)") otherwise
    when DbError.Sql(message) then
      console.print("sql: {message}")
      return
    when _ then crash with "other"
  end
  console.print("inserted {n}")
end
`);
  const result = await locked.done;
  holder.exec("ROLLBACK");
  holder.close();
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^sql: database is locked/);
});

test("budgets of files and programs fail with their module's OverBudget; bytes, random and read_line work", async () => {
  const program = start(`public function main() or fails with FileError
  purpose: Spend budgets and use the smaller primitives.
  needs console, random, filesystem.write("out") at most 2 per run, filesystem.read("out"), process("node") at most 1 per minute
  for each i in 1 to 3
    filesystem.write_bytes("out/{i}.bin", "byte {i}".to_bytes()) otherwise
      when FileError.OverBudget(path) then console.print("over budget: {path}")
      when _ then crash with "unexpected"
    end
  end
  let back be filesystem.read_bytes("out/2.bin") otherwise fail
  console.print(text.from_bytes(back) otherwise "not text")
  for each i in 1 to 2
    let r be process.run("node", ["-e", "0"]) otherwise
      when ProcessError.OverBudget(p) then ProcessResult(exit_code: -1, stdout: "over budget: {p}", stderr: "")
      when _ then crash with "unexpected"
    end
    console.print("{r.exit_code} {r.stdout}")
  end
  let n be random.integer(1, 6)
  console.print("{n >= 1 and n <= 6} {random.uuid().length()}")
  let line be console.read_line()
  console.print("read {line}")
end
`);
  program.child.stdin.end("first line\nsecond\n");
  const result = await program.done;
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(result.stdout.trim().split("\n"), [
    "over budget: out/3.bin",
    "byte 2",
    "0 ",
    "-1 over budget: node",
    "true 36",
    'read Some("first line")',
  ]);
});

test("Ctrl-C stops a server gracefully: the run ends cancelled", async () => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const program = start(`public function main() or fails with StartError
  purpose: Serve until stopped.
  needs console, network.socket(${port})
  console.print("listening")
  server.serve(${port}, (request: Request) => server.respond(200, "ok")) otherwise fail
end
`);
  while (!program.output().includes("listening")) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 200));
  program.child.kill("SIGINT");
  const result = await program.done;
  assert.equal(result.status, 130, result.stderr);
  assert.match(result.stderr, /cancelled: interrupted/);
});

test("compiled code reaches Node only through the gateway: names of JavaScript are unknown, and every bundle passes the validator", async () => {
  const { checkSource } = await import("../compiler/index.js");
  const attempt = checkSource(
    "escape.ry",
    `function f() returns Text
  let a be process.env
  let b be globalThis
  let c be require("fs")
  let d be filesystem.readFileSync("x")
  return "x"
end
`,
  );
  assert.deepEqual(
    attempt.diagnostics.map((d) => d.code),
    ["E-NAME-UNKNOWN-FUNCTION", "E-NAME-UNKNOWN", "E-NAME-UNKNOWN", "E-NAME-UNKNOWN-FUNCTION"],
  );
  const { compileProgram } = await import("../compiler/build.js");
  const { parseSource } = await import("../compiler/index.js");
  const { validateBundle } = await import("../cli/bundles/validate.js");
  const { goldenFiles, readSections } = await import("./golden.js");
  const { basename } = await import("node:path");
  let validated = 0;
  for (const path of goldenFiles(join(ROOT, "fixtures", "run"))) {
    const sections = readSections(path);
    if (sections.has("module shapes") || /E-SYN|E-TYPE/.test(sections.get("stderr") ?? "")) continue;
    const name = basename(path, ".golden");
    const text = sections.get("source")!;
    const syntax = parseSource(`${name}.ry`, text);
    const result = compileProgram(
      [{ name, file: `${name}.ry`, text, syntax: syntax.module, syntaxDiagnostics: syntax.diagnostics }],
      { runtime: "renyi/runtime", entry: name, file: `${name}.mjs` },
    );
    if (result.bundle === undefined) continue;
    const validation = validateBundle(result.bundle.code);
    assert.ok(validation.ok, `${name}: ${validation.ok ? "" : validation.problem}`);
    validated++;
  }
  assert.ok(validated >= 15);
});
