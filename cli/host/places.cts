// Where the built toolchain's files are. Found from the folder of the file this
// code runs in, going up to the folder that holds the runtime (dist/): the same
// answer whether this module runs as its own file or bundled into another one
// (scripts/bundle.mjs writes its bundles to dist/cli, not beside their sources).
// CommonJS, so that every bundle shares this one file.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

function distFolder(): string {
  for (let folder = __dirname; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "runtime.cjs"))) return folder;
    if (dirname(folder) === folder) throw new Error(`no runtime.cjs above ${__dirname}: the toolchain is not built`);
  }
}

const DIST = distFolder();
/** The folder of the package: package.json, spec/, examples/. */
export const PACKAGE_ROOT = dirname(DIST);
/** The runtime as one CommonJS file, which the worker and the programs compiled for it require. */
export const RUNTIME_PATH = join(DIST, "runtime.cjs");
/** The runtime as an ES module (the same module), which a bundle built by renyic imports. */
export const RUNTIME_URL = pathToFileURL(join(DIST, "runtime.js")).href;
export const BUILD_ID_FILE = join(DIST, "build-id.json");
/** The `renyi` command itself, which `renyi mcp` runs programs with. */
export const RENYI_COMMAND = join(DIST, "cli", "renyi.cjs");
/** The thread a program runs in, bundled (cli/running/worker.cts). */
export const PROGRAM_WORKER = join(DIST, "cli", "worker-thread.cjs");
/** The thread one test runs in (cli/testing/worker.cts). */
export const TEST_WORKER = join(DIST, "cli", "testing", "worker.cjs");
/** `renyi run`'s own code on the main thread as one file, loaded with its code cache (cli/cache/code-cache.cts). */
export const RUN_BUNDLED = join(DIST, "cli", "run-bundled.cjs");
/** `renyi run`'s compile path as one file, loaded with its code cache (cli/cache/code-cache.cts). */
export const COMPILE_PATH = join(DIST, "cli", "compile-bundled.cjs");
/** The worker thread of `renyi mcp`: bundled when the build made the bundle, else as its own module. */
export const MCP_WORKER_BUNDLED = join(DIST, "cli", "mcp-worker-bundled.js");
export const MCP_WORKER = join(DIST, "cli", "mcp", "worker.js");
/** The reader of `renyi view`, a process of its own: bundled when the build made the bundle, else as its own module. */
export const VIEW_READER_BUNDLED = join(DIST, "cli", "view-reader-bundled.js");
export const VIEW_READER = join(DIST, "cli", "view", "reader.js");
