// `renyi run --isolate` (spec/security.md, "Isolation"): the whole command runs
// again, without --isolate, in a process of its own that the operating system
// holds to hard limits set before node starts: its data segment (RLIMIT_DATA,
// every private writable mapping: the heaps of all its threads, byte buffers,
// the native memory of better-sqlite3 and undici), its open files
// (RLIMIT_NOFILE), its CPU time (RLIMIT_CPU, only from a --timeout given) and
// no core dump. The limits are set with the shell's `ulimit`, which POSIX
// systems have; nothing else is installed for it.
//
// This process stays as the child's parent: it passes the child's exit code on
// and, when the operating system ends the child (memory it refused to a part of
// node that cannot fail softly, CPU time), says so in the run's own words
// rather than leaving the user with node's native report.

import { spawn } from "node:child_process";
import { constants } from "node:os";
import { EXIT } from "../../vocabulary/outcomes.js";
import { ISOLATED_OPEN_FILES, isolationDataMib } from "../../vocabulary/limits.js";
import { runMessage } from "../../vocabulary/problems/run.js";
import type { RunOptions } from "./run-options.js";

/** Open files, sockets and pipes the isolated process may hold at once (sized with a server's connections). */
export { ISOLATED_OPEN_FILES };
/** The exit code of the shell when it could not set a limit: none of `renyi run`'s own. */
const LIMITS_NOT_SET = 97;

/**
 * The CPU seconds of a run given --timeout SECONDS: the program's thread, and the runtime's own (collection,
 * compilation) beside it.
 */
export function isolatedCpuSeconds(timeoutSeconds: number): number {
  return 2 * timeoutSeconds + 10;
}

/**
 * The shell's part: each limit lowered to ours unless the hard limit already in
 * place is lower (a limit can only be lowered), then node started in its place.
 */
function limitScript(dataKib: number, cpuSeconds: number | undefined): string {
  const lower = (flag: string, value: number) =>
    `h=$(ulimit -H ${flag}); if [ "$h" = unlimited ] || [ "$h" -gt ${value} ]; then ulimit ${flag} ${value} || ` +
    `exit ${LIMITS_NOT_SET}; fi`;
  const cpu =
    cpuSeconds === undefined
      ? []
      : [
          // The soft limit sends SIGXCPU, reported below; the hard one, a little later, SIGKILL. The soft one first: a
          // hard limit below the soft one is refused.
          `h=$(ulimit -H -t); if [ "$h" = unlimited ] || [ "$h" -gt ${cpuSeconds + 5} ]; then ulimit -S -t ` +
            `${cpuSeconds} && ulimit -H -t ${cpuSeconds + 5} || exit ${LIMITS_NOT_SET}; fi`,
        ];
  return [
    `ulimit -c 0 || exit ${LIMITS_NOT_SET}`,
    lower("-d", dataKib),
    lower("-n", ISOLATED_OPEN_FILES),
    ...cpu,
    'exec "$0" "$@"',
  ].join("\n");
}

/**
 * The lines of node's own report of a fatal error (an allocation the engine
 * cannot give up on): held back from the terminal, and dropped when the child
 * then dies of a signal.
 */
