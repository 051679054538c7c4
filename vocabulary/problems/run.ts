// Every way a run can end other than finishing (E-RT-*), and Renyi's own
// fault (E-INTERNAL): the catalogue's run-time rows. The runtime imports this
// file alone, not the compile-time rows. A Crash is built from a code and its
// facts (rtlib/errors.ts); its message is the row's `render`, nowhere else.

import { problem, plural, type FactsOf, type Rendered } from "./entry.js";
import { RECORDING_PROBLEMS } from "./recording.js";
import { JOURNAL_PROBLEMS } from "./journal.js";
import { VIEW_PROBLEMS } from "./view.js";
import { MAX_ELEMENTS, MAX_TEXT } from "../limits.js";

/** `1,000`: counts in run-time messages are written with thousands separators. */
const n = (count: number): string => count.toLocaleString("en");

/** How a collection limit the command line lowered is raised again; at the most a run may have, nothing raises it. */
const raise = (option: string, limit: number, highest: number): string =>
  limit < highest ? ` (${option} N allows more, up to ${n(highest)})` : "";

/** A time limit as its message says it: `1 s`, `1,500 ms`. */
function durationText(milliseconds: number): string {
  return milliseconds % 1000 === 0 ? `${n(milliseconds / 1000)} s` : `${n(milliseconds)} ms`;
}

/** The widest Instant, in milliseconds from 1970 (what ISO 8601 text can hold). */
const MAX_INSTANT_MS = 8.64e15;

