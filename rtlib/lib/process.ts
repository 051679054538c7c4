// The `process` module: run a program, with its arguments as a list and no
// shell, so that no argument is ever read as shell syntax.

import { call } from "../gateway.js";
import { Failure } from "../errors.js";
import type { Grant } from "../grants.js";
import { ProcessError, ProcessResult } from "../prelude.js";
import { record } from "../values.js";
import { hostImport } from "../host-import.js";

export const run = (grant: Grant, program: string, args: string[] = [], input = ""): Promise<unknown> =>
  call(
    grant,
    {
      name: "std.process.run",
      need: { path: ["process"], scope: program },
      denied: () => ProcessError.make("PermissionDenied", program),
      overBudget: () => ProcessError.make("OverBudget", program),
      result: record(ProcessResult.desc),
    },
    { program, ...(args.length > 0 ? { arguments: args } : {}), ...(input !== "" ? { input } : {}) },
    async () => {
      // node:child_process is loaded by the first run, not when every program starts.
      const { spawn } = await hostImport<typeof import("node:child_process")>("node:child_process");
      return new Promise((resolve, reject) => {
        const child = spawn(program, args, { shell: false, stdio: ["pipe", "pipe", "pipe"] });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on("data", (d: Buffer) => out.push(d));
        child.stderr.on("data", (d: Buffer) => err.push(d));
        child.on("error", (e: NodeJS.ErrnoException) => {
          reject(new Failure(e.code === "ENOENT" ? ProcessError.make("NotFound", program) : ProcessError.make("Failed", program, e.message)));
        });
        child.on("close", (code, signal) => {
          const exitCode = code ?? (signal !== null ? 128 : 1);
          resolve(ProcessResult.desc.make([exitCode, Buffer.concat(out).toString("utf8"), Buffer.concat(err).toString("utf8")]));
        });
        child.stdin.on("error", () => {
          // A program that does not read its input closes the pipe early; that is not a failure.
        });
        child.stdin.end(input);
      });
    },
  );
