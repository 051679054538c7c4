// Packages the VS Code extension (editors/vscode) as a .vsix: `npm run vsix`.
//
// The grammar's one source is editors/renyi.tmLanguage.json; it is copied into
// the package here. The client (editors/vscode/src/extension.ts) is
// type-checked with its own tsconfig and bundled with esbuild into
// dist/extension.js, with `vscode` left to the editor. vsce then packages the
// folder, offline, without looking for dependencies (the bundle holds them).
// Options:
//   --out DIR   build in DIR (a copy of the extension's folder) and write
//               DIR/renyi-VERSION.vsix there; the extension's own folder is
//               left as it is (the tests use this)
// Without --out the build goes to editors/vscode/dist and the package to
// editors/vscode/renyi-VERSION.vsix. VERSION is the project's version, which
// the extension's package.json must carry too.

import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const require = createRequire(import.meta.url);
// The two commands, by their paths inside their packages.
const tscCommand = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");
const vsceCommand = join(dirname(require.resolve("@vscode/vsce/package.json")), "vsce");
const source = join(root, "editors", "vscode");
const outIndex = process.argv.indexOf("--out");
const outDir = outIndex === -1 ? undefined : process.argv[outIndex + 1];
if (outIndex !== -1 && (outDir === undefined || outDir.startsWith("--"))) fail("--out takes a folder");

function fail(message) {
  console.error(`vsix: ${message}`);
  process.exit(1);
}

const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
const manifest = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));
if (manifest.version !== version) {
  fail(`editors/vscode/package.json has version ${manifest.version}, the project ${version}: make them the same`);
}

// The folder vsce packages: the extension's own, or a copy of its sources in --out.
let stage = source;
if (outDir !== undefined) {
  stage = join(resolve(outDir), "extension");
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  for (const name of ["package.json", "language-configuration.json", "README.md", "LICENSE", ".vscodeignore"]) {
    copyFileSync(join(source, name), join(stage, name));
  }
  cpSync(join(source, "src"), join(stage, "src"), { recursive: true });
}
const dist = join(stage, "dist");
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

copyFileSync(join(root, "editors", "renyi.tmLanguage.json"), join(dist, "renyi.tmLanguage.json"));

const tsc = spawnSync(process.execPath, [tscCommand, "-p", join(source, "tsconfig.json")], {
  stdio: "inherit",
});
if (tsc.status !== 0) fail("the extension's client does not type-check");

await build({
  entryPoints: [join(stage, "src", "extension.ts")],
  outfile: join(dist, "extension.js"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  // The bundle resolves its packages from the project's node_modules.
  nodePaths: [join(root, "node_modules")],
  logLevel: "warning",
  legalComments: "none",
  minify: true,
});

const vsix = join(outDir === undefined ? source : resolve(outDir), `renyi-${version}.vsix`);
const vsce = spawnSync(
  process.execPath,
  [vsceCommand, "package", "--no-dependencies", "--allow-missing-repository", "--out", vsix],
  { cwd: stage, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, npm_config_offline: "true" } },
);
if (vsce.status !== 0) fail("vsce package failed");
console.log(`vsix: ${vsix}`);
