// The hash a manifest names its bundle, source map and sources by, and the code hash's
// (compiler/hash/code-form.ts). In Node, node:crypto's, taken through process.getBuiltinModule
// so that no import names a Node module: the compiler's program API is bundled for a browser
// too (spec/view.md, section 8), where this falls back to the SHA-256 of sha256-pure.ts. The
// two agree on every input (tests/sha256.test.ts); node:crypto's is about seven times faster
// (3 MB: 2.5 ms against 18 ms), and a bundle is hashed on every run's path.

import { PureSha256 } from "./sha256-pure.js";

/** A SHA-256 fed in parts. */
export interface Sha256 {
  update(data: string | Uint8Array): Sha256;
  /** The hash in lowercase hexadecimal; once. */
  digestHex(): string;
}

interface NodeCrypto {
  createHash(algorithm: "sha256"): {
    update(data: string | Uint8Array): unknown;
    digest(encoding: "hex"): string;
  };
}

/** node:crypto when this runs in Node, undefined in a browser. */
const nodeCrypto: NodeCrypto | undefined = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;

/** A new SHA-256: node:crypto's in Node, the pure one elsewhere (or when `pure` is asked, for the tests). */
export function sha256Hasher(pure = false): Sha256 {
  if (pure || nodeCrypto === undefined) return new PureSha256();
  const hash = nodeCrypto.createHash("sha256");
  const hasher: Sha256 = {
    update(data) {
      hash.update(data);
      return hasher;
    },
    digestHex: () => hash.digest("hex"),
  };
  return hasher;
}

/** `sha256:` and the hash of `text` (a text is hashed as its UTF-8 bytes). */
export function sha256(text: string | Uint8Array): string {
  return `sha256:${sha256Hasher().update(text).digestHex()}`;
}
