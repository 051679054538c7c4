// `renyic build FILE.ry --out DIR [--stable] [--sign KEY]`: the program as one
// bundle, DIR/NAME.mjs, its source map, and its grant manifest
// DIR/NAME.grant.json; with --sign, the manifest's signature DIR/NAME.grant.sig.
// With --stable the files are byte-identical for the same sources, toolchain and
// key (Ed25519 signatures are deterministic): no times, and every path relative
// to the entry's folder.

import { rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { CheckedGrantItem, Program } from "../../compiler/check/checked.js";
import type { ModuleText } from "../../compiler/build.js";
import { grantItemOf } from "../../compiler/check/grants.js";
import { grantText, needText } from "../../vocabulary/needs.js";
import { renderText } from "../../compiler/diagnostics.js";
import { SourceFile } from "../../compiler/source.js";
import { makeFolders, writeAtomically } from "../cache/cache.cjs";
import { EXIT } from "../../vocabulary/outcomes.js";
import type { Manifest } from "../../vocabulary/manifest.js";
import { loadProgram } from "../host/program.js";
import { readPrivateKey, signManifest, showKey } from "../bundles/signing.js";
import { RUNTIME_SPECIFIER, sha256 } from "../bundles/validate.js";
import { VERSION } from "../host/version.cjs";
import { programCode } from "../host/code-hash.js";
import { collectGarbage } from "../../rtlib/collect-garbage.js";

export async function buildCommand(
  file: string,
  options: { out?: string; stable?: boolean; sign?: string },
): Promise<number> {
  if (options.out === undefined) {
    process.stderr.write("error: `renyic build` needs --out DIR: `renyic build program.ry --out dist`\n");
    return EXIT.refused;
  }
  // The key is read first: a build that cannot be signed as asked writes nothing.
  const signer = options.sign === undefined ? undefined : readPrivateKey(options.sign);
  if (signer !== undefined && !signer.ok) {
    process.stderr.write(`error: ${signer.problem}\n`);
    return EXIT.refused;
  }
  const checked = await checkForBuild(file);
  if (!checked.ok) {
    process.stderr.write(checked.problems);
    return EXIT.refused;
  }
  const { modules, program, code: codeOfProgram } = checked;
  // The syntax trees let go of above are half of a large program's memory: collected now, before the
  // bundle is made, rather than whenever the engine's heuristics next collect the whole heap (which,
  // with little garbage made since, was sometimes never: a peak half as large again).
  collectGarbage();
  const { bundleOrRefusal } = await import("../../compiler/build.js");
  const name = checked.entry;
  const bundle = bundleOrRefusal(program, modules, { runtime: RUNTIME_SPECIFIER, entry: name, file: `${name}.mjs` });
  if ("severity" in bundle) {
    process.stderr.write(renderText([bundle], new Map(modules.map((m) => [m.file, new SourceFile(m.file, m.text)]))));
    return EXIT.refused;
  }
  // Encoded once: the bytes hashed are the bytes written (a string is encoded anew by each).
  const code = Buffer.from(`${bundle.code}//# sourceMappingURL=${name}.mjs.map\n`, "utf8");
  const map = Buffer.from(`${JSON.stringify(bundle.map)}\n`, "utf8");
  const main = program.main?.needs ?? [];
  const manifest: Manifest = {
    program: name,
    toolchain: `renyi ${VERSION}`,
    entry: "main",
    source: relative(dirname(file), file) || file,
    sources: modules.map((m) => ({ module: m.name, file: m.file, hash: sha256(m.text) })),
    code: codeOfProgram,
    bundle: sha256(code),
    map: sha256(map),
    grant: main.map((item) => grantText(grantItemOf(item))),
    needs: main.map(needEntry),
    ...(options.stable ? {} : { built_at: new Date().toISOString() }),
  };
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  try {
    makeFolders(options.out);
    // Each file whole or not at all; the bundle last, so that a bundle is never beside an older manifest's hash unnoticed.
    writeAtomically(join(options.out, `${name}.mjs.map`), map);
    writeAtomically(join(options.out, `${name}.grant.json`), manifestText);
    // The signature covers the manifest's bytes exactly as written. An unsigned build
    // takes away an older build's signature, which would otherwise sit beside a
    // manifest it was not made for.
    const signature = join(options.out, `${name}.grant.sig`);
    if (signer === undefined) rmSync(signature, { force: true });
    else writeAtomically(signature, signManifest(Buffer.from(manifestText, "utf8"), signer.key, signer.id));
    writeAtomically(join(options.out, `${name}.mjs`), code);
  } catch (e) {
    process.stderr.write(
      `error: I cannot write the bundle into ${options.out} (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`,
    );
    return EXIT.refused;
  }
  if (signer !== undefined) process.stdout.write(`signed ${name}.grant.json with ${showKey(signer.id)}\n`);
  return EXIT.finished;
}

/**
 * The program read and checked, its modules' paths relative to the entry's folder;
 * or its problems as text. In a function of its own, so that the syntax trees,
 * which nothing needs once the program is checked, are let go before the bundle
 * is made (half of a large program's memory).
 */
async function checkForBuild(
  file: string,
): Promise<
  { ok: true; entry: string; program: Program; modules: ModuleText[]; code: string } | { ok: false; problems: string }
> {
  const loaded = loadProgram(file);
  if (loaded.problems.length > 0) return { ok: false, problems: renderText(loaded.problems, loaded.sources) };
  // Paths in the bundle, its map and its manifest are relative to the entry's folder.
  const folder = dirname(file);
  const modules = loaded.modules.map((m) => ({ ...m, file: relative(folder, m.file) || m.file }));
  const { checkProgramSources } = await import("../../compiler/index.js");
  const { textOf } = await import("../../compiler/build.js");
  const checked = checkProgramSources(modules, loaded.entry);
  if (checked.program === undefined) {
    // The checker's positions name the files as they were read; the bundle's, relative to the entry's folder.
    return {
      ok: false,
      problems: renderText(
        checked.diagnostics,
        new Map([
          ...loaded.sources,
          ...modules.map((m): [string, SourceFile] => [m.file, new SourceFile(m.file, m.text)]),
        ]),
      ),
    };
  }
  // The code hash reads the syntax trees, which are let go with the rest.
  const code = programCode(loaded);
  return { ok: true, entry: loaded.entry, program: checked.program, modules: modules.map(textOf), code };
}

function needEntry(item: CheckedGrantItem): Manifest["needs"][number] {
  return {
    capability: item.capability.path.join("."),
    ...(item.capability.scope !== undefined ? { scope: item.capability.scope } : {}),
    ...(item.budget ? { budget: item.budget } : {}),
    ...(item.guard ? { guard: { sinks: item.guard.sinks.map(needText) } } : {}),
  };
}
