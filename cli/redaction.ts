// `--redact NAME` (spec/recording.md, "Redaction"): a secret is kept out of
// what is saved. An argument, a map entry (a header) or an environment
// variable of that name is written as `<redacted>`, as is the value of the
// program's option of that name; and then the secret values found that way
// are taken out of every other text of the file too (a body that echoes a
// token, a line the program printed, base64 bytes), so that the secret
// appears nowhere in it.

import { REDACTED, type JsonValue, type RecordedCall } from "../vocabulary/recording.js";

/** A secret shorter than this is redacted where it is named, but not searched for elsewhere: it would be found everywhere. */
export const MIN_SECRET_LENGTH = 4;

export class Redaction {
  /** The names, in lower case. */
  readonly names: ReadonlySet<string>;
  readonly secrets = new Set<string>();

  constructor(names: readonly string[]) {
    this.names = new Set(names.map((n) => n.toLowerCase()));
  }

  get active(): boolean {
    return this.names.size > 0;
  }

  private keep(secret: JsonValue): void {
    if (typeof secret === "string" || typeof secret === "number") {
      const text = String(secret);
      if (text.length >= MIN_SECRET_LENGTH && text !== REDACTED) this.secrets.add(text);
    }
  }

  private named(value: JsonValue): JsonValue {
    if (Array.isArray(value)) return value.map((v) => this.named(v));
    if (typeof value !== "object" || value === null) return value;
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) {
      if (this.names.has(k.toLowerCase()) && (typeof v !== "object" || v === null)) {
        this.keep(v);
        out[k] = REDACTED;
      } else {
        out[k] = this.named(v);
      }
    }
    return out;
  }

  /** A call with its named values redacted: arguments and map entries of those names, and an environment variable's value. */
  call(call: RecordedCall): RecordedCall {
    if (!this.active) return call;
    const args = this.named(call.arguments) as { [name: string]: JsonValue };
    let outcome = call.outcome;
    const variable = call.arguments["name"];
    if (call.primitive === "std.environment.get" && typeof variable === "string" && this.names.has(variable.toLowerCase()) && "success" in outcome && outcome.success !== null) {
      this.keep(outcome.success);
      outcome = { success: REDACTED };
    }
    return { ...call, arguments: args, outcome };
  }

  /** The program's own words, with the value of an option of a redacted name (`--token X`, `--token=X`) redacted. */
  words(argv: readonly string[]): string[] {
    const out = [...argv];
    for (let i = 0; i < out.length; i++) {
      const m = /^--?([^=]+)(=(.*))?$/s.exec(out[i]!);
      if (m === null || !this.names.has(m[1]!.toLowerCase())) continue;
      if (m[2] !== undefined) {
        this.keep(m[3]!);
        out[i] = `--${m[1]}=${REDACTED}`;
      } else if (i + 1 < out.length) {
        this.keep(out[i + 1]!);
        out[++i] = REDACTED;
      }
    }
    return out;
  }

  /** Every text of the document with each secret found replaced, in plain text and inside base64. */
  scrub<T extends JsonValue>(value: T): T {
    if (this.secrets.size === 0) return value;
    return this.scrubValue(value) as T;
  }

  private scrubValue(value: JsonValue): JsonValue {
    if (typeof value === "string") return this.scrubText(value);
    if (Array.isArray(value)) return value.map((v) => this.scrubValue(v));
    if (typeof value !== "object" || value === null) return value;
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) out[this.scrubText(k)] = this.scrubValue(v);
    return out;
  }

  private scrubText(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (out === text && text.length >= 8 && text.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(text)) {
      const bytes = Buffer.from(text, "base64");
      let changed = false;
      let buffer = bytes;
      for (const secret of this.secrets) {
        const needle = Buffer.from(secret, "utf8");
        const parts: Buffer[] = [];
        let from = 0;
        for (let at = buffer.indexOf(needle); at !== -1; at = buffer.indexOf(needle, from)) {
          parts.push(buffer.subarray(from, at), Buffer.from(REDACTED, "utf8"));
          from = at + needle.length;
          changed = true;
        }
        if (parts.length > 0) buffer = Buffer.concat([...parts, buffer.subarray(from)]);
      }
      if (changed) return buffer.toString("base64");
    }
    return out;
  }
}
