// `renyi lsp` against bad input: documents that do not parse, that hold NUL,
// lone surrogates and direction marks, that nest deeper than the parser's
// limit or are larger than 16 MiB; positions past the end; a flood of
// changes; a request whose handler fails; and a client that never reads. The
// server answers each, and stays up.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { CodeAction, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyse } from "../editor/analysis.js";
import { Outbox, OUTPUT_ROOM } from "../cli/lsp/outbox.js";
import { startLsp, uriOf, type LspClient } from "./lsp-client.js";

const work = mkdtempSync(join(tmpdir(), "renyi-lsp-bad-"));
let client: LspClient;
before(async () => {
  client = await startLsp({ cwd: work });
});
after(async () => {
  assert.equal(await client.stop(), 0);
  rmSync(work, { recursive: true, force: true });
});

let documents = 0;
async function opened(text: string): Promise<{ uri: string; published: PublishDiagnosticsParams }> {
  const uri = uriOf(join(work, `doc${++documents}.ry`));
  client.open(uri, text, 1);
  return { uri, published: await client.diagnosticsOf(uri, 1, 60_000) };
}

const codes = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => d.code);

test("documents the parser must refuse are answered with diagnostics", async () => {
  const cases: [string, string, string][] = [
    ["no parse", "function (\n  let be be\nend end end\n", "E-SYN-"],
    ["NUL", "function main()\n  let x be 1\u0000\nend\n", "E-SYN-CHARACTER"],
    ["lone surrogate", 'function main()\n  let x be "\ud800"\n  let y be \udc00\nend\n', "E-SYN-"],
    ["direction marks", 'function main()\n  let x be "a\u202eb" \u2066\nend\n', "E-SYN-"],
    [
      "deeper than the limit",
      `function main()\n  let x be ${"(".repeat(100_000)}1${")".repeat(100_000)}\nend\n`,
      "E-SYN-TOO-DEEP",
    ],
  ];
  for (const [what, text, code] of cases) {
    const { published } = await opened(text);
    assert.ok(
      codes(published).some((c) => String(c).startsWith(code)),
      `${what}: ${codes(published).join(", ")} has no ${code}`,
    );
  }
});

test("a document that is no .ry file, or no file at all, is analysed as its own module", async () => {
  for (const uri of ["untitled:Untitled-1", uriOf(join(work, "notes.txt")), uriOf(join(work, "no extension"))]) {
    client.open(uri, "use elsewhere\n\nfunction main()\n  let x be nothing_here\nend\n", 1);
    const published = await client.diagnosticsOf(uri, 1);
    assert.deepEqual(codes(published), ["E-NAME-MODULE", "E-NAME-UNKNOWN"], uri);
  }
});

test("a document above 16 MiB gets one diagnostic and is not analysed", async () => {
  const text = `function main()\n  let x be 1\nend\n-- ${"é".repeat(9 * 1024 * 1024)}\n`;
  const { published } = await opened(text);
  assert.deepEqual(codes(published), ["E-FILE"]);
  assert.match(String(published.diagnostics[0]!.message), /larger than the 16 MiB/);
});

test("positions past the end are their nearest end, in changes and in requests", async () => {
  const { uri } = await opened("function main()\nend\n");
  client.change(uri, 2, [
    { range: { start: { line: 99, character: 5 }, end: { line: 120, character: 0 } }, text: "-- at the end\n" },
  ]);
  const after = await client.diagnosticsOf(uri, 2);
  assert.deepEqual(after.diagnostics, []);
  const actions = await client.request<CodeAction[]>("textDocument/codeAction", {
    textDocument: { uri },
    range: { start: { line: 1_000_000, character: 1_000_000 }, end: { line: 2 ** 31, character: -5 } },
    context: { diagnostics: [] },
  });
  assert.deepEqual(actions, []);
});

test("10,000 changes at once are analysed a few times, the last text among them", async () => {
  const start = "function main()\n  needs console\nend\n";
  const { uri } = await opened(start);
  const doc = TextDocument.create(uri, "renyi", 1, start);
  const before = client.published.get(uri)!.length;
  const CHANGES = 10_000;
  for (let v = 2; v < CHANGES + 2; v++) {
    const at = doc.positionAt(doc.getText().length - 4);
    const change = { range: { start: at, end: at }, text: v % 2 === 0 ? '  console.print("x")\n' : "" };
    TextDocument.update(doc, [change], v);
    client.change(uri, v, [change]);
  }
  const last = await client.diagnosticsOf(uri, CHANGES + 1, 60_000);
  const publications = client.published.get(uri)!.length - before;
  assert.ok(publications < 100, `${publications} publications for ${CHANGES} changes`);
  const plain = analyse([{ file: join(work, "x.ry"), text: doc.getText() }]).modules.get(join(work, "x.ry"))!;
  assert.equal(last.diagnostics.length, plain.diagnostics.length);
});

test("a stream of changes that never pauses is still analysed as it goes", async () => {
  const { uri } = await opened("function main()\nend\n");
  const before = client.published.get(uri)!.length;
  let version = 1;
  const end = performance.now() + 1500;
  while (performance.now() < end) {
    client.change(uri, ++version, [
      { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: "-- x\n" },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const during = client.published.get(uri)!.length - before;
  await client.diagnosticsOf(uri, version);
  assert.ok(during >= 2, `${during} publications while 20 ms apart changes came for 1.5 s`);
});

test("a request whose handler fails is answered with an error, and the server goes on", async () => {
  const { uri } = await opened("function main()\nend\n");
  await assert.rejects(
    client.request("textDocument/codeAction", { textDocument: { uri }, context: {} }),
    (e: { code?: number; message?: string }) => e.code === -32603 && /codeAction failed/.test(e.message ?? ""),
  );
  assert.match(client.stderr(), /renyi lsp: codeAction failed: TypeError/);
  const { published } = await opened("function main()\n  let x be nothing_here\nend\n");
  assert.deepEqual(codes(published), ["E-NAME-UNKNOWN"]);
});

test("diagnostics wait for a client that does not read, at most one publication per document", () => {
  let sent = 0;
  const output = {
    unread: OUTPUT_ROOM + 1,
    drain: [] as (() => void)[],
    get writableLength() {
      return this.unread;
    },
    once(_: "drain", listener: () => void) {
      this.drain.push(listener);
    },
  };
  const outbox = new Outbox(output, () => sent++);
  for (let i = 0; i < 100_000; i++) outbox.publish({ uri: `file:///d${i % 3}.ry`, diagnostics: [] });
  assert.equal(sent, 0);
  assert.equal(outbox.size, 3, "one waiting publication per document");
  assert.equal(output.drain.length, 1, "one wait for the output to drain");
  output.unread = 0;
  output.drain.shift()!();
  assert.equal(sent, 3);
  assert.equal(outbox.size, 0);
});