const NATIVE_REPORT = /^(<--- Last few GCs --->|FATAL ERROR:|#\s*$|# Fatal|----- Native stack trace)/;

export function runIsolated(options: RunOptions): Promise<number> {
  if (process.platform === "win32") {
    process.stderr.write(
      "error: --isolate sets the operating system's limits with sh and ulimit, which this system does not have; " +
        "run without --isolate\n",
    );
    return Promise.resolve(EXIT.refused);
  }
  // The same command, without --isolate (a flag: it is never an option's value).
  const at = process.argv.indexOf("--isolate");
  const args = [...process.execArgv, process.argv[1]!, ...process.argv.slice(2, at), ...process.argv.slice(at + 1)];
  const dataMib = isolationDataMib(options.maxMemoryMib);
  const cpuSeconds = options.timeoutGiven ? isolatedCpuSeconds(options.timeoutSeconds) : undefined;
  const child = spawn("/bin/sh", ["-c", limitScript(dataMib * 1024, cpuSeconds), process.execPath, ...args], {
    stdio: ["inherit", "inherit", "pipe"],
  });
  // The child is in this process's group, so a Ctrl-C at the terminal reaches it directly; a
  // signal sent to this process alone is passed on. The child takes a second interrupt as it
  // takes the first (it sets the same cancellation flag), so one delivered both ways is one.
  const pass = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const passed = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((signal) => [signal, pass(signal)] as const);
  for (const [signal, handler] of passed) process.on(signal, handler);
  const stderr = heldBack();
  child.stderr.on("data", (chunk: Buffer) => stderr.write(chunk.toString("utf8")));
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      for (const [s, handler] of passed) process.off(s, handler);
      const held = stderr.end(signal === null);
      resolve(
        signal === null
          ? exited(code ?? EXIT.crashed)
          : killed(signal, held, dataMib, cpuSeconds, options.timeoutSeconds),
      );
    });
  });
}

/**
 * Passes the child's standard error on a line at a time, holding back from the
 * first line of a native report (and the empty lines just before it).
 */
function heldBack(): { write(text: string): void; end(flush: boolean): string } {
  let partial = "";
  let blank = "";
  let held: string | undefined;
  return {
    write(text) {
      const lines = (partial + text).split("\n");
      partial = lines.pop()!;
      for (const line of lines) {
        if (held === undefined && NATIVE_REPORT.test(line)) held = blank;
        if (held !== undefined) held += `${line}\n`;
        else if (line === "") blank += "\n";
        else {
          process.stderr.write(`${blank}${line}\n`);
          blank = "";
        }
      }
    },
    end(flush) {
      const rest = (held ?? blank) + partial;
      if (flush) process.stderr.write(rest);
      return rest;
    },
  };
}

function exited(code: number): number {
  if (code !== LIMITS_NOT_SET) return code;
  process.stderr.write(
    "error: --isolate could not set the operating system's limits for the run (see the shell's message above)\n",
  );
  return EXIT.refused;
}

function killed(
  signal: NodeJS.Signals,
  held: string,
  dataMib: number,
  cpuSeconds: number | undefined,
  timeoutSeconds: number,
): number {
  if (signal === "SIGINT") {
    process.stderr.write("cancelled: interrupted\n");
    return EXIT.cancelled;
  }
  if (signal === "SIGTERM" || signal === "SIGHUP") return 128 + constants.signals[signal];
  // The CPU time comes of the run's --timeout: a limit, as the wall time is (E-RT-TIMEOUT).
  if (cpuSeconds !== undefined && (signal === "SIGXCPU" || signal === "SIGKILL")) {
    process.stderr.write(
      `error[E-RT-TIMEOUT]: ${runMessage("E-RT-TIMEOUT", { milliseconds: timeoutSeconds * 1000, cpuSeconds })}\n`,
    );
    return EXIT.crashed;
  }
  const note =
    `  = note: the operating system refused the process more than ${dataMib.toLocaleString("en")} MiB of data ` +
    `(--isolate); the position in the program is not known\n`;
  if (/out of memory|allocation failed/i.test(held) || signal === "SIGKILL") {
    process.stderr.write(
      `error[E-RT-LIMIT-MEMORY]: ${runMessage("E-RT-LIMIT-MEMORY", { problem: "process" })}\n${note}`,
    );
    return EXIT.crashed;
  }
  process.stderr.write(
    `error[E-RT-INTERNAL]: ` +
      `${runMessage("E-RT-INTERNAL", { problem: "thrown", detail: `the isolated process was ended by ${signal}` })}\n`,
  );
  return EXIT.crashed;
}
