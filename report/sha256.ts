// The hash a manifest names its bundle, source map and sources by.

import { createHash } from "node:crypto";

export function sha256(text: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}
