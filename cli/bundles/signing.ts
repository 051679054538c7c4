// Signed manifests (spec/security.md, "Bundles and their manifests"): an
// Ed25519 signature over the manifest file's bytes, in a detached file
// NAME.grant.sig, made by `renyic build --sign KEY` and checked by
// `renyi run --trust PUBKEY`. Keys are PEM files (PKCS #8 and SPKI), as
// `renyic keygen` writes them and as `openssl genpkey -algorithm ed25519` does.

import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { readBounded } from "../../report/read-bounded.js";

/**
 * What is signed: this label, then the manifest's bytes. The label keeps a
 * signature over a manifest from being taken for a signature over anything
 * else the same key may one day sign.
 */
const LABEL = "renyi grant manifest v1\n";
const SIGNATURE_LINE = /^renyi-signature-v1 ed25519 ([0-9a-f]{16}) ([A-Za-z0-9+/]{86}==)\n$/;
const KEY_LIMIT = 16 * 1024;

export interface TrustedKey {
  readonly id: string;
  readonly key: KeyObject;
  readonly file: string;
}

/** A short name for a public key: `ed25519:` and the first 16 hex digits of the SHA-256 of its 32 bytes. */
export function keyId(key: KeyObject): string {
  const raw = Buffer.from(key.export({ format: "jwk" }).x!, "base64url");
  return createHash("sha256").update(raw).digest("hex").slice(0, 16);
}

export function showKey(id: string): string {
  return `ed25519:${id}`;
}

function readPem(file: string, what: string): { ok: true; text: string } | { ok: false; problem: string } {
  const read = readBounded(file, KEY_LIMIT);
  if (!read.ok) return { ok: false, problem: `I cannot read the ${what} ${file}: ${read.why}` };
  return { ok: true, text: read.bytes.toString("latin1") };
}

export function readPrivateKey(
  file: string,
): { ok: true; key: KeyObject; id: string } | { ok: false; problem: string } {
  const pem = readPem(file, "signing key");
  if (!pem.ok) return pem;
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem.text, format: "pem" });
  } catch {
    return {
      ok: false,
      problem: `${file} is not an unencrypted PEM private key; make one with \`renyic keygen --out NAME\``,
    };
  }
  if (key.asymmetricKeyType !== "ed25519")
    return {
      ok: false,
      problem: `${file} is a ${key.asymmetricKeyType ?? "unknown"} key; manifests are signed with Ed25519 keys`,
    };
  return { ok: true, key, id: keyId(createPublicKey(key)) };
}

export function readPublicKey(file: string): { ok: true; key: TrustedKey } | { ok: false; problem: string } {
  const pem = readPem(file, "public key");
  if (!pem.ok) return pem;
  // createPublicKey would take a private key too, and derive its public half; a private key
  // handed to --trust is a key in the wrong place, which is said rather than used.
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem.text))
    return {
      ok: false,
      problem:
        `${file} holds a private key; --trust takes the public key (NAME.pub), and the private key should stay ` +
        `with its owner`,
    };
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem.text, format: "pem" });
  } catch {
    return { ok: false, problem: `${file} is not a PEM public key` };
  }
  if (key.asymmetricKeyType !== "ed25519")
    return {
      ok: false,
      problem: `${file} is a ${key.asymmetricKeyType ?? "unknown"} key; manifests are signed with Ed25519 keys`,
    };
  return { ok: true, key: { id: keyId(key), key, file } };
}

/** The detached signature file's text: one line, the key's id and the signature. */
export function signManifest(manifest: Uint8Array, key: KeyObject, id: string): string {
  const signature = sign(null, Buffer.concat([Buffer.from(LABEL), manifest]), key);
  return `renyi-signature-v1 ed25519 ${id} ${signature.toString("base64")}\n`;
}

/**
 * Whether the manifest's bytes are signed by one of the trusted keys. Checked
 * before the manifest is parsed: under --trust, bytes nobody trusted signed
 * never reach the JSON reader.
 */
export function verifyManifest(
  manifest: Uint8Array,
  signatureFile: string,
  trusted: readonly TrustedKey[],
): { ok: true; key: TrustedKey } | { ok: false; problem: string } {
  const names = trusted.map((k) => showKey(k.id)).join(", ");
  const read = readBounded(signatureFile, 1024);
  if (!read.ok) {
    return {
      ok: false,
      problem: read.missing
        ? `the manifest is not signed (there is no ${signatureFile}), and --trust asks for a signature by ${names}`
        : `I cannot read the signature ${signatureFile}: ${read.why}`,
    };
  }
  const m = SIGNATURE_LINE.exec(read.bytes.toString("latin1"));
  if (m === null)
    return {
      ok: false,
      problem: `${signatureFile} is not a signature file: one line, \`renyi-signature-v1 ed25519 KEYID SIGNATURE\``,
    };
  // Every trusted key of that id is tried: two keys whose ids are equal are unlikely, not impossible.
  const candidates = trusted.filter((k) => k.id === m[1]);
  if (candidates.length === 0)
    return {
      ok: false,
      problem: `the manifest is signed by ${showKey(m[1]!)}, which is not a key --trust names (${names})`,
    };
  const signature = Buffer.from(m[2]!, "base64");
  const message = Buffer.concat([Buffer.from(LABEL), manifest]);
  const key = signature.length === 64 ? candidates.find((k) => verify(null, message, k.key, signature)) : undefined;
  if (key === undefined) {
    return {
      ok: false,
      problem:
        `the manifest's signature by ${showKey(m[1]!)} does not verify: the manifest was changed after it was ` +
        `signed, or the signature is damaged`,
    };
  }
  return { ok: true, key };
}
