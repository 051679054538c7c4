// The part of @babel/generator's API the lowering uses (the package ships no types).
declare module "@babel/generator" {
  import type { Node } from "@babel/types";
  export interface GeneratorResult {
    code: string;
    decodedMap?: { mappings: [number, number, number, number, number?][][]; sources: string[]; names: string[] };
    map?: { mappings: string; sources: string[]; sourcesContent?: string[] };
  }
  export interface GeneratorOptions {
    sourceMaps?: boolean;
    sourceFileName?: string;
    retainLines?: boolean;
    compact?: boolean;
    comments?: boolean;
  }
  const generate: (ast: Node, options?: GeneratorOptions, code?: string | Record<string, string>) => GeneratorResult;
  export default generate;
}
