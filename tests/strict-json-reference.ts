// The first strict JSON reader, kept as the reference that report/strict-json.ts,
// written for speed, is checked against (tests/strict-json-property.test.ts): a
// reader that builds every value by hand, one character at a time.
//
// A JSON reader for files a hostile party may have written (a bundle's grant
// manifest). JSON.parse keeps the last of two equal keys, so a file could show a
// reader one `needs` and give the program another; this reader refuses a
// repeated key instead, and also text that is not UTF-8, a byte order mark, a
// lone surrogate, a number out of range, and nesting deeper than a manifest has.
// Objects are made without a prototype, so that `__proto__` is a key like any
// other (and the manifest's schema refuses it as an unknown field).

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

type JsonRead = { ok: true; value: Json } | { ok: false; problem: string };

const MAX_DEPTH = 16;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `maxDepth`: how deeply arrays and objects may nest (a manifest's 16 by default; a recording's arguments nest deeper).
 */
export function readStrictJsonReference(bytes: Uint8Array, maxDepth = MAX_DEPTH): JsonRead {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, problem: "it is not UTF-8 text" };
  }
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, problem: "it starts with a byte order mark" };
  try {
    const reader = new Reader(text, maxDepth);
    const value = reader.value(0);
    reader.space();
    if (reader.at < text.length) reader.fail("text after the end of the JSON value");
    return { ok: true, value };
  } catch (e) {
    if (e instanceof JsonProblem) return { ok: false, problem: e.message };
    throw e;
  }
}

class JsonProblem extends Error {}

class Reader {
  at = 0;
  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  fail(what: string): never {
    const before = this.text.slice(0, this.at);
    const line = before.split("\n").length;
    const column = this.at - before.lastIndexOf("\n");
    throw new JsonProblem(`${what} at line ${line}, column ${column}`);
  }

  space(): void {
    while (this.at < this.text.length && " \t\n\r".includes(this.text[this.at]!)) this.at++;
  }

  value(depth: number): Json {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`);
    this.space();
    const c = this.text[this.at];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    return this.fail(c === undefined ? "the text ends where a value was expected" : `unexpected ${JSON.stringify(c)}`);
  }

  private object(depth: number): Json {
    const result = Object.create(null) as { [key: string]: Json };
    const seen = new Set<string>();
    this.at++;
    this.space();
    if (this.text[this.at] === "}") {
      this.at++;
      return result;
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') this.fail("a key in quotes expected");
      const keyAt = this.at;
      const key = this.string();
      if (seen.has(key)) {
        this.at = keyAt;
        this.fail(`the key ${JSON.stringify(key)} appears twice in one object`);
      }
      seen.add(key);
      this.space();
      if (this.text[this.at] !== ":") this.fail("`:` expected after a key");
      this.at++;
      result[key] = this.value(depth + 1);
      this.space();
      const next = this.text[this.at++];
      if (next === "}") return result;
      if (next !== ",") {
        this.at--;
        this.fail("`,` or `}` expected");
      }
    }
  }

  private array(depth: number): Json {
    const result: Json[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === "]") {
      this.at++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth + 1));
      this.space();
      const next = this.text[this.at++];
      if (next === "]") return result;
      if (next !== ",") {
        this.at--;
        this.fail("`,` or `]` expected");
      }
    }
  }

  private string(): string {
    const start = this.at;
    this.at++;
    let out = "";
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined) this.fail("a text that is never closed");
      const code = c.charCodeAt(0);
      if (c === '"') break;
      if (code < 0x20) this.fail("a control character inside a text");
      if (c === "\\") {
        const escaped = this.text[this.at + 1];
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        if (escaped !== undefined && escaped in simple) {
          out += simple[escaped];
          this.at += 2;
          continue;
        }
        const hex = this.text.slice(this.at + 2, this.at + 6);
        if (escaped !== "u" || !/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("a bad escape inside a text");
        out += String.fromCharCode(parseInt(hex, 16));
        this.at += 6;
        continue;
      }
      out += c;
      this.at++;
    }
    this.at++;
    // A lone surrogate cannot be written as UTF-8: it is no character at all.
    if (LONE_SURROGATE.test(out)) {
      this.at = start;
      this.fail("a text holding half of a character (a lone surrogate)");
    }
    return out;
  }

  private number(): number {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 400));
    if (m === null) this.fail("a malformed number");
    const value = Number(m[0]);
    if (!Number.isFinite(value)) this.fail("a number too large to hold");
    this.at += m[0].length;
    return value;
  }
}
