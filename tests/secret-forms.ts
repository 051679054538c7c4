// The forms a secret can take in what Renyi writes (a recording, a tool's
// result), found independently of the code that keeps it out: the tests look
// for each of them.

/**
 * The secret as text in every encoding a test looks for: plain, percent (as the URL parser, encodeURIComponent and
 * forms write it, in either case of hex), JSON-escaped, with \uXXXX escapes, base64, base64url and hex.
 */
function secretForms(secret: string): string[] {
  const utf8 = Buffer.from(secret, "utf8");
  const forms = new Set<string>();
  const add = (form: string) => void (form.length > 0 && forms.add(form));
  add(secret);
  const percent = encodeURIComponent(secret);
  for (const p of [
    percent,
    percent.replace(/%20/g, "+"),
    new URLSearchParams({ k: secret }).toString().slice(2),
    new URL(`http://h/?k=${secret}`).search.slice(3),
    new URL(`http://h/${secret.replace(/[?#]/g, "")}`).pathname.slice(1),
  ]) {
    add(p);
    add(p.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  }
  add(JSON.stringify(secret).slice(1, -1));
  add(JSON.stringify(JSON.stringify(secret)).slice(3, -3));
  const ascii = JSON.stringify(secret)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  add(ascii);
  add(ascii.replace(/\\u[0-9a-f]{4}/g, (u) => `\\u${u.slice(2).toUpperCase()}`));
  for (const core of base64Cores(utf8)) {
    add(core);
    add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  add(utf8.toString("hex"));
  add(utf8.toString("hex").toUpperCase());
  return [...forms];
}

/**
 * The base64 characters that depend on the secret's bytes alone, at each of
 * the three alignments it can have inside a longer base64 text.
 */
function base64Cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let p = 0; p < 3; p++) {
    const encoded = Buffer.concat([Buffer.alloc(p), bytes, Buffer.alloc(3)]).toString("base64");
    const first = Math.ceil((8 * p) / 6);
    const last = Math.floor((8 * (p + bytes.length)) / 6);
    if (last - first >= 4) out.push(encoded.slice(first, last));
  }
  return out;
}

/** The forms of `secret` found in `text`, each with a little of what surrounds it. */
export function formsIn(text: string, secret: string): string[] {
  const found: string[] = [];
  for (const form of secretForms(secret)) {
    const at = text.indexOf(form);
    if (at >= 0) found.push(`${JSON.stringify(form)} in …${text.slice(Math.max(0, at - 40), at + form.length + 40)}…`);
  }
  return found;
}
