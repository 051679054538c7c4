// The editor's services run nothing (spec/security.md): `renyi lsp` is run
// under Node's permission model, which refuses every file write, child process
// and worker thread (--experimental-permission with --allow-fs-read alone),
// and with a preload that makes every way of opening a socket (net, dgram,
// http, https, tls, fetch) throw and say so. A session opens and edits every
// example and every Renyi block of the specification and the README, and asks
// for every service the server announces; no refusal may happen, and every
// answer must still come.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { LSPErrorCodes, ResponseError } from "vscode-languageserver-protocol";
import { ROOT } from "./golden.js";
import { startLsp, uriOf } from "./lsp-client.js";

const work = mkdtempSync(join(tmpdir(), "renyi-lsp-security-"));
after(() => rmSync(work, { recursive: true, force: true }));

const PRELOAD = `"use strict";
const attempt = (what) => () => {
  process.stderr.write("SOCKET-ATTEMPT " + what + "\\n");
  throw new Error("refused by the test: " + what);
};
const net = require("node:net");
for (const name of ["connect", "createConnection", "createServer"]) net[name] = attempt("net." + name);
net.Socket.prototype.connect = attempt("net.Socket.connect");
require("node:dgram").createSocket = attempt("dgram.createSocket");
require("node:tls").connect = attempt("tls.connect");
for (const name of ["node:http", "node:https"]) {
  const m = require(name);
  for (const f of ["request", "get", "createServer"]) m[f] = attempt(name + "." + f);
}
globalThis.fetch = attempt("fetch");
require("node:module").syncBuiltinESMExports();
process.stderr.write("PERMISSIONS fs.write=" + process.permission.has("fs.write") +
  " child=" + process.permission.has("child") + " worker=" + process.permission.has("worker") + "\\n");
`;

