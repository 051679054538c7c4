// The one place where a test that `replays "path"` gets its effects answered
// (spec/testing.md, "Replays tests"). The recording player is not part of
// `renyi test` yet: such a test is reported as skipped, with the reason, and
// never as passed; nothing of it runs, so it reaches nothing.

import { dirname, resolve } from "node:path";

/** A recording's path as a test writes it, resolved against the folder of the test's own file. */
export function recordingPath(testFile: string, written: string): string {
  return resolve(dirname(testFile), written);
}

/** What becomes of a replays test: skipped, with the reason (the player will answer it here). */
export type ReplayPlan = { readonly skip: string };

export function planReplay(_recording: string): ReplayPlan {
  return { skip: "replays needs the recording player" };
}
