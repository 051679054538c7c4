// A guard that no data passes through changes nothing: every run fixture
// (fixtures/run/*.golden) runs again with a guard added to main's needs
// (bench/idle-guard.ts: `environment("RENYI_IDLE_GUARD") only to console`), so that the whole
// program is compiled with the origin operators and every call goes through
// the guard check, and it must end exactly as its golden file says: the same
// output, the same errors at the same places, the same exit code. This is the
// origin operators' differential test against the plain ones, over every kind
// of expression and statement the fixtures hold.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, test } from "node:test";
import { goldenFiles, readSections, ROOT } from "./golden.js";
import { renyiIn } from "./support.js";
import { withIdleGuard } from "../bench/idle-guard.js";

const work = mkdtempSync(join(tmpdir(), "renyi-guards-idle-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** The compiler's warnings are the checker's business, not the run's: the guard's own (no sink) is left out. */
function withoutGuardWarning(stderr: string): string {
  return stderr.replace(/warning\[W-GUARD-NO-SINK\][\s\S]*?(?=\n(?:error|warning)\[|\n[^ \n|=]|$)\n?/g, "");
}

test("every run fixture ends as its golden file says with an idle guard declared", async () => {
  const cases = goldenFiles(join(ROOT, "fixtures", "run")).map((path) => {
    const name = basename(path, ".golden");
    const sections = readSections(path);
    const guarded = withIdleGuard(sections.get("source")!);
    return { name, sections, guarded };
  });
  const skipped = cases.filter((c) => c.guarded === undefined).map((c) => c.name);
  let ran = 0;
  const pending = cases.filter((c) => c.guarded !== undefined);
  const width = 3;
  await Promise.all(
    Array.from({ length: width }, async (_, lane) => {
      for (let i = lane; i < pending.length; i += width) {
        const { name, sections, guarded } = pending[i]!;
        const dir = join(work, name);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `${name}.ry`), guarded!);
        for (const [key, text] of sections)
          if (key.startsWith("module ")) writeFileSync(join(dir, `${key.slice(7)}.ry`), text);
        const words = (sections.get("arguments") ?? "")
          .trim()
          .split(/\s+/)
          .filter((w) => w !== "");
        const split = words.indexOf("PROGRAM");
        const options = split < 0 ? [] : words.slice(0, split);
        const programArgs = split < 0 ? words : words.slice(split + 1);
        const result = await renyiIn(dir, ["run", ...options, `${name}.ry`, ...programArgs], {}, join(work, "cache"));
        assert.equal(
          result.stdout.trimEnd(),
          (sections.get("stdout") ?? "").trimEnd(),
          `${name}: stdout differs with an idle guard`,
        );
        assert.equal(
          withoutGuardWarning(result.stderr).trimEnd(),
          (sections.get("stderr") ?? "").trimEnd(),
          `${name}: stderr differs with an idle guard`,
        );
        assert.equal(
          String(result.status),
          (sections.get("exit") ?? "").trim(),
          `${name}: exit code differs with an idle guard: ${result.stderr}`,
        );
        ran++;
      }
    }),
  );
  assert.ok(ran >= 20, `only ${ran} fixtures ran; left out: ${skipped.join(", ")}`);
  console.log(
    `idle guard: ${ran} run fixtures end as their golden files ` +
      `say${skipped.length > 0 ? `; left out (main has no needs line): ${skipped.join(", ")}` : ""}`,
  );
});
