// SHA-256 (FIPS 180-4) in plain JavaScript, synchronous, for where Node's crypto is not: the
// compiler and the runtime bundled for a browser (spec/view.md, section 8). In Node the hash is
// node:crypto's, several times faster (sha256.ts chooses); the two are held to each other by
// tests/sha256.test.ts over random inputs of every length around a block's edges.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const encoder = new TextEncoder();

/** A SHA-256 fed in parts: `update` as often as needed, then `digest` once. */
export class PureSha256 {
  private readonly h = new Int32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  private readonly w = new Int32Array(64);
  /** The bytes of a block not yet full. */
  private readonly block = new Uint8Array(64);
  private held = 0;
  /** Bytes fed in all (a double: exact to 2^53). */
  private length = 0;
  private done = false;

  update(data: string | Uint8Array): this {
    if (this.done) throw new Error("the hash was already digested");
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    this.length += bytes.length;
    let at = 0;
    if (this.held > 0) {
      const take = Math.min(64 - this.held, bytes.length);
      this.block.set(bytes.subarray(0, take), this.held);
      this.held += take;
      at = take;
      if (this.held < 64) return this;
      this.compress(this.block, 0);
      this.held = 0;
    }
    for (; at + 64 <= bytes.length; at += 64) this.compress(bytes, at);
    if (at < bytes.length) {
      this.block.set(bytes.subarray(at), 0);
      this.held = bytes.length - at;
    }
    return this;
  }

  /** The hash in lowercase hexadecimal. */
  digestHex(): string {
    if (this.done) throw new Error("the hash was already digested");
    this.done = true;
    const bits = this.length * 8;
    const block = this.block;
    block[this.held++] = 0x80;
    if (this.held > 56) {
      block.fill(0, this.held);
      this.compress(block, 0);
      this.held = 0;
    }
    block.fill(0, this.held);
    // The length in bits, big-endian, in the last 8 bytes: its high word from the double's upper part.
    const high = Math.floor(bits / 0x100000000);
    const low = bits >>> 0;
    block[56] = high >>> 24;
    block[57] = high >>> 16;
    block[58] = high >>> 8;
    block[59] = high;
    block[60] = low >>> 24;
    block[61] = low >>> 16;
    block[62] = low >>> 8;
    block[63] = low;
    this.compress(block, 0);
    let hex = "";
    for (let i = 0; i < 8; i++) hex += (this.h[i]! >>> 0).toString(16).padStart(8, "0");
    return hex;
  }

  private compress(bytes: Uint8Array, at: number): void {
    const w = this.w;
    for (let i = 0; i < 16; i++, at += 4)
      w[i] = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    const h = this.h;
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let k = h[7]!;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (k + s1 + ch + K[i]! + w[i]!) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + k) | 0;
  }
}

/** The SHA-256 of `data` (a text is hashed as its UTF-8 bytes), in lowercase hexadecimal. */
export function pureSha256Hex(data: string | Uint8Array): string {
  return new PureSha256().update(data).digestHex();
}
