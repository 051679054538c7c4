// Source maps: Base64 VLQ encoding of decoded mappings (the Source Map v3
// format), and a readable dump of them for tests. Decoding lives in
// report/source-map.ts, which shows a crash at its .ry place at run time.

import { BASE64, decodeMappings, type Segment, type SourceMapV3 } from "../../report/source-map.js";

export { decodeMappings, forEachSegment, type Segment, type SourceMapV3 } from "../../report/source-map.js";

const BASE64_CODES = Uint8Array.from(BASE64, (ch) => ch.charCodeAt(0));
const SEMICOLON = 59;
const COMMA = 44;

/**
 * Writes mappings as they are made, line by line, straight into their encoded
 * bytes: every field relative to the one before, as the format asks. (A
 * bundle's map has about three segments for each line of Renyi: no array of
 * segments, and no string per character, is built on the way.)
 */
export class MappingsWriter {
  // Grown by doubling; a part of a module (about 20 top-level statements) needs a few kilobytes.
  private bytes = new Uint8Array(1 << 12);
  private length = 0;
  private source = 0;
  private line = 0;
  private column = 0;
  private generated = 0;
  private first = true;

  /** Ends the current generated line; the next segment starts the next. */
  nextLine(): void {
    this.skipLines(1);
  }

  /** Ends `count` generated lines. */
  skipLines(count: number): void {
    if (count <= 0) return;
    this.reserve(count);
    this.bytes.fill(SEMICOLON, this.length, this.length + count);
    this.length += count;
    this.generated = 0;
    this.first = true;
  }

  segment(generatedColumn: number, source: number, line: number, column: number): void {
    // Four fields of at most seven digits each (32-bit values), and a comma.
    this.reserve(29);
    if (!this.first) this.bytes[this.length++] = COMMA;
    this.first = false;
    this.vlq(generatedColumn - this.generated);
    this.vlq(source - this.source);
    this.vlq(line - this.line);
    this.vlq(column - this.column);
    this.generated = generatedColumn;
    this.source = source;
    this.line = line;
    this.column = column;
  }

  toString(): string {
    return new TextDecoder("latin1").decode(this.bytes.subarray(0, this.length));
  }

  private reserve(count: number): void {
    if (this.length + count <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + count));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  private vlq(value: number): void {
    let v = value < 0 ? (-value << 1) | 1 : value << 1;
    do {
      let digit = v & 31;
      v >>>= 5;
      if (v > 0) digit |= 32;
      this.bytes[this.length++] = BASE64_CODES[digit]!;
    } while (v > 0);
  }
}

/** Encodes mappings given line by line. */
export function encodeMappings(lines: readonly (readonly Segment[])[]): string {
  const writer = new MappingsWriter();
  lines.forEach((segments, index) => {
    if (index > 0) writer.nextLine();
    for (const [g, s, l, c] of segments) writer.segment(g, s, l, c);
  });
  return writer.toString();
}

/**
 * A readable dump of a map against the code it maps:
 *   3:9 `iadd(` -> weather.ry:4:12
 * one line per mapping, generated and original positions 1-based.
 */
export function dumpMappings(code: string, map: SourceMapV3): string {
  const codeLines = code.split("\n");
  const out: string[] = [];
  decodeMappings(map).forEach((segments, i) => {
    segments.forEach(([g, s, l, c], k) => {
      const end = segments[k + 1]?.[0] ?? codeLines[i]!.length;
      const text = codeLines[i]!.slice(g, Math.min(end, g + 24)).trimEnd();
      out.push(`${i + 1}:${g + 1} \`${text}\` -> ${map.sources[s]}:${l + 1}:${c + 1}`);
    });
  });
  return `${out.join("\n")}\n`;
}
