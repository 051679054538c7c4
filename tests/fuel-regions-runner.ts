// Runs one bundle's main several times in this process, under fuel chosen
// from its own count, for tests/fuel-regions.test.ts: `node
// fuel-regions-runner.js BUNDLE SEED`. First with fuel to spare, which gives
// the steps the run takes; then with exactly those steps, one fewer, and six
// amounts at random below them. After each run it writes the outcome, its code
// and the steps counted.

import { pathToFileURL } from "node:url";
import { seeded } from "./support.js";

interface Outcome {
  readonly outcome: string;
  readonly code?: string;
  readonly steps?: number;
}
type RunMain = (
  program: Record<string, unknown>,
  config: { argv: readonly string[]; limits: { fuel: number } },
) => Promise<Outcome>;

const [bundle, seed] = process.argv.slice(2);
// A specifier in a variable: the runtime is the package's own export, which has no type declarations.
const RUNTIME = "renyi/runtime";
const { runMain } = (await import(RUNTIME)) as { runMain: RunMain };
const program = (await import(pathToFileURL(bundle!).href)) as Record<string, unknown>;

async function run(fuel: number): Promise<Outcome> {
  const outcome = await runMain(program, { argv: [], limits: { fuel } });
  process.stdout.write(`-- fuel ${fuel}: ${outcome.outcome} ${outcome.code ?? ""} steps ${outcome.steps}\n`);
  return outcome;
}

const whole = await run(1_000_000);
const steps = whole.steps ?? 0;
const random = seeded(Number(seed));
for (const fuel of [steps, steps - 1, ...Array.from({ length: 6 }, () => 1 + Math.floor(random() * steps))])
  if (fuel > 0) await run(fuel);
