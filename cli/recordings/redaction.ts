// `--redact NAME` (spec/recording.md, "Redaction"): a secret is kept out of
// what is saved. An argument, a map entry (a header) or an environment
// variable of that name is written as `<redacted>`, as is the value of the
// program's option of that name; and then the secret values found that way
// are taken out of every other text of the file too (a body that echoes a
// token, a line the program printed, base64 bytes), in every form it takes
// there (percent-encoded, JSON-escaped, base64, hex: redaction-forms.ts), so
// that the secret appears nowhere in it.

import { REDACTED, type JsonValue, type RecordedCall } from "../../vocabulary/recording.js";
import { formsOf } from "./redaction-forms.js";
import type { RecordedRequest } from "../../vocabulary/recorded-requests.js";
import { isRedactedForm, redactedForms } from "../../rtlib/recording/key.js";

/**
 * A secret shorter than this is redacted where it is named, but not searched for elsewhere: it would be found
 * everywhere.
 */
const MIN_SECRET_LENGTH = 4;

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

  /**
   * A call with its named values redacted: arguments and map entries of those names, and an environment variable's
   * value; and the places of its arguments whose texts came from a redacted name (`redactedParts`, what the run's
   * origins said: spec/runtime.md, section 9) marked in `redacted_at`, to be written with the placeholder by scrub.
   */
  call(call: RecordedCall, redactedParts?: readonly string[]): RecordedCall {
    if (!this.active) return call;
    const args = this.named(call.arguments) as { [name: string]: JsonValue };
    const places: (string | number)[][] = [];
    if (redactedParts !== undefined && redactedParts.length > 0)
      this.placesFrom(args, new Set(redactedParts), redactedForms(redactedParts), [], places);
    let outcome = call.outcome;
    const variable = call.arguments["name"];
    if (
      call.primitive === "std.environment.get" &&
      typeof variable === "string" &&
      this.names.has(variable.toLowerCase()) &&
      "success" in outcome &&
      outcome.success !== null
    ) {
      this.keep(outcome.success);
      outcome = { success: REDACTED };
    }
    return { ...call, arguments: args, outcome, ...(places.length > 0 ? { redacted_at: places } : {}) };
  }

  /**
   * The places of `value` (at `path`) whose text or number is one of `parts`. A key of a map made of one is not a
   * place (a key cannot be written twice as the placeholder): it is searched for as a secret.
   */
  private placesFrom(
    value: JsonValue,
    parts: ReadonlySet<string>,
    forms: ReadonlySet<string>,
    path: (string | number)[],
    into: (string | number)[][],
  ): void {
    if (typeof value === "string" || typeof value === "number") {
      if (path.length > 0 && value !== REDACTED && isRedactedForm(value, forms)) into.push(path);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        this.placesFrom(v, parts, forms, [...path, i], into);
      });
    } else if (typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        if (parts.has(k)) this.keep(k);
        this.placesFrom(v, parts, forms, [...path, k], into);
      }
    }
  }

  /**
   * Each marked place of each call written with the placeholder: where a form of a secret is found in its text and
   * nothing of a secret (4 characters of one in a row) is left once each form is replaced, the search writes it (the
   * text around the secret kept: `Bearer <redacted>`); otherwise it is written whole as the placeholder, and its text
   * is searched for as a secret too (a part of one, or a function of one the search cannot see, echoed elsewhere).
   */
  private placed(calls: readonly RecordedCall[]): RecordedCall[] {
    this.forms = this.formsOfSecrets();
    // A text computed from a redacted value in which the search finds a form of the value (a JSON body that holds it)
    // needs no search of its own; one in which it finds none (a part of it, upper-cased, reversed) is searched for.
    for (const text of this.derived) if (this.scrubText(text) === text) this.keep(text);
    this.forms = this.formsOfSecrets();
    const wholes: string[] = [];
    const out = calls.map((call) => {
      if (call.redacted_at === undefined) return call;
      let args: JsonValue = call.arguments;
      for (const place of call.redacted_at) {
        const text = String(valueAt(args, place));
        const scrubbed = this.scrubText(text);
        if (scrubbed !== text && !this.holdsPartOfSecret(scrubbed)) continue;
        wholes.push(text);
        args = withValueAt(args, place, REDACTED);
      }
      return { ...call, arguments: args as { [name: string]: JsonValue } };
    });
    for (const text of wholes) this.keep(text);
    return out;
  }

  /** Whether a text holds 4 characters in a row of a secret. */
  private holdsPartOfSecret(text: string): boolean {
    for (const secret of this.secrets)
      for (let at = 0; at + MIN_SECRET_LENGTH <= secret.length; at++)
        if (text.includes(secret.slice(at, at + MIN_SECRET_LENGTH))) return true;
    return false;
  }

  /** Texts computed from a redacted value (the run's origins said), searched for as the value is (see placed). */
  private readonly derived: string[] = [];

  searchFor(texts: readonly string[]): void {
    this.derived.push(...texts);
  }

  /**
   * A request a server answered (spec/recording.md, "Servers"), with a query parameter or a header of a redacted
   * name, and the response's header of one, written as `<redacted>`.
   */
  request(request: RecordedRequest): RecordedRequest {
    if (!this.active) return request;
    const out = { ...request };
    out.query = this.named(request.query) as RecordedRequest["query"];
    out.headers = this.named(request.headers) as RecordedRequest["headers"];
    if (typeof request.response === "object")
      out.response = {
        ...request.response,
        headers: this.named(request.response.headers) as RecordedRequest["headers"],
      };
    return out;
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

  /** The forms of the secrets found, each with the same form of the placeholder, longest first. */
  private forms: { form: string; placeholder: string }[] | undefined;

  /**
   * Every text of the document with each secret found replaced in every form
   * it takes (redaction-forms.ts): plain, percent-encoded, JSON-escaped, and
   * inside base64, base64url and hex, each by the same form of the placeholder.
   */
  scrub<T extends JsonValue>(value: T): T {
    let document: JsonValue = value;
    if (isObject(document) && Array.isArray(document["calls"]))
      document = { ...document, calls: this.placed(document["calls"] as unknown as RecordedCall[]) as never };
    if (this.secrets.size === 0) return document as T;
    this.forms = this.formsOfSecrets();
    return this.scrubValue(document) as T;
  }

  private formsOfSecrets(): { form: string; placeholder: string }[] {
    // A form the URL parser shortened (it drops a newline) is searched for only while it is as long as a secret must
    // be.
    return [...this.secrets]
      .flatMap(formsOf)
      .filter((f) => f.form.length >= MIN_SECRET_LENGTH)
      .sort((a, b) => b.form.length - a.form.length);
  }

  private scrubValue(value: JsonValue): JsonValue {
    if (typeof value === "string") return this.scrubText(value);
    if (Array.isArray(value)) return value.map((v) => this.scrubValue(v));
    if (typeof value !== "object" || value === null) return value;
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) out[this.scrubText(k)] = this.scrubValue(v);
    return out;
  }

  /**
   * `depth`: how many layers of base64 or hex the text was decoded from; bytes are looked into at most MAX_LAYERS deep.
   */
  private scrubText(text: string, depth = 0): string {
    let out = text;
    for (const { form, placeholder } of this.forms!) if (out.includes(form)) out = out.split(form).join(placeholder);
    if (depth >= MAX_LAYERS) return out;
    out = out.replace(BASE64_RUN, (run) => this.scrubRun(run, "base64", depth));
    return out.replace(HEX_RUN, (run) => this.scrubRun(run, "hex", depth));
  }

  /**
   * A run of base64 (or base64url) or hex characters with the secret's bytes
   * replaced, if it holds them at one of the alignments it can have (the run
   * may begin with characters of the text before the encoded bytes).
   */
  private scrubRun(run: string, kind: "base64" | "hex", depth: number): string {
    const alignments = kind === "base64" ? 4 : 2;
    for (let at = 0; at < alignments; at++) {
      const body = run.slice(at).replace(/=+$/, "");
      const usable = kind === "hex" ? body.slice(0, body.length - (body.length % 2)) : body;
      if (usable.length < 6) break;
      const bytes = Buffer.from(usable, kind);
      const scrubbed = this.scrubBytes(bytes, depth + 1);
      if (scrubbed === undefined) continue;
      const urlSafe = kind === "base64" && /[-_]/.test(usable);
      let encoded = scrubbed.toString(kind === "hex" ? "hex" : urlSafe ? "base64url" : "base64");
      if (kind === "hex" && /[A-F]/.test(usable) && !/[a-f]/.test(usable)) encoded = encoded.toUpperCase();
      // Padding as the text had it: left off only where the text shows it was (a length padding would have filled).
      if (kind === "base64" && !urlSafe && !/=$/.test(run) && usable.length % 4 !== 0)
        encoded = encoded.replace(/=+$/, "");
      return run.slice(0, at) + encoded + (kind === "hex" ? body.slice(usable.length) : "");
    }
    return run;
  }

  /** The bytes with each form of a secret replaced, or undefined when they hold none. */
  private scrubBytes(bytes: Buffer, depth: number): Buffer | undefined {
    let text: string | undefined;
    try {
      text = UTF8.decode(bytes);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const scrubbed = this.scrubText(text, depth);
      return scrubbed === text ? undefined : Buffer.from(scrubbed, "utf8");
    }
    let buffer = bytes;
    let changed = false;
    for (const { form, placeholder } of this.forms!) {
      const needle = Buffer.from(form, "utf8");
      const parts: Buffer[] = [];
      let from = 0;
      for (let at = buffer.indexOf(needle); at !== -1; at = buffer.indexOf(needle, from)) {
        parts.push(buffer.subarray(from, at), Buffer.from(placeholder, "utf8"));
        from = at + needle.length;
      }
      if (parts.length > 0) {
        buffer = Buffer.concat([...parts, buffer.subarray(from)]);
        changed = true;
      }
    }
    return changed ? buffer : undefined;
  }
}

/** How many layers of base64 or hex (base64 of a body that holds base64) are looked into. */
const MAX_LAYERS = 2;

/** Runs of characters that base64 or base64url writes, long enough to hold 4 bytes. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;
/** Runs of hex digits, long enough to hold 4 bytes. */
const HEX_RUN = /[0-9A-Fa-f]{8,}/g;

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a place of a JSON value (a list of keys and indexes). */
function valueAt(value: JsonValue, place: readonly (string | number)[]): JsonValue {
  let at: JsonValue = value;
  for (const step of place) at = (at as { [key: string]: JsonValue })[step] ?? null;
  return at;
}

/** A copy of a JSON value with the value at a place replaced. */
function withValueAt(value: JsonValue, place: readonly (string | number)[], replacement: JsonValue): JsonValue {
  if (place.length === 0) return replacement;
  const [step, ...rest] = place;
  if (Array.isArray(value)) return value.map((v, i) => (i === step ? withValueAt(v, rest, replacement) : v));
  const object = value as { [key: string]: JsonValue };
  return { ...object, [step!]: withValueAt(object[step!] ?? null, rest, replacement) };
}
