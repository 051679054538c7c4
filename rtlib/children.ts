// The child processes of a run (lib/process.ts), each the leader of a process
// group of its own, kept here so that whatever ends the run can kill them all:
// the worker when the program ends, and the main thread of `renyi run` (told of
// each child as it starts and ends) when the worker is stopped by force.

const running = new Set<number>();
let watcher: ((pid: number, running: boolean) => void) | undefined;

/** `watch(pid, true)` when a child starts, `watch(pid, false)` when its group is gone. */
export function configureChildren(watch: ((pid: number, running: boolean) => void) | undefined): void {
  watcher = watch;
}

/** SIGKILL to the child's whole process group; nothing when it is gone already. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // ESRCH: the group is gone already.
  }
}

export function childStarted(pid: number): void {
  running.add(pid);
  watcher?.(pid, true);
}

/** The child ended, or its call was cancelled: its group is killed (what it left running included). */
export function childGone(pid: number): void {
  if (!running.delete(pid)) return;
  killGroup(pid);
  watcher?.(pid, false);
}

/** Kills every child still running, with everything in its group: the end of a run. */
export function stopChildren(): void {
  for (const pid of [...running]) childGone(pid);
}
