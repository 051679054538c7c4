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

