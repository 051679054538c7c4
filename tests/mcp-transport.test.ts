// The lines `renyi mcp` reads (cli/mcp/transport.ts, spec/mcp.md "Limits and
// hostile input"), written to the real command byte by byte: a line that is
// not JSON, not UTF-8, not a JSON-RPC message, or larger than a message may
// be, is answered with a JSON-RPC error carrying the request's id where one
// can be read, and the server answers the next request.

import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { firstInvalidUtf8, MAX_MESSAGE_BYTES } from "../cli/mcp/transport.js";
import { RENYI } from "./support.js";

interface Answer {
  jsonrpc: string;
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

const recordings = mkdtempSync(join(tmpdir(), "renyi-mcp-lines-"));
let server: ChildProcessWithoutNullStreams;
const answers: Answer[] = [];
const waiters: (() => void)[] = [];

before(() => {
  server = spawn(process.execPath, [RENYI, "mcp", "--recordings", recordings]);
  let pending = "";
  server.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      answers.push(JSON.parse(pending.slice(0, newline)) as Answer);
      pending = pending.slice(newline + 1);
      for (const wake of waiters.splice(0)) wake();
    }
  });
  server.stderr.resume();
});

after(() => {
  server.stdin.end();
  server.kill();
  rmSync(recordings, { recursive: true, force: true });
});

/** Writes the bytes and waits for the next answer. */
async function send(bytes: Buffer | string): Promise<Answer> {
  const seen = answers.length;
  await new Promise<void>((resolve, reject) => server.stdin.write(bytes, (e) => (e ? reject(e) : resolve())));
  const deadline = Date.now() + 20_000;
  while (answers.length === seen) {
    assert.ok(Date.now() < deadline, `no answer to ${String(bytes).slice(0, 80)}`);
    await new Promise<void>((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 200);
    });
  }
  return answers[seen]!;
}

async function stillServing(id: number): Promise<void> {
  const pong = await send(`${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`);
  assert.deepEqual(pong, { jsonrpc: "2.0", id, result: {} });
}

test("mcp lines: not JSON is a parse error with no id; JSON that is no message is an invalid request with its id", async () => {
  const notJson = await send("this is not json\n");
  assert.equal(notJson.id, null);
  assert.equal(notJson.error?.code, -32700);
  assert.match(notJson.error!.message, /not JSON/);
  const noMessage = await send(`${JSON.stringify({ id: 4, hello: "world" })}\n`);
  assert.equal(noMessage.id, 4);
  assert.equal(noMessage.error?.code, -32600);
  const array = await send("[1, 2, 3]\n");
  assert.equal(array.id, null);
  assert.equal(array.error?.code, -32600);
  await stillServing(5);
});

test("mcp lines: a line that is not UTF-8 is refused with the offset of its first bad byte, not read with U+FFFD", async () => {
  const head = Buffer.from('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"');
  const line = Buffer.concat([head, Buffer.from([0x61, 0xff, 0x62]), Buffer.from('"}}\n')]);
  const refused = await send(line);
  assert.equal(refused.id, 7);
  assert.equal(refused.error?.code, -32700);
  assert.match(refused.error!.message, new RegExp(`byte ${head.length + 1} \\(0xff\\)`));
  // An overlong encoding of "/" and a lone surrogate's bytes are not UTF-8 either.
  for (const bad of [
    [0xc0, 0xaf],
    [0xed, 0xa0, 0x80],
  ]) {
    const answer = await send(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":"'),
        Buffer.from(bad),
        Buffer.from('"}}\n'),
      ]),
    );
    assert.equal(answer.error?.code, -32700, JSON.stringify(answer));
  }
  // A line of one byte that begins no character (not a space in Latin-1: not read as one).
  const lone = await send(Buffer.from([0xa0, 0x0a]));
  assert.equal(lone.error?.code, -32700);
  assert.match(lone.error!.message, /not UTF-8/);
  // A line of spaces and tabs is not JSON: answered, not skipped.
  const blank = await send(" \t  \n");
  assert.equal(blank.error?.code, -32700);
  await stillServing(9);
});

test("mcp lines: a line over 8 MiB is skipped as it arrives and answered with its id, and the server goes on", async () => {
  const padding = "x".repeat(MAX_MESSAGE_BYTES + 1024);
  // The SDK's client writes the id last; another client may write it first.
  for (const [line, id] of [
    [
      `{"method":"tools/call","params":{"name":"check","arguments":{"source":"${padding}"}},"jsonrpc":"2.0","id":11}\n`,
      11,
    ],
    [
      `{"jsonrpc":"2.0","id":"twelve","method":"tools/call","params":{"name":"check","arguments":{"source":"${padding}"}}}\n`,
      "twelve",
    ],
  ] as const) {
    const answer = await send(line);
    assert.equal(answer.id, id);
    assert.equal(answer.error?.code, -32600);
    assert.match(answer.error!.message, /too large/);
  }
  // Written in pieces, as a pipe delivers it, with a request right behind it on the same write.
  const seen = answers.length;
  const big = `{"jsonrpc":"2.0","id":13,"method":"ping","params":{"x":"${padding}"}}\n`;
  for (let at = 0; at < big.length; at += 1 << 20) server.stdin.write(big.slice(at, at + (1 << 20)));
  const refused = await send(`${JSON.stringify({ jsonrpc: "2.0", id: 14, method: "ping" })}\n`);
  assert.equal(refused.id, 13);
  assert.equal(refused.error?.code, -32600);
  const deadline = Date.now() + 20_000;
  while (answers.length < seen + 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(answers[seen + 1], { jsonrpc: "2.0", id: 14, result: {} });
});

test("mcp lines: firstInvalidUtf8 agrees with a strict decoder on random bytes", () => {
  const strict = new TextDecoder("utf-8", { fatal: true });
  const valid = (bytes: Uint8Array): boolean => {
    try {
      strict.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };
  let cases = 0;
  // Bytes drawn mostly from the ranges UTF-8's rules are about.
  const byte = fc.oneof(
    fc.integer({ min: 0, max: 0x7f }),
    fc.integer({ min: 0x80, max: 0xbf }),
    fc.integer({ min: 0xc0, max: 0xff }),
    fc.constantFrom(0xe0, 0xed, 0xf0, 0xf4, 0x9f, 0xa0, 0x8f, 0x90),
  );
  fc.assert(
    fc.property(fc.array(byte, { maxLength: 24 }), fc.string({ unit: "binary", maxLength: 8 }), (raw, prefix) => {
      cases++;
      const bytes = Uint8Array.from([...Buffer.from(prefix, "utf8"), ...raw]);
      const at = firstInvalidUtf8(bytes);
      assert.equal(at === bytes.length, valid(bytes));
      assert.ok(valid(bytes.subarray(0, at)), "everything before the offset is UTF-8");
    }),
    { numRuns: 20_000, seed: 20261201 },
  );
  console.log(`firstInvalidUtf8: ${cases} cases`);
});