export const RUN_PROBLEMS = {
  "E-RT-FAILED": problem<{ value: string; in: "main" | "handler" | "test" }>({
    title: "A failure was not handled",
    kind: "failed",
    facts: {
      value: "the failure's value, written as the program would write it",
      in: "`main` (the run ends `failed`), `handler` (a request's handler of a server; the request is answered 500) or `test` (a test of `renyi test`, which fails)",
    },
    render: (f) => ({
      message:
        f.in === "main"
          ? `main failed with ${f.value}`
          : f.in === "test"
            ? `the test failed with ${f.value}`
            : `a request's handler failed with ${f.value}`,
    }),
    explanation: `\`main\` may declare that it fails (\`or fails with AppError\`), and then a failure that
reaches the end of \`main\` ends the run \`failed\` (exit code 1), reported at the place it was raised.
That is right for a program whose caller is a script that reads the exit code; where a person
reads the output, handle the failure with \`otherwise\` and say what went wrong in words.`,
    wrong: `type AppError is variant
  Missing(what: Text)
end

public function main(key: Text = "") or fails with AppError
  purpose: Print the key given.
  needs console
  if key is "" then
    fail with AppError.Missing(what: "the key")
  end
  console.print(key)
end`,
    right: `public function main(key: Text = "")
  purpose: Print the key given.
  needs console
  if key is "" then
    console.error("no key given: use --key KEY")
  else
    console.print(key)
  end
end`,
  }),

  "E-RT-CRASH": problem<
    | { problem: "crash-with"; message: string }
    | { problem: "no-arm" }
    | { problem: "argument"; call: string; needs: string; given: string }
    | { problem: "range"; call: string; low: number; high: number }
  >({
    title: "The program crashed",
    kind: "crash",
    facts: {
      problem:
        "`crash-with` (a `crash with` statement), `no-arm` (no arm of a match fits the value), `argument` or `range` (a library function given an argument outside what it takes)",
      message: "the text of `crash with`",
      call: "the library function called (`math.format`)",
      needs: "what the argument must be (`0 to 100 decimals`)",
      given: "the argument given",
      low: "the low end given",
      high: "the high end given",
    },
    render: (f) => {
      switch (f.problem) {
        case "crash-with":
          return { message: f.message };
        case "no-arm":
          return { message: "no arm of the match fits the value" };
        case "argument":
          return { message: `${f.call} needs ${f.needs}, not ${f.given}` };
        case "range":
          return { message: `${f.call}(${f.low}, ${f.high}): the low end is above the high end` };
      }
    },
    explanation: `A crash ends the run at once (exit code 2): \`crash with "..."\` says that something the
program relies on does not hold, and a library function given an argument it cannot take
(\`list.chunks(items, 0)\`, \`math.format(x, 101)\`) crashes the same way. A crash is for a
mistake in the program, not for bad input: check input and say what is wrong with it, or fail
with a value the caller can handle.`,
    wrong: `public function main(count: Int = 0)
  purpose: Print a row of stars.
  needs console
  if count < 1 then
    crash with "count must be at least 1"
  end
  console.print(text.repeat("*", count))
end`,
    right: `public function main(count: Int = 0)
  purpose: Print a row of stars.
  needs console
  if count < 1 then
    console.error("give a count of at least 1: --count 5")
  else
    console.print(text.repeat("*", count))
  end
end`,
  }),

  "E-RT-OVERFLOW": problem<
    | { problem: "operation"; left: number; operator: string; right: number }
    | { problem: "result"; operation: string; result: number }
    | { problem: "no-int"; call: string; value: number }
    | { problem: "instant"; operation: string; milliseconds: number }
  >({
    title: "A number left its range",
    kind: "crash",
    facts: {
      problem:
        "`operation` (an Int operation's result), `result` (a library function's Int result), `no-int` (a Float rounded to no Int), `instant` (an Instant outside what ISO 8601 can write)",
      left: "the left operand",
      operator: "the operator (`+`, `-`, `*`)",
      right: "the right operand",
      operation: "what computed the value (`list.sum`, `time.to_iso`)",
      result: "the value it gave",
      call: "the rounding function (`math.round`)",
      value: "the Float rounded",
      milliseconds: "the instant, in milliseconds from 1970",
    },
    render: (f) => {
      switch (f.problem) {
        case "operation":
          return { message: `${f.left} ${f.operator} ${f.right} is outside the range of Int (±9007199254740991)` };
        case "result":
          return { message: `${f.operation} gives ${f.result}, outside the range of Int` };
        case "no-int":
          return { message: `${f.call}(${f.value}) has no Int value` };
        case "instant":
          return {
            message: `${f.operation}: the instant ${f.milliseconds} ms from 1970 is outside the range of Instant (±${n(MAX_INSTANT_MS)} ms, the years -271821 to 275760)`,
          };
      }
    },
    explanation: `An Int holds the whole numbers from -9007199254740991 to 9007199254740991 (±(2^53 − 1)),
exactly; a result outside that range would lose digits, so the run crashes instead. The same
holds for a Float rounded to an Int (\`math.round(1.0e300)\`) and for an Instant outside the
years -271821 to 275760. Check the size of what comes from outside, or compute in Floats.`,
    wrong: `public function main(n: Int = 9007199254740991)
  purpose: Print the number after n.
  needs console
  console.print((n + 1).to_text())
end`,
    right: `public function main(n: Int = 9007199254740991)
  purpose: Print the number after n.
  needs console
  if n < 9007199254740991 then
    console.print((n + 1).to_text())
  else
    console.error("{n} is the largest Int")
  end
end`,
  }),

  "E-RT-DIVISION": problem<{ left: string; operator: "/" | "mod" }>({
    title: "Division by zero",
    kind: "crash",
    facts: { left: "the number divided", operator: "`/` or `mod`" },
    render: (f) => ({ message: `${f.left} ${f.operator} 0: division by zero` }),
    explanation: `Dividing an Int by zero, or taking it \`mod\` zero, has no answer, and the run
crashes rather than go on with a made-up number. Check the divisor first, or divide Floats,
where \`1.0 / 0.0\` is infinity.`,
    wrong: `public function main(count: Int = 0)
  purpose: Print the share of each.
  needs console
  console.print((100 / count).to_text())
end`,
    right: `public function main(count: Int = 0)
  purpose: Print the share of each.
  needs console
  if count is 0 then
    console.print("nobody to share with")
  else
    console.print((100 / count).to_text())
  end
end`,
  }),

  "E-RT-INDEX": problem<{ index: number; length: number }>({
    title: "An index outside the list",
    kind: "crash",
    facts: { index: "the index used", length: "how many items the list has" },
    render: (f) => ({ message: `index ${f.index} is outside the list, which has ${plural(f.length, "item")}` }),
    explanation: `\`items[i]\` is the item at index \`i\`, counting from 0; an index below 0 or at the
list's length or past it has no item, and the run crashes. Where the index may be outside the
list, use \`list.get(items, i)\`, which gives an Optional: \`None\` outside the list.`,
    wrong: `public function main(position: Int = 3)
  purpose: Print a colour by its position.
  needs console
  let colours be ["red", "green", "blue"]
  console.print(colours[position])
end`,
    right: `public function main(position: Int = 3)
  purpose: Print a colour by its position.
  needs console
  let colours be ["red", "green", "blue"]
  console.print(list.get(colours, position).or_else("no colour at {position}"))
end`,
  }),

  "E-RT-CHECK": problem<
    { expression: string } & (
      | { check: "is"; left: string; right: string }
      | { check: "is not"; left: string }
      | { check: "fails" }
      | { check: "fails with"; failure: string }
      | { check: "holds" }
    )
  >({
    title: "A check in a test did not hold",
    kind: "crash",
    facts: {
      expression: "the check as written in the source (empty when the compiled code does not carry it)",
      check: "the form of the check: `is`, `is not`, `fails`, `fails with`, or `holds` (a plain condition)",
      left: "the left side's value, written out",
      right: "the right side's value, written out",
      failure: "the failure the call failed with, written out",
    },
    render: (f) => {
      const found =
        f.check === "is"
          ? `${f.left} is not ${f.right}`
          : f.check === "is not"
            ? `both sides are ${f.left}`
            : f.check === "fails"
              ? "the call did not fail"
              : f.check === "fails with"
                ? `the call failed with ${f.failure}, which the pattern does not match`
                : "the condition is false";
      return {
        message: f.expression === "" ? `check failed: ${found}` : `check failed: \`${f.expression}\`: ${found}`,
      };
    },
    explanation: `A \`check\` in a \`test\` states what must hold; when it does not, the test ends there
and names both sides. Either the code under test is wrong, or the check expects the wrong
value: read the two values the message names.`,
    wrong: `function double(n: Int) returns Int
  return n + n
end

test "doubling"
  check double(2) is 5
end`,
    right: `function double(n: Int) returns Int
  return n + n
end

test "doubling"
  check double(2) is 4
end`,
    // A test's checks run under the test runner, not `renyi run`.
    described: true,
  }),

  "E-RT-FUEL": problem<{ owner: "the program" | "the request"; limit: number }>({
    title: "The fuel ran out",
    kind: "limit",
    facts: {
      owner: "`the program` (the run's fuel, `--fuel`) or `the request` (one request to a server, `--request-fuel`)",
      limit: "the steps it had",
    },
    render: (f) => ({
      message: `${f.owner} used all of its ${n(f.limit)} steps of fuel (${f.owner === "the program" ? "--fuel" : "--request-fuel"} N gives more)`,
    }),
    explanation: `Every run has fuel: one step per statement and expression evaluated, and for a
library call one step per item or character of work. The default, 50,000,000,000 steps, is
minutes of work, and stops a loop that never ends in under a minute (\`--fuel N\`, or
\`RENYI_FUEL=N\` for a bundle run with \`node\`); each request to a server has its own
(\`--request-fuel N\`). If the program is meant to do that much work, give it more fuel;
otherwise look for the loop that does not end.`,
    wrong: `public function main()
  purpose: Count for ever.
  needs console
  var i be 0
  while true
    set i to i + 1
  end
end`,
    right: `public function main()
  purpose: Count to a thousand.
  needs console
  var i be 0
  while i < 1000
    set i to i + 1
  end
  console.print(i.to_text())
end`,
  }),

  "E-RT-DEPTH": problem<
    { problem: "limit"; limit: number } | { problem: "stack"; depth: number; limit: number } | { problem: "engine" }
  >({
    title: "Calls nested too deeply",
    kind: "limit",
    facts: {
      problem:
        "`limit` (past `--max-depth`), `stack` (the stack ran out first, under a high `--max-depth`) or `engine` (the engine's own stack ran out)",
      limit: "the depth limit, `--max-depth`",
      depth: "the depth reached",
    },
    render: (f) => {
      switch (f.problem) {
        case "limit":
          return { message: `calls nested deeper than ${f.limit} (--max-depth N allows more)` };
        case "stack":
          return {
            message: `calls nested too deeply for the stack, at a depth of ${n(f.depth)} (the limit, --max-depth, is ${n(f.limit)})`,
          };
        case "engine":
          return { message: "calls nested too deeply for the stack" };
      }
    },
    explanation: `Calls may nest 256 deep by default (\`--max-depth N\`). A recursion that never reaches
its end stops here instead of exhausting the stack. Check the case that ends the recursion, or
write the computation as a loop.`,
    wrong: `function down(n: Int) returns Int
  return down(n + 1) + 1
end

public function main()
  purpose: Recurse for ever.
  needs console
  console.print(down(0).to_text())
end`,
    right: `function down(n: Int) returns Int
  if n is 0 then
    return 0
  end
  return down(n - 1) + 1
end

public function main()
  purpose: Recurse ten times.
  needs console
  console.print(down(10).to_text())
end`,
  }),

  "E-RT-LIMIT-COLLECTION": problem<
    | { problem: "elements"; building: string; size: number; limit: number }
    | { problem: "text"; building: string; length: number; limit: number }
    | { problem: "key"; limit: number }
    | { problem: "engine-text" }
    | { problem: "engine-collection" }
  >({
    title: "A list, map, set or text past its size limit",
    kind: "limit",
    facts: {
      problem:
        "`elements` (a list, map or set), `text`, `key` (a map key or set item too large to be a key), or `engine-text` / `engine-collection` (the engine's own limit, reached where no check came first)",
      building: "what was being built (`list.range`, `joining two texts`)",
      size: "the number of elements it would have",
      length: "the number of characters it would have",
      limit: "the limit",
    },
    render: (f) => {
      switch (f.problem) {
        case "elements":
          return {
            message: `${f.building} would build ${n(f.size)} elements, more than the limit of ${n(f.limit)}${raise("--max-collection", f.limit, MAX_ELEMENTS)}`,
          };
        case "text":
          return {
            message: `${f.building} would build a text of ${n(f.length)} characters, more than the limit of ${n(f.limit)}${raise("--max-text", f.limit, MAX_TEXT)}`,
          };
        case "key":
          return {
            message: `a map key or set item is too large to be a key: written out, it would be longer than ${n(f.limit)} characters`,
          };
        case "engine-text":
          return { message: "a text would be longer than the engine can hold" };
        case "engine-collection":
          return { message: "a list, map or set would be larger than the engine can hold" };
      }
    },
    explanation: `A list, map or set holds at most 10,000,000 elements, and a text at most 67,108,864
characters; building one larger ends the run, checked before it is built wherever the size is
known, so that a program never takes the whole machine's memory. \`--max-collection N\` and
\`--max-text N\` (\`RENYI_MAX_COLLECTION\`, \`RENYI_MAX_TEXT\` for a bundle run with \`node\`) lower
these limits; nothing raises them past the defaults. Work through large data in
pieces (a query, a stream of lines) rather than holding it all.`,
    wrong: `public function main()
  purpose: Sum the numbers below twenty million.
  needs console
  let numbers be list.range(0, 20000000)
  console.print(list.length(numbers).to_text())
end`,
    right: `public function main()
  purpose: Sum the numbers below twenty million.
  needs console
  let last be 19999999
  console.print((last * (last + 1) / 2).to_text())
end`,
  }),

  "E-RT-LIMIT-HOST-CALLS": problem<{ limit: number }>({
    title: "Too many calls to the outside world",
    kind: "limit",
    facts: { limit: "the calls a run (or one request) may make" },
    render: (f) => ({
      message: `the program made more than ${n(f.limit)} calls to the outside world (--max-host-calls N allows more)`,
    }),
    explanation: `Every effect (printing a line, a request, a query) is one call through the gateway, and
a run makes at most 100,000 of them (\`--max-host-calls N\`, or \`RENYI_MAX_HOST_CALLS=N\` for a bundle
run with \`node\`). A program that calls out in a loop that does not end stops
here. Make fewer, larger calls: print one text joined from many lines, query once for many rows.`,
    wrong: `public function main()
  purpose: Print the numbers to a hundred thousand and one.
  needs console
  for each i in 1 to 100001
    console.print(i.to_text())
  end
end`,
    right: `public function main()
  purpose: Print the numbers to a hundred thousand and one.
  needs console
  let numbers be list.range(1, 100002)
  console.print(text.join(list.map(numbers, function (i: Int) returns Text
    return i.to_text()
  end), "\\n"))
end`,
  }),

  "E-RT-TIMEOUT": problem<{
    milliseconds?: number;
    owner?: "test";
    stopped?: "compiling" | "by-force";
    cpuSeconds?: number;
  }>({
    title: "The run reached its time limit",
    kind: "limit",
    facts: {
      milliseconds:
        "the wall-time limit, in milliseconds: the run's (`--timeout SECONDS`, `RENYI_TIMEOUT` for a bundle run with `node`) or a test's (`renyi test --timeout SECONDS`)",
      owner: "`test` when a test of `renyi test` reached its time limit; the run otherwise",
      cpuSeconds:
        "the CPU seconds the operating system allowed the process under `renyi run --isolate` (2 × `--timeout` + 10), when it ended the process for using them all",
      stopped:
        "`compiling` when the time ran out while the program was still being compiled, `by-force` when the program was where it could not notice the limit and its thread was stopped after a grace period (the place it had reached is not known); absent when the program noticed the limit and stopped at a place of its own",
    },
    render: (f) => {
      const limit = f.milliseconds === undefined ? "" : ` of ${durationText(f.milliseconds)}`;
      const whose = f.owner === "test" ? "the test" : "the run";
      const how =
        f.stopped === "compiling"
          ? " while the program was compiled"
          : f.stopped === "by-force"
            ? ` and was stopped by force where it could not notice; the place ${f.owner === "test" ? "the test" : "the program"} had reached is not known`
            : "";
      const more = f.owner === "test" ? "renyi test --timeout SECONDS allows more" : "--timeout SECONDS allows more";
      if (f.cpuSeconds !== undefined)
        return {
          message: `the run used all of the ${n(f.cpuSeconds)} seconds of CPU time its time limit${limit} gives it under --isolate; the place it had reached is not known (${more})`,
        };
      return { message: `${whose} reached its time limit${limit}${how} (${more})` };
    },
    explanation: `Every run has a wall-time limit, 30 minutes by default (\`--timeout SECONDS\`); a
program that serves has none unless \`--timeout\` is given, and each test of \`renyi test\` has its
own (\`renyi test --timeout SECONDS\`). The time is a limit as fuel and call depth are: the run
ends \`crashed\` (exit code 2) with this code and the place in the program it had reached. The
program notices the limit at its next step, or inside the wait it is in (a request in flight, a
sleep, a busy database); every task it started stops with it, and a recording in progress is
written. A program stuck where it cannot notice (one long library call) is stopped by force two
seconds later, and then the place it had reached is not known. The time runs from the start of
the command: a program still compiling when it runs out ends here too, \`while the program was
compiled\`. If the program is meant to run that long, give it more time; otherwise look for the
wait or the loop that does not end. Ctrl-C is no limit: it ends the run \`cancelled\` (exit code
130).`,
    wrong: `renyi run --timeout 60 crawl.ry   # a crawl of ten thousand pages, a second each`,
    right: `renyi run --timeout 14400 crawl.ry`,
    described: true,
  }),

  "E-RT-LIMIT-TIME": problem<{ milliseconds: number }>({
    title: "A request to a server was not answered in time",
    kind: "limit",
    facts: {
      milliseconds: "the request's time limit, in milliseconds (`--request-timeout SECONDS`)",
    },
    render: (f) => ({
      message: `the request was not answered within its ${durationText(f.milliseconds)} (--request-timeout SECONDS allows more)`,
    }),
    explanation: `Each request to a server has a time limit, 30 seconds by default
(\`--request-timeout SECONDS\`). A handler that waits or loops past it is stopped, the request is
answered 500, and the server goes on. Make the handler's work shorter, or give requests more
time.`,
    wrong: `public function main(port: Int = 8080) or fails with StartError
  purpose: Answer slowly.
  needs network.socket, time
  server.serve(port, function (request: Request) returns Response
    needs time
    time.sleep(time.seconds(60))
    return server.respond(200, "late")
  end) otherwise fail
end
-- renyi run --request-timeout 30 slow.ry, then a request to it`,
    right: `public function main(port: Int = 8080) or fails with StartError
  purpose: Answer at once.
  needs network.socket
  server.serve(port, function (request: Request) returns Response
    return server.respond(200, "on time")
  end) otherwise fail
end`,
    // It takes a client's request to a server that runs until it is stopped.
    described: true,
  }),

  "E-RT-RESPONSE": problem<
    | { problem: "status"; status: number }
    | { problem: "header-name"; name: string }
    | { problem: "framing"; header: string }
    | { problem: "header-value"; name: string }
  >({
    title: "A handler's response cannot be sent",
    kind: "crash",
    facts: {
      problem:
        "`status` (outside 200 to 599), `header-name` (not a token), `framing` (a header the server sets itself) or `header-value` (a line break or a control character)",
      status: "the status given",
      name: "the header's name",
      header: "the framing header (`content-length`, `transfer-encoding`, `connection`)",
    },
    render: (f) => {
      switch (f.problem) {
        case "status":
          return { message: `the handler's response has status ${f.status}, outside 200 to 599` };
        case "header-name":
          return { message: `the handler's response has a header name that is not a token: ${JSON.stringify(f.name)}` };
        case "framing":
          return { message: `the handler's response sets ${f.header}, which the server sets itself` };
        case "header-value":
          return {
            message: `the handler's response has a value of header ${f.name} with a line break or a control character`,
          };
      }
    },
    explanation: `A handler's Response is checked before it is sent: its status must be 200 to 599, its
header names tokens, its header values free of line breaks and control characters (which could
split the response and smuggle a header in), and it may not set \`content-length\`,
\`transfer-encoding\` or \`connection\`, which the server sets itself. A response that breaks these is
answered 500 instead, and the server goes on.`,
    wrong: `public function main(port: Int = 8080) or fails with StartError
  purpose: Answer with a status that does not exist.
  needs network.socket
  server.serve(port, function (request: Request) returns Response
    return server.respond(99, "odd")
  end) otherwise fail
end`,
    right: `public function main(port: Int = 8080) or fails with StartError
  purpose: Answer with a status that exists.
  needs network.socket
  server.serve(port, function (request: Request) returns Response
    return server.respond(200, "fine")
  end) otherwise fail
end`,
    // It takes a client's request to a server that runs until it is stopped.
    described: true,
  }),

  "E-RT-LIMIT-MEMORY": problem<{ owner?: "test"; limit?: number; live?: number; problem?: "process" }>({
    title: "The program used more memory than its limit",
    kind: "limit",
    facts: {
      owner: "`test` when a test of `renyi test` used it; the program otherwise",
      limit:
        "the limit in MiB, when the accounting of live bytes found it passed (absent: the thread's heap, the hard bound above it, was reached within one operation)",
      live: "the MiB still live after a full collection",
      problem: "`process` when the operating system refused memory to a process run with `--isolate`",
    },
    render: (f) => {
      const who = f.owner ?? "program";
      const raise = `${f.owner === "test" ? "renyi test " : ""}--max-memory MIB allows more`;
      if (f.problem === "process")
        return { message: `the ${who}'s process ran out of the memory its isolation allows (${raise})` };
      if (f.limit !== undefined)
        return {
          message: `the ${who} kept ${n(f.live ?? f.limit)} MiB of memory live, more than its limit of ${n(f.limit)} MiB (${raise})`,
        };
      return { message: `the ${who} used more memory than its limit (${raise})` };
    },
    explanation: `A run may keep 512 MiB of memory live (\`--max-memory MIB\`, or \`RENYI_MAX_MEMORY=MIB\` for a bundle
run with \`node\`): its texts, lists, maps, records and bytes, counted as the live bytes of the
thread it runs in, after garbage is collected. Each list, map, set and text is limited in size
on its own (\`E-RT-LIMIT-COLLECTION\`), but many of them together can still reach this limit. Keep
less at once: work through large data in pieces.`,
    wrong: `public function main()
  purpose: Hold a hundred lists of ten million numbers.
  needs console
  var kept be []
  for each i in 1 to 100
    set kept to kept + [list.range(0, 10000000)]
  end
  console.print(list.length(kept).to_text())
end`,
    right: `public function main()
  purpose: Sum a hundred ranges of ten million numbers, one at a time.
  needs console
  var total be 0
  for each i in 1 to 100
    set total to total + list.length(list.range(0, 10000000))
  end
  console.print(total.to_text())
end`,
    // A program shows it, but only by filling a gigabyte of memory, too much for the tests.
    described: true,
  }),

  "E-RT-GUARD": problem<{ call: string; origin: string; sink: string; allows: string }>({
    title: "Guarded data on its way somewhere its guard does not allow",
    kind: "crash",
    facts: {
      call: "where the data was leaving: the library function (`console.print`), or `the crash's message`, `main's failure`, `the response`",
      origin: 'the guarded capability the data came through (`environment("API_KEY")`)',
      sink: 'where it was going (`console`, `network.http("evil.example")`)',
      allows: 'the sinks the guard names (`network.http("api.example.com")`)',
    },
    render: (f) => ({
      message: `${f.call} was refused: it carries data from ${f.origin}, which may go only to ${f.allows}, not to ${f.sink}`,
    }),
    explanation: `A capability in main's grant (or a test's) may carry a guard: \`only to SINK or SINK\`.
Everything read through it, and everything computed from what was read (texts made from it,
numbers counted from it, lists and records holding it), carries its origin, and may leave the
program only through one of the sinks. A call that would send it elsewhere does not happen: a
call that can fail fails with its failure type's \`Guarded(origin, sink)\` case
(\`HttpError.Guarded\`, which a match over \`HttpError\` handles like any case); one that cannot
(\`console.print\`) ends the run with this error, which never shows the data. A crash's message
and the failure main ends with leave through the console, and are checked the same way. Either send the data only
where its guard allows, or widen the guard if the data may really go there. Guards follow
decisions too: a Boolean computed from guarded data (\`key.is_empty()\`) carries its origin, and
so does what is chosen, counted or printed under an \`if\`, a \`match\` or a loop that decides on
it, so a program cannot copy a secret out one decision at a time.`,
    wrong: `public function main()
  purpose: Print a secret.
  needs console, environment("HOME") only to network.http("127.0.0.1")
  let home be environment.get("HOME").or_else("none")
  console.print("the home folder is {home}")
end`,
    right: `public function main()
  purpose: Read a secret, keep it for where its guard allows, and print work of its own.
  needs console, environment("HOME") only to network.http("127.0.0.1")
  let home be environment.get("HOME").or_else("none")
  console.print("six times seven is {6 * 7}")
end`,
  }),

  "E-RT-PERMISSION": problem<{ call: string; need: string; owner: string }>({
    title: "A call outside the needs it runs under",
    kind: "crash",
    facts: {
      call: "the library function called (`environment.get`)",
      need: 'the capability the call needs, with its argument (`environment("PATH")`)',
      owner: "whose needs refused it (`main`, `this function`)",
    },
    render: (f) => ({ message: `${f.call} needs ${f.need}, which the needs of ${f.owner} do not allow` }),
    explanation: `A function runs with the capabilities its \`needs\` line names and no more. Where the
checker cannot see the argument (a name passed in), the gateway checks the call when it is made,
and a call outside the needs ends the run. Either widen the needs line to cover the call, or make
only the calls it covers.`,
    wrong: `public function main()
  purpose: Print a variable of the environment.
  needs console, environment
  let read be function (name: Text) returns Optional<Text>
    needs environment("HOME")
    return environment.get(name)
  end
  console.print("{read("PATH")}")
end`,
    right: `public function main()
  purpose: Print a variable of the environment.
  needs console, environment
  let read be function (name: Text) returns Optional<Text>
    needs environment("HOME")
    return environment.get(name)
  end
  console.print("{read("HOME")}")
end`,
  }),

  "E-RT-BUDGET": problem<{ call: string; budget: string }>({
    title: "A call over its budget",
    kind: "crash",
    facts: {
      call: "the library function called",
      budget: "the budget it is over (`network.http=60/minute`)",
    },
    render: (f) => ({ message: `${f.call} is over the budget ${f.budget}` }),
    explanation: `A budget (\`at most 60 per minute\` on a needs line, or \`--at-most\` on the command
line) bounds how often a capability is used. A call that can fail fails when it is over its
budget; one that cannot fail ends the run with this error. No call of today's library is both,
so this is a guard for calls to come.`,
    wrong: "a call that cannot fail, made more often than its budget allows",
    right: "the same call, made within its budget",
    described: true,
  }),

  "E-RT-REFUSED": problem<{ reason: string }>({
    title: "A bundle was refused before it ran",
    kind: "refused",
    facts: { reason: "what its validation found wrong (bundle-check.ts, validate.ts)" },
    render: (f) => ({ message: f.reason }),
    explanation: `A bundle built by \`renyic build\` is checked before it runs: its manifest is read
strictly, the bundle's bytes must match the manifest's hash, its code must pass the validator,
the grant it declares must be the manifest's, and under \`--trust\` the manifest must be signed by
a trusted key. A bundle that fails any of these does not run (exit code 3). Build it again from
its source rather than editing it.`,
    wrong: `renyic build weather.ry --out build
echo "// changed" >> build/weather.mjs
renyi run build/weather.mjs`,
    right: `renyic build weather.ry --out build
renyi run build/weather.mjs`,
    described: true,
  }),

  ...RECORDING_PROBLEMS,

  ...JOURNAL_PROBLEMS,

  ...VIEW_PROBLEMS,

  "E-RT-INTERNAL": problem<
    | { problem: "thrown"; detail: string }
    | { problem: "result"; call: string; shape: string }
    | { problem: "no-outcome" }
  >({
    title: "An internal error of Renyi's runtime",
    kind: "internal",
    facts: {
      problem:
        "`thrown` (an error of the runtime's own), `result` (a library function gave back a value of the wrong shape) or `no-outcome` (the program's thread ended without a result)",
      detail: "the error's own message",
      call: "the library function",
      shape: "the shape its result should have had",
    },
    render: (f) => {
      switch (f.problem) {
        case "thrown":
          return { message: `an internal error: ${f.detail}` };
        case "result":
          return { message: `${f.call} gave back a value that is not ${f.shape}` };
        case "no-outcome":
          return { message: "the program's thread ended without a result" };
      }
    },
    explanation: `Nothing a program does should end its run this way: an internal error is a fault of
Renyi's own runtime, caught and reported rather than shown as a JavaScript stack trace.
\`RENYI_DEBUG=1\` adds the stack; please report it with the program that caused it.`,
    wrong: "a program that meets a fault in Renyi's runtime",
    right: "the same program, once the fault is fixed",
    described: true,
  }),

  "E-INTERNAL": problem<{ detail: string }>({
    title: "Renyi itself failed",
    kind: "internal",
    facts: { detail: "the error's own message" },
    render: (f): Rendered => ({
      message: `Renyi itself failed: ${f.detail}`,
      notes: ["this is a bug in Renyi, not in the program; please report it with the file that caused it"],
    }),
    explanation: `A command of \`renyi\` or \`renyic\` met a fault of its own (not of the program it was
given). It is reported without a JavaScript stack trace; \`RENYI_DEBUG=1\` adds the stack. Please
report it with the file that caused it.`,
    wrong: "a command that meets a fault in Renyi itself",
    right: "the same command, once the fault is fixed",
    described: true,
  }),
};

export type RunCode = keyof typeof RUN_PROBLEMS;

/** The facts a runtime error carries. */
export type RunFacts<C extends RunCode> = FactsOf<(typeof RUN_PROBLEMS)[C]>;

/** The words of a runtime error, made from its facts. */
export function runWords<C extends RunCode>(code: C, facts: RunFacts<C>): Rendered {
  return (RUN_PROBLEMS[code].render as (f: RunFacts<C>) => Rendered)(facts);
}

/** The message of a runtime error, made from its facts. */
export function runMessage<C extends RunCode>(code: C, facts: RunFacts<C>): string {
  return runWords(code, facts).message;
}

/** How a run that meets the problem ends (crash unless the row says otherwise). */
export function runKind(code: RunCode): "failed" | "crash" | "limit" | "refused" | "internal" {
  return RUN_PROBLEMS[code].kind ?? "crash";
}
