// `renyic keygen --out NAME`: an Ed25519 key pair for signing manifests, as
// minisign and signify make theirs: NAME.key (the private key, readable by its
// owner only) and NAME.pub (the public key, to hand to whoever runs the bundles).
// Neither file is ever overwritten: a key replaced by accident is a key lost.

import { generateKeyPairSync } from "node:crypto";
import { linkSync, unlinkSync, writeFileSync } from "node:fs";
import { EXIT } from "../../vocabulary/outcomes.js";
import { keyId, showKey } from "../bundles/signing.js";

export function keygenCommand(options: { out?: string }): number {
  if (options.out === undefined || options.out === "") {
    process.stderr.write(
      "error: `renyic keygen` needs --out NAME: `renyic keygen --out release` writes release.key and release.pub\n",
    );
    return EXIT.refused;
  }
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const secret = privateKey.export({ format: "pem", type: "pkcs8" }) as string;
  const shared = publicKey.export({ format: "pem", type: "spki" }) as string;
  const made: string[] = [];
  try {
    for (const [path, text, mode] of [
      [`${options.out}.key`, secret, 0o600],
      [`${options.out}.pub`, shared, 0o644],
    ] as const) {
      writeWholeAndNew(path, text, mode);
      made.push(path);
    }
  } catch (e) {
    for (const path of made) unlinkSync(path);
    const code = (e as NodeJS.ErrnoException).code;
    process.stderr.write(
      `error: I cannot write the key pair ${options.out}.key and ${options.out}.pub (${code === "EEXIST" ? "a file of that name is already there, and keys are never overwritten" : (code ?? String(e))})\n`,
    );
    return EXIT.refused;
  }
  process.stdout.write(
    `${showKey(keyId(publicKey))}: wrote ${options.out}.key (keep it private) and ${options.out}.pub\n`,
  );
  return EXIT.finished;
}

/**
 * Written whole to a temporary file with its mode from the start, then linked
 * to its name, which fails if the name is taken: never half a key, never a key
 * over another.
 */
function writeWholeAndNew(path: string, text: string, mode: number): void {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, text, { mode, flag: "wx" });
  try {
    linkSync(temporary, path);
  } finally {
    unlinkSync(temporary);
  }
}
