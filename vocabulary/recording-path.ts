// Where a test's recording may be: beneath the folder of the test's own file
// (spec/testing.md, "Replays tests"; spec/security.md, "Test runs"). The rule
// on the path as written, shared by the checker (which refuses such a test
// before anything runs), `renyi test` and the tool server of `renyi mcp`; the
// command line also follows symbolic links before it opens the file.

/**
 * How a `replays` path leaves the folder it is read against, or undefined:
 * `absolute` (`/x`, `\x`, `C:x`), or `climbs` (a `..` anywhere in it, even one
 * that would come back down).
 */
export function replaysPathLeaves(path: string): "absolute" | "climbs" | undefined {
  if (path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:/.test(path)) return "absolute";
  if (path.split(/[\\/]/).includes("..")) return "climbs";
  return undefined;
}
