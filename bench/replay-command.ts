// bench/replay (the whole command): `renyi run --replay REC prog.ry` from file to exit, against the same program run
// live, each a process of its own. Two programs, recorded once at each size: one that makes `n` http.get calls to a
// node:http stand-in on 127.0.0.1 (each answered with a small JSON body), and one that makes `n` environment.get
// calls (a call the host answers in microseconds, so that the replay's reading and answering are the whole of
// its cost above the program's own). Caveats: wall-clock time from spawn to exit (a child's CPU time is not
// reported by Node), the runs of one round in turn, ROUNDS rounds (3 unless told), medians; the machine is shared,
// so the ratios measured side by side in one run are the figures to compare, not the milliseconds.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RENYI = fileURLToPath(new URL("../cli/renyi.cjs", import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const HTTP_PROGRAM = `public function main(base: Text, count: Int = 10)
  purpose: Fetch many pages and add up their lengths.
  needs console, network.http("127.0.0.1")
  var total be 0
  for each i in 1 to count
    let page be http.get("{base}/items?page={i}") otherwise crash with "no"
    set total to total + page.body.length()
  end
  console.print("{total}")
end
`;

const ENVIRONMENT_PROGRAM = `public function main(count: Int = 10)
  purpose: Look up many variables and add up the lengths of their values.
  needs console, environment
  var total be 0
  for each i in 1 to count
    let value be optional.or_else(environment.get("BENCH_VARIABLE_{i}"), "")
    set total to total + value.length()
  end
  console.print("{total}")
end
`;

/** Milliseconds from spawn to exit of `renyi ARGS`; a run that does not finish is the bench's error. */
function timed(work: string, args: readonly string[]): Promise<number> {
  const began = performance.now();
  const child = spawn(process.execPath, [RENYI, ...args], {
    cwd: work,
    env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) =>
    child.on("exit", (status) =>
      status === 0 ? resolve(performance.now() - began) : reject(new Error(`renyi ${args.join(" ")}: ${stderr}`)),
    ),
  );
}

/** One program at one size: the medians of its live runs and of its replays. */
export interface WholeCommandFigure {
  readonly calls: number;
  readonly kind: string;
  readonly liveMs: number;
  readonly replayedMs: number;
  readonly megabytes: number;
}

export async function measureWholeCommand(sizes: readonly number[], rounds: number): Promise<WholeCommandFigure[]> {
  const work = mkdtempSync(join(tmpdir(), "renyi-bench-replay-"));
  const server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ items: [{ id: 1, name: `item ${req.url}`, price: 1.5 }], next: 2 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    writeFileSync(join(work, "pages.ry"), HTTP_PROGRAM);
    writeFileSync(join(work, "variables.ry"), ENVIRONMENT_PROGRAM);
    const kinds = [
      { name: "http.get to 127.0.0.1", file: "pages.ry", args: (n: number) => ["--base", base, "--count", String(n)] },
      { name: "environment.get", file: "variables.ry", args: (n: number) => ["--count", String(n)] },
    ];
    const cases = sizes.flatMap((n) => kinds.map((kind) => ({ n, kind, recording: `${kind.file}.${n}.json` })));
    for (const c of cases) {
      await timed(work, ["record", "--to", c.recording, c.kind.file, ...c.kind.args(c.n)]);
    }
    const live = cases.map(() => [] as number[]);
    const replayed = cases.map(() => [] as number[]);
    for (let round = 0; round < rounds; round++) {
      for (const [i, c] of cases.entries()) {
        live[i]!.push(await timed(work, ["run", c.kind.file, ...c.kind.args(c.n)]));
        replayed[i]!.push(await timed(work, ["run", "--replay", c.recording, c.kind.file, ...c.kind.args(c.n)]));
      }
    }
    const figures: WholeCommandFigure[] = [];
    for (const [i, c] of cases.entries()) {
      const megabytes = statSync(join(work, c.recording)).size / 1e6;
      const [l, r] = [median(live[i]!), median(replayed[i]!)];
      figures.push({ calls: c.n, kind: c.kind.name, liveMs: l, replayedMs: r, megabytes });
      console.log(
        `${c.n.toLocaleString("en").padStart(6)} calls of ${c.kind.name} (recording ${megabytes.toFixed(1)} MB): ` +
          `live ${l.toFixed(0)} ms, replayed ${r.toFixed(0)} ms, the replay ×${(r / l).toFixed(2)} of live ` +
          `(${((r * 1000) / c.n).toFixed(1)} µs a replayed call, start-up included)`,
      );
    }
    return figures;
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
