// Source maps: Base64 VLQ encoding of decoded mappings (the Source Map v3
// format), and a readable dump of them for tests.

export type Segment = [generatedColumn: number, source: number, line: number, column: number];

export interface SourceMapV3 {
  version: 3;
  file?: string;
  sources: string[];
  sourcesContent?: (string | null)[];
  names: string[];
  mappings: string;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function vlq(value: number): string {
  let v = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = "";
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += BASE64[digit];
  } while (v > 0);
  return out;
}

/** Encodes mappings given line by line; every field is relative to the one before, as the format asks. */
export function encodeMappings(lines: readonly (readonly Segment[])[]): string {
  let source = 0;
  let line = 0;
  let column = 0;
  return lines
    .map((segments) => {
      let generated = 0;
      return segments
        .map(([g, s, l, c]) => {
          const out = vlq(g - generated) + vlq(s - source) + vlq(l - line) + vlq(c - column);
          generated = g;
          source = s;
          line = l;
          column = c;
          return out;
        })
        .join(",");
    })
    .join(";");
}

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
  return out.join("\n") + "\n";
}
