// The forms a redacted value takes in a recording (spec/recording.md,
// "Redaction"): a program and the services it talks to write a secret
// percent-encoded in a URL (as the URL parser does, as encodeURIComponent
// does, with `+` for a space as forms do), JSON-escaped in a body (with
// \uXXXX escapes too, once or twice over), and as base64, base64url or hex
// bytes. Each form of a secret is replaced by the same form of the
// placeholder, so that a replay, which gives the program the placeholder
// where it read the secret, makes the same text again.

import { REDACTED } from "../../vocabulary/recording.js";

type Encoding = (text: string) => string;

const upperHex = (text: string): string => text.replace(/%[0-9a-f]{2}/gi, (h) => h.toUpperCase());
const lowerHex = (text: string): string => text.replace(/%[0-9a-f]{2}/gi, (h) => h.toLowerCase());

/** The ways a text is written inside another: each gives the same text back when it has nothing to escape. */
const ENCODINGS: readonly Encoding[] = [
  (t) => encodeURIComponent(t),
  (t) => encodeURIComponent(t).replace(/%20/g, "+"),
  (t) => new URLSearchParams({ k: t }).toString().slice(2),
  (t) => queryForm(t),
  (t) => pathForm(t),
  (t) => encodeURI(t),
  (t) => JSON.stringify(t).slice(1, -1),
  (t) => asciiJson(t, false),
  (t) => asciiJson(t, true),
];

/** As the URL parser writes the text in a query (a request's URL, recorded as the parser gave it back). */
function queryForm(text: string): string {
  const marked = `http://h/?${text.replace(/#/g, "%23")}`;
  try {
    return new URL(marked).search.slice(1);
  } catch {
    return encodeURIComponent(text);
  }
}

/** As the URL parser writes the text in a path. */
function pathForm(text: string): string {
  try {
    return new URL(`http://h/${text.replace(/[?#]/g, (c) => encodeURIComponent(c))}`).pathname.slice(1);
  } catch {
    return encodeURIComponent(text);
  }
}

/**
 * JSON's escapes with every character beyond ASCII as \uXXXX (as ensure_ascii writers give it), in lower or upper hex.
 */
function asciiJson(text: string, upper: boolean): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/g, (c) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    });
}

/**
 * Each form of `secret` paired with the same form of the placeholder: the
 * encodings above, each in upper and lower hex, and each applied twice over
 * (a JSON body sent in a URL, a URL echoed in a JSON body), longest first.
 */
export function formsOf(secret: string): { form: string; placeholder: string }[] {
  const pairs = new Map<string, string>([[secret, REDACTED]]);
  let layer: [string, string][] = [[secret, REDACTED]];
  for (let depth = 0; depth < 2; depth++) {
    const next: [string, string][] = [];
    for (const [text, placeholder] of layer) {
      for (const encode of ENCODINGS) {
        for (const hex of [(t: string) => t, upperHex, lowerHex]) {
          const form = hex(encode(text));
          if (!pairs.has(form)) {
            const pair: [string, string] = [form, hex(encode(placeholder))];
            pairs.set(...pair);
            next.push(pair);
          }
        }
      }
    }
    layer = next;
  }
  return [...pairs].map(([form, placeholder]) => ({ form, placeholder })).sort((a, b) => b.form.length - a.form.length);
}
