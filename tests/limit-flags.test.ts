// Every limit is set from the command line (`renyi run --fuel N ...`), and the
// same limits from the environment when a bundle is run with `node NAME.mjs`
// (RENYI_FUEL, ...), read by the runtime's entry (rtlib/entry.ts), never by the
// program. Each limit is hit by a small program, run both ways, which runs to
// its end without the limit; a value that is not a limit is refused (exit 3).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT } from "./golden.js";
import { RENYI } from "./support.js";
import { buildCommand } from "../cli/commands/build.js";

// Inside the package, so that node resolves renyi/runtime.
const work = join(ROOT, "tmp", `limit-flags-${process.pid}`);
after(() => rmSync(work, { recursive: true, force: true }));

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runChild(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: work,
      env: { ...process.env, RENYI_CACHE_DIR: join(work, "cache"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const PROGRAMS: Record<string, string> = {
  loop: `public function main()
  purpose: Count to a million.
  needs console
  var i be 0
  while i < 1000000
    set i to i + 1
  end
  console.print(i.to_text())
end
`,
  deep: `function down(n: Int) returns Int
  if n is 0 then
    return 0
  end
  return down(n - 1) + 1
end

public function main()
  purpose: Recurse a hundred times.
  needs console
  console.print(down(100).to_text())
end
`,
  numbers: `public function main()
  purpose: Build a list of two thousand numbers.
  needs console
  console.print(list.length(list.range(0, 2000)).to_text())
end
`,
  long: `public function main()
  purpose: Build a text of two thousand characters.
  needs console
  console.print(text.length(text.repeat("ab", 1000)).to_text())
end
`,
  reads: `function attempt(path: Text) returns Text
  needs filesystem.read("data")
  let content be filesystem.read_text(path) otherwise
    when other then return "not read: {other}"
  end
  return content.length().to_text()
end

public function main()
  purpose: Read a file of two thousand bytes.
  needs console, filesystem.read("data")
  console.print(attempt("data/big.txt"))
end
`,
  prints: `public function main()
  purpose: Print fifty lines.
  needs console
  for each i in 1 to 50
    console.print(i.to_text())
  end
end
`,
  memory: `public function main()
  purpose: Hold ten lists of a million numbers.
  needs console
  var kept be []
  for each i in 1 to 10
    set kept to kept + [list.range(0, 1000000)]
  end
  console.print(list.length(kept).to_text())
end
`,
  forever: `public function main()
  purpose: Count for ever.
  needs console
  var i be 0
  while true
    set i to i + 1
  end
end
`,
};

before(async () => {
  mkdirSync(join(work, "data"), { recursive: true });
  writeFileSync(join(work, "data", "big.txt"), "x".repeat(2000));
  for (const [name, source] of Object.entries(PROGRAMS)) {
    writeFileSync(join(work, `${name}.ry`), source);
    assert.equal(await buildCommand(join(work, `${name}.ry`), { out: work }), 0, `renyic build ${name}`);
  }
});

interface Case {
  readonly program: string;
  readonly option: string;
  readonly value: string;
  /** What the run prints without the limit. */
  readonly unlimited: RegExp;
  /** How it ends under the limit. */
  readonly status: number;
  readonly limited: { readonly stdout?: RegExp; readonly stderr?: RegExp };
}

const CASES: readonly Case[] = [
  {
    program: "loop",
    option: "--fuel",
    value: "1000",
    unlimited: /^1000000\n$/,
    status: 2,
    limited: {
      stderr: /^error\[E-RT-FUEL\]: the program used all of its 1,000 steps of fuel \(--fuel N gives more\)\n/,
    },
  },
  {
    program: "deep",
    option: "--max-depth",
    value: "10",
    unlimited: /^100\n$/,
    status: 2,
    limited: { stderr: /^error\[E-RT-DEPTH\]: calls nested deeper than 10 \(--max-depth N allows more\)\n/ },
  },
  {
    program: "numbers",
    option: "--max-collection",
    value: "1000",
    unlimited: /^2000\n$/,
    status: 2,
    limited: {
      stderr:
        /^error\[E-RT-LIMIT-COLLECTION\]: list.range would build 2,000 elements, more than the limit of 1,000 \(--max-collection N allows more, up to 10,000,000\)\n/,
    },
  },
  {
    program: "long",
    option: "--max-text",
    value: "1000",
    unlimited: /^2000\n$/,
    status: 2,
    limited: {
      stderr:
        /^error\[E-RT-LIMIT-COLLECTION\]: text.repeat would build a text of 2,000 characters, more than the limit of 1,000 \(--max-text N allows more, up to 67,108,864\)\n/,
    },
  },
  // Data coming in is held to the text limit too: the read stops there and fails as the module fails.
  {
    program: "reads",
    option: "--max-text",
    value: "1000",
    unlimited: /^2000\n$/,
    status: 0,
    limited: {
      stdout:
        /^not read: FileError.Failed\(path: "data\/big.txt", reason: ".*passed the limit of 1,000 bytes for data coming in"\)\n$/,
    },
  },
  {
    program: "prints",
    option: "--max-host-calls",
    value: "10",
    unlimited: /^1\n(.*\n){48}50\n$/,
    status: 2,
    limited: {
      stdout: /^1\n(.*\n){8}10\n$/,
      stderr:
        /^error\[E-RT-LIMIT-HOST-CALLS\]: the program made more than 10 calls to the outside world \(--max-host-calls N allows more\)\n/,
    },
  },
  {
    program: "prints",
    option: "--max-output-lines",
    value: "5",
    unlimited: /^1\n(.*\n){48}50\n$/,
    status: 0,
    limited: {
      stdout:
        /^1\n2\n3\n4\n5\n\[output truncated: the program printed more than 5 lines or 4 MiB \(--max-output-lines, --max-output-bytes\)\]\n$/,
    },
  },
  {
    program: "prints",
    option: "--max-output-bytes",
    value: "20",
    unlimited: /^1\n(.*\n){48}50\n$/,
    status: 0,
    limited: {
      stdout:
        /^1\n(.*\n){7}9\n\[output truncated: the program printed more than 10,000 lines or 20 bytes \(--max-output-lines, --max-output-bytes\)\]\n$/,
    },
  },
];

/** `RENYI_MAX_HOST_CALLS` for `--max-host-calls`. */
const variable = (option: string): string => `RENYI_${option.slice(2).toUpperCase().replace(/-/g, "_")}`;

for (const c of CASES) {
  test(`${c.option} ${c.value} is honoured by renyi run and, as ${variable(c.option)}, by node ${c.program}.mjs`, async () => {
    // Without the limit the program runs to its end (once, for the first case of each program); renyi run NAME.mjs
    // takes the options too (once, for --fuel).
    const first = CASES.find((other) => other.program === c.program) === c;
    const runs: [string, Promise<Ran>][] = [
      ["renyi run FILE.ry", runChild([RENYI, "run", c.option, c.value, `${c.program}.ry`])],
      ["node NAME.mjs", runChild([`${c.program}.mjs`], { [variable(c.option)]: c.value })],
      ...(c.option === "--fuel"
        ? [
            ["renyi run NAME.mjs", runChild([RENYI, "run", `${c.option}=${c.value}`, `${c.program}.mjs`])] as [
              string,
              Promise<Ran>,
            ],
          ]
        : []),
    ];
    const free = first ? await runChild([`${c.program}.mjs`]) : undefined;
    if (free !== undefined) {
      assert.equal(free.status, 0, free.stderr);
      assert.match(free.stdout, c.unlimited);
    }
    for (const [way, running] of runs) {
      const ran = await running;
      assert.equal(ran.status, c.status, `${way}: ${ran.stderr}`);
      if (c.limited.stdout !== undefined) assert.match(ran.stdout, c.limited.stdout, way);
      if (c.limited.stderr !== undefined) assert.match(ran.stderr, c.limited.stderr, way);
      else assert.equal(ran.stderr, "", way);
    }
  });
}

test("--timeout is honoured by renyi run and, as RENYI_TIMEOUT, by node NAME.mjs: the run crashes at the limit, as it does out of fuel", async () => {
  for (const ran of await Promise.all([
    runChild([RENYI, "run", "--fuel", "900000000000000", "--timeout", "1", "forever.ry"]),
    runChild(["forever.mjs"], { RENYI_TIMEOUT: "1", RENYI_FUEL: "900000000000000" }),
  ])) {
    assert.equal(ran.status, 2, ran.stderr);
    assert.match(
      ran.stderr,
      /^error\[E-RT-TIMEOUT\]: the run reached its time limit of 1 s \(--timeout SECONDS allows more\)\n {2}--> forever\.ry:\d+:\d+\n[\s\S]*= note: in `main` of module `forever`\n$/,
    );
  }
});

test("--max-memory sets the live memory the program may keep, and RENYI_MAX_MEMORY the same for a bundle run with node", async () => {
  // (Without the option, the same program finishes: tests/values-limits.test.ts runs larger ones under the default
  // limit.)
  const runs = [
    runChild([RENYI, "run", "--max-memory", "64", "memory.ry"]),
    runChild([RENYI, "run", "--max-memory", "64", "memory.mjs"]),
    runChild(["memory.mjs"], { RENYI_MAX_MEMORY: "64" }),
  ];
  for (const limited of await Promise.all(runs)) {
    assert.equal(limited.status, 2, limited.stderr);
    assert.match(
      limited.stderr,
      /^error\[E-RT-LIMIT-MEMORY\]: the program kept \d+ MiB of memory live, more than its limit of 64 MiB \(--max-memory MIB allows more\)\n  --> memory\.ry:\d+:\d+\n/,
    );
  }
  writeFileSync(
    join(work, "memory_test.ry"),
    `test "ten lists of a million numbers"\n  var kept be []\n  for each i in 1 to 10\n` +
      `    set kept to kept + [list.range(0, 1000000)]\n  end\n  check list.length(kept) is 10\nend\n`,
  );
  const tested = await runChild([RENYI, "test", "--max-memory", "64", "memory_test.ry"]);
  assert.equal(tested.status, 1, tested.stdout);
  assert.match(
    tested.stdout,
    /error\[E-RT-LIMIT-MEMORY\]: the test kept \d+ MiB of memory live, more than its limit of 64 MiB \(renyi test --max-memory MIB allows more\)/,
  );
});

const OPTIONS = [
  "--fuel",
  "--max-depth",
  "--timeout",
  "--max-memory",
  "--max-collection",
  "--max-text",
  "--max-output-lines",
  "--max-output-bytes",
  "--max-host-calls",
  "--request-fuel",
  "--request-timeout",
];
const BAD = ["0", "-1", "x", "1.5", "1e3", "99999999999999999999", ""];

test("a value that is not a limit is refused, by renyi run's reader and by the runtime's entry", async () => {
  const { parseRunArguments } = await import("../cli/running/run-options.js");
  const { limitsFromEnvironment } = await import("../rtlib/entry.js");
  let cases = 0;
  for (const option of OPTIONS) {
    for (const value of BAD) {
      const parsed = parseRunArguments([`${option}=${value}`, "loop.ry"]);
      assert.ok(
        "problem" in parsed && parsed.problem === `${option} takes a whole number above 0`,
        `${option}=${value}`,
      );
      cases++;
      const env = limitsFromEnvironment({ [variable(option)]: value });
      assert.ok(
        "problem" in env &&
          env.problem.startsWith(`${variable(option)} (the limit ${option} sets) takes a whole number above 0`),
        `${variable(option)}=${value}`,
      );
      cases++;
    }
    // A good value is read, both ways.
    assert.ok("file" in parseRunArguments([option, "7", "loop.ry"]), option);
    assert.ok("limits" in limitsFromEnvironment({ [variable(option)]: "7" }), option);
  }
  // The size limits may be lowered, never raised: past them the engine's own limits come first.
  for (const [option, highest] of [
    ["--max-collection", "10,000,000"],
    ["--max-text", "67,108,864"],
  ] as const) {
    const parsed = parseRunArguments([option, "100000000", "loop.ry"]);
    assert.ok(
      "problem" in parsed && parsed.problem === `${option} may lower the limit, not raise it: at most ${highest}`,
    );
    const env = limitsFromEnvironment({ [variable(option)]: "100000000" });
    assert.ok("problem" in env && env.problem.endsWith(`may lower the limit, not raise it: at most ${highest}`));
    cases += 2;
  }
  console.log(`refused limit values: ${cases} cases`);
});

test("a refused limit ends renyi run and node NAME.mjs with exit 3 before the program runs", async () => {
  const [flag, env] = await Promise.all([
    runChild([RENYI, "run", "--max-host-calls", "0", "prints.ry"]),
    runChild(["prints.mjs"], { RENYI_MAX_HOST_CALLS: "lots" }),
  ]);
  assert.equal(flag.status, 3);
  assert.equal(flag.stderr, "error: --max-host-calls takes a whole number above 0\n");
  assert.equal(env.status, 3);
  assert.match(
    env.stderr,
    /RENYI_MAX_HOST_CALLS \(the limit --max-host-calls sets\) takes a whole number above 0, not "lots"/,
  );
  assert.equal(flag.stdout + env.stdout, "");
});

test("renyi test takes --max-collection, --max-text and --max-host-calls for each test, as renyi run does", async () => {
  writeFileSync(
    join(work, "sizes.ry"),
    `test "two thousand numbers"
  check list.length(list.range(0, 2000)) is 2000
end

test "a long text"
  check text.length(text.repeat("ab", 1000)) is 2000
end
`,
  );
  const free = await runChild([RENYI, "test", "sizes.ry"]);
  assert.equal(free.status, 0, free.stdout);
  const lowered = await runChild([
    RENYI,
    "test",
    "--max-collection",
    "1000",
    "--max-text",
    "1000",
    "--max-host-calls",
    "5",
    "sizes.ry",
  ]);
  assert.equal(lowered.status, 1);
  assert.match(
    lowered.stdout,
    /crashed two thousand numbers .*\n\s+error\[E-RT-LIMIT-COLLECTION\]: list.range would build 2,000 elements, more than the limit of 1,000 /,
  );
  assert.match(
    lowered.stdout,
    /crashed a long text .*\n\s+error\[E-RT-LIMIT-COLLECTION\]: text.repeat would build a text of 2,000 characters, more than the limit of 1,000 /,
  );
  for (const [option, value] of [
    ["--max-collection", "0"],
    ["--max-text", "100000000"],
    ["--max-host-calls", "x"],
  ]) {
    const refused = await runChild([RENYI, "test", option!, value!, "sizes.ry"]);
    assert.equal(refused.status, 3, `${option} ${value}`);
  }
});
