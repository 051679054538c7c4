// Runs one bundle's main in this process under each call depth limit given, for
// tests/depth.test.ts: `node depth-runner.js BUNDLE DEPTH...`. After each run it
// writes the limit, the outcome, its code, the compiled function it stopped in
// (the first of its stack) and the steps it took.

import { pathToFileURL } from "node:url";

interface Outcome {
  readonly outcome: string;
  readonly code?: string;
  readonly site?: string;
  readonly stack?: string;
  readonly steps?: number;
}
type RunMain = (
  program: Record<string, unknown>,
  config: { argv: readonly string[]; limits: { maxDepth: number } },
) => Promise<Outcome>;

const [bundle, ...depths] = process.argv.slice(2);
// A specifier in a variable: the runtime is the package's own export, which has no type declarations.
const RUNTIME = "renyi/runtime";
const { runMain } = (await import(RUNTIME)) as { runMain: RunMain };
const program = (await import(pathToFileURL(bundle!).href)) as Record<string, unknown>;

for (const depth of depths) {
  const o = await runMain(program, { argv: [], limits: { maxDepth: Number(depth) } });
  // The stack's first line of the program's own code: `at case0$down (...)`.
  const place = /at (\w+\$\w+) /.exec(o.stack ?? "")?.[1] ?? "";
  process.stdout.write(`-- depth ${depth}: ${o.outcome} ${o.code ?? ""} in ${place} steps ${o.steps}\n`);
}