/** Every ```renyi block of spec/*.md and README.md: a whole file, or statements put in a main. */
function specBlocks(): string[] {
  const documents = [
    ...readdirSync(join(ROOT, "spec"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => join(ROOT, "spec", f)),
    join(ROOT, "README.md"),
  ];
  return documents.flatMap((path) =>
    [...readFileSync(path, "utf8").matchAll(/^```renyi([^\n]*)\n([\s\S]*?)^```$/gm)].map(([, words, body]) =>
      words!.trim().startsWith("main") ? `function main()\n  needs console\n${body!.replace(/^/gm, "  ")}end\n` : body!,
    ),
  );
}

/** A request for each service the server announces, for a document. */
const REQUESTS: Record<string, (uri: string) => [string, unknown]> = {
  codeActionProvider: (uri) => [
    "textDocument/codeAction",
    { textDocument: { uri }, range: range(0, 1000), context: { diagnostics: [] } },
  ],
  documentFormattingProvider: (uri) => [
    "textDocument/formatting",
    { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } },
  ],
  documentRangeFormattingProvider: (uri) => [
    "textDocument/rangeFormatting",
    { textDocument: { uri }, range: range(0, 5), options: { tabSize: 2, insertSpaces: true } },
  ],
  hoverProvider: (uri) => ["textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 6 } }],
  definitionProvider: (uri) => [
    "textDocument/definition",
    { textDocument: { uri }, position: { line: 2, character: 6 } },
  ],
  referencesProvider: (uri) => [
    "textDocument/references",
    { textDocument: { uri }, position: { line: 2, character: 6 }, context: { includeDeclaration: true } },
  ],
  renameProvider: (uri) => [
    "textDocument/prepareRename",
    { textDocument: { uri }, position: { line: 2, character: 6 } },
  ],
  "renameProvider/rename": (uri) => [
    "textDocument/rename",
    { textDocument: { uri }, position: { line: 2, character: 6 }, newName: "renamed" },
  ],
  completionProvider: (uri) => [
    "textDocument/completion",
    { textDocument: { uri }, position: { line: 3, character: 4 } },
  ],
  documentSymbolProvider: (uri) => ["textDocument/documentSymbol", { textDocument: { uri } }],
  foldingRangeProvider: (uri) => ["textDocument/foldingRange", { textDocument: { uri } }],
  codeLensProvider: (uri) => ["textDocument/codeLens", { textDocument: { uri } }],
  semanticTokensProvider: (uri) => ["textDocument/semanticTokens/full", { textDocument: { uri } }],
  workspaceSymbolProvider: () => ["workspace/symbol", { query: "a" }],
};

function range(from: number, to: number) {
  return { start: { line: from, character: 0 }, end: { line: to, character: 0 } };
}

test("the preload catches a socket opened through require or import, and the permission model a write", () => {
  const preload = join(work, "no-sockets.cjs");
  writeFileSync(preload, PRELOAD);
  const tries = [
    'require("node:net").connect(9, "127.0.0.1")',
    'import("node:http").then((m) => m.request("http://127.0.0.1:9")).catch(() => process.exit(7))',
    'import("node:net").then(({ createServer }) => createServer()).catch(() => process.exit(7))',
    `require("node:fs").writeFileSync("${join(work, "written")}", "x")`,
  ];
  for (const code of tries) {
    const run = spawnSync(
      process.execPath,
      ["--experimental-permission", "--allow-fs-read=*", "--require", preload, "-e", code],
      { encoding: "utf8" },
    );
    assert.notEqual(run.status, 0, code);
    assert.match(run.stderr, /SOCKET-ATTEMPT|ERR_ACCESS_DENIED/, code);
  }
});

test("renyi lsp writes no file, starts no process or thread and opens no socket, and still answers", async () => {
  const preload = join(work, "no-sockets.cjs");
  writeFileSync(preload, PRELOAD);
  const client = await startLsp({
    node: ["--experimental-permission", "--allow-fs-read=*", "--require", preload],
    cwd: work,
  });
  const examples = readdirSync(join(ROOT, "examples"))
    .filter((f) => f.endsWith(".ry"))
    .map((f) => readFileSync(join(ROOT, "examples", f), "utf8"));
  const texts = [...examples, ...specBlocks()];
  assert.ok(texts.length > 50, `${texts.length} programs`);
  const capabilities = client.initialized.capabilities as Record<string, unknown>;
  const announced = Object.keys(REQUESTS).filter((k) => capabilities[k.split("/")[0]!] !== undefined);
  assert.ok(announced.includes("codeActionProvider") && announced.includes("hoverProvider"));
  // Every service the server announces is asked for.
  for (const k of Object.keys(capabilities)) if (k !== "textDocumentSync") assert.ok(k in REQUESTS, k);
  let answers = 0;
  // A failure leaves no server behind to hold the test's process open.
  const killed = setTimeout(() => client.child.kill(), 600_000);
  try {
    // Sixteen documents at a time, so that the server's pauses for more typing overlap.
    const session = async (text: string, i: number): Promise<void> => {
      // In the examples' folder, so that `use` lines reach files on disk.
      const uri = uriOf(join(i < examples.length ? join(ROOT, "examples") : work, `session_${i}.ry`));
      client.open(uri, text, 1);
      await client.diagnosticsOf(uri, 1);
      client.change(uri, 2, [{ range: range(0, 0), text: "-- edited\n" }]);
      client.change(uri, 3, [
        { range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: "" },
      ]);
      await client.diagnosticsOf(uri, 3);
      for (const capability of announced) {
        const [method, params] = REQUESTS[capability]!(uri);
        // A refused rename is an answer too: the protocol's RequestFailed, with the reason.
        await client.request(method, params).catch((e: unknown) => {
          if (!(e instanceof ResponseError && e.code === LSPErrorCodes.RequestFailed)) throw e;
        });
        answers++;
      }
      client.close(uri);
    };
    for (let start = 0; start < texts.length; start += 16)
      await Promise.all(texts.slice(start, start + 16).map((text, j) => session(text, start + j)));
  } catch (e) {
    client.child.kill();
    throw e;
  } finally {
    clearTimeout(killed);
  }
  assert.equal(await client.stop(), 0);
  const stderr = client.stderr();
  assert.match(stderr, /PERMISSIONS fs\.write=false child=false worker=false/, "the permission model held the server");
  assert.doesNotMatch(stderr, /ERR_ACCESS_DENIED/);
  assert.doesNotMatch(stderr, /SOCKET-ATTEMPT/);
  assert.doesNotMatch(stderr, /failed/);
  assert.ok(answers >= texts.length * announced.length);
  console.log(`security session: ${texts.length} documents, services ${announced.join(", ")}`);
});
