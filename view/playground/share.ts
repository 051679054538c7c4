// A program shared as a link: its text in the address's fragment, which a browser never sends to
// a server. `#/playground?program=X` holds the text as UTF-8 compressed with deflate-raw
// (CompressionStream) and written in base64url; `#/playground?text=X` the UTF-8 in base64url
// alone, for a link written by hand or by a tool without deflate. Opening a link is bounded: a
// fragment over MAX_LINK_CHARACTERS, a text over MAX_PROGRAM_BYTES once inflated (read a chunk at
// a time, so a small link that inflates to gigabytes stops at the bound), or bytes that are not
// UTF-8 are refused with a message.

/** The most UTF-8 bytes of a program a link may hold, decoded: 1 MiB. */
export const MAX_PROGRAM_BYTES = 1024 * 1024;
/** The most characters of base64url a link's program may be written in (the text uncompressed fits). */
const MAX_LINK_CHARACTERS = Math.ceil((MAX_PROGRAM_BYTES * 4) / 3) + 4;

class LinkRefusal extends Error {}

/** The fragment that reopens `text`: `#/playground?program=...`. */
export async function linkFragment(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const compressed = await pump(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw")));
  return `#/playground?program=${toBase64Url(compressed)}`;
}

/** The program a link's query holds (`program=` or `text=`), or undefined when it holds none. */
export async function programOfLink(query: URLSearchParams): Promise<string | undefined> {
  const compressed = query.get("program");
  const plain = query.get("text");
  const written = compressed ?? plain;
  if (written === null) return undefined;
  if (written.length > MAX_LINK_CHARACTERS)
    throw new LinkRefusal(`the link's program is over ${MAX_PROGRAM_BYTES / 1024 / 1024} MiB: it is not opened`);
  const bytes = fromBase64Url(written);
  if (compressed === null) return utf8(bounded(bytes));
  let inflated: Uint8Array;
  try {
    inflated = await pump(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")));
  } catch (error) {
    if (error instanceof LinkRefusal) throw error;
    throw new LinkRefusal("the link's program is not deflate-compressed text: the link is damaged");
  }
  return utf8(inflated);
}

/** Every chunk of `stream`, joined; refused once over MAX_PROGRAM_BYTES (the stream is cancelled there). */
async function pump(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_PROGRAM_BYTES) {
      void reader.cancel().catch(() => {});
      throw new LinkRefusal(`the link's program is over ${MAX_PROGRAM_BYTES / 1024 / 1024} MiB: it is not opened`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

function bounded(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  if (bytes.byteLength > MAX_PROGRAM_BYTES)
    throw new LinkRefusal(`the link's program is over ${MAX_PROGRAM_BYTES / 1024 / 1024} MiB: it is not opened`);
  return bytes;
}

function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new LinkRefusal("the link's program is not UTF-8 text: the link is damaged");
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text))
    throw new LinkRefusal("the link's program is not base64url (A-Z, a-z, 0-9, - and _): the link is damaged");
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    throw new LinkRefusal("the link's program is not base64url: the link is damaged");
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
