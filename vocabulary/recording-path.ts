// Where a test's recording may be: beneath the folder of the test's own file
// (spec/testing.md, "Replays tests"; spec/security.md, "Test runs"). The rule
// on the path as written, shared by the checker (which refuses such a test
// before anything runs), `renyi test` and the tool server of `renyi mcp`; the
// command line also follows symbolic links before it opens the file.

/**
 * Why a `replays` path does not name a file beneath the folder it is read
 * against, or undefined: `absolute` (`/x`, `\x`, `C:x`), `climbs` (a `..`
 * anywhere in it, even one that would come back down), or `folder` (it names
 * the folder itself: ``, `.`, `./`).
 */
export function replaysPathLeaves(path: string): "absolute" | "climbs" | "folder" | undefined {
  if (path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:/.test(path)) return "absolute";
  const parts = path.split(/[\\/]/);
  if (parts.includes("..")) return "climbs";
  if (parts.every((p) => p === "" || p === ".")) return "folder";
  return undefined;
}
