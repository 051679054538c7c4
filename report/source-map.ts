// Reading a source map (the Source Map v3 format's Base64 VLQ mappings): what
// shows a crash at its .ry place, from a bundle's map, whether the run was
// `renyi run`'s or Node's own. The compiler writes maps (compiler/emit/sourcemap.ts).

export type Segment = [generatedColumn: number, source: number, line: number, column: number];

export interface SourceMapV3 {
  version: 3;
  file?: string;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
}

export const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function decodeVlq(text: string): number[][][] {
  return text.split(";").map((line) =>
    line === ""
      ? []
      : line.split(",").map((segment) => {
          const values: number[] = [];
          let shift = 0;
          let value = 0;
          for (const ch of segment) {
            const digit = BASE64.indexOf(ch);
            value += (digit & 31) << shift;
            if (digit & 32) shift += 5;
            else {
              values.push(value & 1 ? -(value >>> 1) : value >>> 1);
              value = 0;
              shift = 0;
            }
          }
          return values;
        }),
  );
}

const DIGITS = (() => {
  const digits = new Int8Array(128).fill(-1);
  for (let i = 0; i < BASE64.length; i++) digits[BASE64.charCodeAt(i)] = i;
  return digits;
})();

/**
 * Reads a mappings text segment by segment, without an array per segment (a
 * bundle's map has millions): `each` gets the generated line and every field made
 * absolute, and how many fields the segment has (1: a generated column alone,
 * whose other fields are -1; 4, or 5 with a name). False, and nothing more read,
 * for a text that is not well formed: a character outside Base64, a value cut
 * short or of more than six digits (past 2^29, far beyond any line or column
 * the compiler writes), a segment of 2, 3 or more than 5 fields.
 */
export function forEachSegment(
  mappings: string,
  each: (line: number, generated: number, source: number, srcLine: number, column: number, fields: number) => void,
): boolean {
  let line = 0;
  let generated = 0;
  let source = 0;
  let srcLine = 0;
  let column = 0;
  const fields = [0, 0, 0, 0, 0];
  let count = 0;
  let value = 0;
  let shift = 0;
  const end = (): boolean => {
    if (shift !== 0) return false;
    if (count === 0) return true;
    if (count !== 1 && count !== 4 && count !== 5) return false;
    generated += fields[0]!;
    if (count === 1) each(line, generated, -1, -1, -1, 1);
    else {
      source += fields[1]!;
      srcLine += fields[2]!;
      column += fields[3]!;
      each(line, generated, source, srcLine, column, count);
    }
    count = 0;
    return true;
  };
  for (let i = 0; i < mappings.length; i++) {
    const code = mappings.charCodeAt(i);
    if (code === 59 || code === 44) {
      // ';' ends a line (the generated column starts again from 0), ',' a segment.
      if (!end()) return false;
      if (code === 59) {
        line++;
        generated = 0;
      }
      continue;
    }
    const digit = code < 128 ? DIGITS[code]! : -1;
    if (digit < 0 || shift > 25) return false;
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      if (count === 5) return false;
      fields[count++] = value & 1 ? -(value >>> 1) : value >>> 1;
      value = 0;
      shift = 0;
    }
  }
  return end();
}

/** Absolute mappings of a v3 map: for each generated line, [column, source, line, column], all 0-based. */
export function decodeMappings(map: SourceMapV3): Segment[][] {
  let source = 0;
  let line = 0;
  let column = 0;
  return decodeVlq(map.mappings).map((segments) => {
    let generated = 0;
    return segments
      .filter((s) => s.length >= 4)
      .map((s) => {
        generated += s[0]!;
        source += s[1]!;
        line += s[2]!;
        column += s[3]!;
        return [generated, source, line, column] as Segment;
      });
  });
}
