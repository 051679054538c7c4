// The `bytes` module (spec/library.md, "bytes"). A Bytes is a Uint8Array.

/** Its length is held, not counted: no work to charge. */
export const length = (bytes: Uint8Array): number => bytes.length;
