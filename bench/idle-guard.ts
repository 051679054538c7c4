// A guard no data passes through, added to a program's main: what bench/guards.ts
// measures as "guards declared, the data unguarded", and what tests/guards-idle.ts
// runs every run fixture with.

export const IDLE_GUARD = 'environment("RENYI_IDLE_GUARD") only to console';

/**
 * The source with the guard on main's needs line, on that same line, so that every position stays where it was;
 * undefined when main has no needs line.
 */
export function withIdleGuard(source: string): string | undefined {
  const lines = source.split("\n");
  const main = lines.findIndex((l) => l.startsWith("public function main("));
  if (main < 0) return undefined;
  for (let i = main + 1; i < lines.length && !/^end\b/.test(lines[i]!); i++) {
    const m = /^( {2}needs )(.*)$/.exec(lines[i]!);
    if (m === null) continue;
    // A needs line that goes on (ends with a comma) takes the guard first.
    lines[i] = `${m[1]}${IDLE_GUARD}, ${m[2]}`;
    return lines.join("\n");
  }
  return undefined;
}
