// The `process` module: run a program, with its arguments as a list and no
// shell, so that no argument is ever read as shell syntax. The child gets a
// fixed environment (CHILD_ENVIRONMENT), not the runner's, and leads a process
// group of its own, which is killed as a whole when the child ends, when the
// run is cancelled, and when the run ends (spec/security.md, "Child processes").

import { call } from "../gateway.js";
import { Failure } from "../errors.js";
import type { Grant } from "../grants.js";
import { watchCancellation } from "../limits.js";
import { ProcessError, ProcessResult } from "../prelude.js";
import { record } from "../values.js";
import { hostImport } from "../host-import.js";
import { childGone, childStarted } from "../children.js";
import { Gathered, overLimit } from "./incoming.js";

/**
 * All a child's environment: PATH, so that a program is found where the runner
 * would find it and can find its own helpers (it holds no secret), and a fixed
 * UTF-8 locale, so that the child's text comes out the same everywhere. No other
 * variable of the runner's reaches it, whatever the grant: a variable the
 * program may read (`environment("API_KEY")`) it passes on as an argument or
 * input, where a reviewer and a guard see it.
 */
function childEnvironment(): Record<string, string> {
  return { PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" };
}

export const run = (grant: Grant, program: string, args: string[] = [], input = ""): Promise<unknown> =>
  call(
    grant,
    {
      name: "std.process.run",
      need: { path: ["process"], scope: program },
      denied: () => ProcessError.make("PermissionDenied", program),
      overBudget: () => ProcessError.make("OverBudget", program),
      refusedByGuard: (origin, sink) => ProcessError.make("Guarded", origin, sink),
      result: record(ProcessResult.desc),
    },
    { program, ...(args.length > 0 ? { arguments: args } : {}), ...(input !== "" ? { input } : {}) },
    async () => {
      // node:child_process is loaded by the first run, not when every program starts.
      const { spawn } = await hostImport<typeof import("node:child_process")>("node:child_process");
      return new Promise((resolve, reject) => {
        // detached: the child leads a new process group (setsid), which is killed as one.
        let child: ReturnType<typeof spawn>;
        try {
          child = spawn(program, args, {
            shell: false,
            stdio: ["pipe", "pipe", "pipe"],
            env: childEnvironment(),
            detached: true,
          });
        } catch (e) {
          reject(new Failure(ProcessError.make("Failed", program, (e as Error).message)));
          return;
        }
        // No file left to open (EMFILE, ENFILE: the pipes or the process): Node gives back a child
        // without its pipes and reports the error a moment later. The call fails as the program's.
        if (!child.stdout || !child.stderr || !child.stdin) {
          child.once("error", (e: NodeJS.ErrnoException) => {
            const why = e.code === "EMFILE" || e.code === "ENFILE" ? `too many open files (${e.code})` : e.message;
            reject(new Failure(ProcessError.make("Failed", program, `it could not be started: ${why}`)));
          });
          return;
        }
        const { stdout, stderr, stdin } = child;
        const pid = child.pid;
        if (pid !== undefined) childStarted(pid);
        const gone = () => {
          if (pid !== undefined) childGone(pid);
        };
        // Cancellation (Ctrl-C, the deadline) kills the child's group and ends the call.
        const stopWatching = watchCancellation((cancelled) => {
          gone();
          reject(cancelled);
        });
        // Each stream is counted as it arrives: past the limit for data coming in, the child's group
        // is killed and the call fails, having held no more than the limit of either.
        const out = new Gathered();
        const err = new Gathered();
        const gather = (into: Gathered, name: string) => (d: Buffer) => {
          if (into.over) return;
          if (into.add(d)) return;
          stopWatching();
          gone();
          reject(new Failure(ProcessError.make("Failed", program, overLimit(name))));
        };
        stdout.on("data", gather(out, "its standard output"));
        stderr.on("data", gather(err, "its standard error"));
        child.on("error", (e: NodeJS.ErrnoException) => {
          stopWatching();
          gone();
          reject(
            new Failure(
              e.code === "ENOENT"
                ? ProcessError.make("NotFound", program)
                : ProcessError.make("Failed", program, e.message),
            ),
          );
        });
        // When the child ends, what it left running in its group ends too: nothing outlives the call
        // (and nothing holds its output open, which would keep the call waiting).
        child.on("exit", gone);
        child.on("close", (code, signal) => {
          stopWatching();
          gone();
          const exitCode = code ?? (signal !== null ? 128 : 1);
          if (out.over || err.over) return;
          resolve(ProcessResult.desc.make([exitCode, out.take().toString("utf8"), err.take().toString("utf8")]));
        });
        stdin.on("error", () => {
          // A program that does not read its input closes the pipe early; that is not a failure.
        });
        stdin.end(input);
      });
    },
  );
