// The project's folders and what each may import (spec/README.md, "One
// vocabulary"): vocabulary/ imports nothing else of the project; report/ (what
// shows problems and outcomes) only vocabulary/; the compiler nothing of the
// runtime or the command line; the runtime nothing of the compiler or the
// command line; the command line's rooms (cli/*/) each only the rooms below
// it, in the order of ROOMS, and the commands and the two entry points
// (cli/renyi.cts, cli/renyic.ts) anything; the page of `renyi view` (view/) anything but the
// command line. Read from the sources themselves,
// every import, export-from, import(), require() and the runtime's
// hostImport() (rtlib/host-import.ts), whose relative specifiers are resolved
// from the root: in the runtime's one file they are resolved beside
// dist/runtime-import.cjs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./golden.js";
import { importsOf, sourceFiles, targetOf, type Import } from "./source-imports.js";

const FOLDERS = ["vocabulary", "report", "compiler", "editor", "rtlib", "view", "cli"] as const;

/**
 * The rooms of the command line, a row each, each over the ones before it: a
 * room may import the rooms before it and none after it.
 */
const ROOM_ROWS = [
  ["cli/host", "what every room shares: reading sources, the version, refusals, where the built files are"],
  [
    "cli/bundles",
    "the trusted base for bundles: the validator, the manifest's checks, signatures, a bundle's own grant",
  ],
  ["cli/cache", "the compile cache: compiled programs and modules, the program index, the V8 code caches"],
  ["cli/tracing", "a run's traces and log lines: the spans its worker gathers, the OTLP JSON file, the collector"],
  ["cli/running", "a program's run: its options, the worker thread, isolation, interrupts, the execution record"],
  [
    "cli/recordings",
    "recordings on the host's side: reading, sealing, redaction, the least grant, the replay and resume plans",
  ],
  ["cli/testing", "`renyi test`: finding tests, compiling them, running each in a thread, replays tests, the report"],
  ["cli/mcp", "`renyi mcp`: the tool server, its ceiling, its worker pool, its audit log"],
  [
    "cli/durable",
    "durable runs on Restate: `renyi serve --restate`, its journal and budget object; a durable run's plan and channel",
  ],
  ["cli/lsp", "`renyi lsp`: the language server over stdio, its documents, its answers in the protocol's types"],
  ["cli/view", "`renyi view`: the page's server, its token and refusals, what it reads of programs and recordings"],
  ["cli/commands", "one file per command: read the command line, call what does the work, present the result"],
] as const;
const ROOMS = ROOM_ROWS.map(([room]) => room);

/** The two entry points, cli/renyi.cts and cli/renyic.ts, which import anything. */
const ENTRY = "cli/entry";
type Room = (typeof ROOM_ROWS)[number][0];
type Place = Exclude<(typeof FOLDERS)[number], "cli"> | Room | typeof ENTRY;

const OUTSIDE = ["tests", "bench", "scripts"];
/** The places of the project each place must not import; `cli` stands for the entry points and every room. */
const FORBIDDEN: Record<Place, readonly string[]> = {
  vocabulary: ["report", "compiler", "rtlib", "cli", ...OUTSIDE],
  report: ["compiler", "rtlib", "cli", ...OUTSIDE],
  compiler: ["editor", "rtlib", "cli", ...OUTSIDE],
  // The editor's services read text and the compiler's trees; like the compiler they run in a browser too.
  editor: ["rtlib", "cli", ...OUTSIDE],
  rtlib: ["compiler", "editor", "cli", ...OUTSIDE],
  // The page of `renyi view` and its playground's worker run in a browser: the compiler, the editor's
  // services and the runtime, never the command line.
  view: ["cli", ...OUTSIDE],
  [ENTRY]: OUTSIDE,
  ...(Object.fromEntries(ROOMS.map((room, i) => [room, [ENTRY, ...ROOMS.slice(i + 1), ...OUTSIDE]])) as Record<
    Room,
    string[]
  >),
};

/** The place a file of the project is in: its folder, or its room when it is in one of cli's. */
function placeOf(path: string): string {
  const [folder, room, rest] = path.split("/");
  if (folder !== "cli") return folder!;
  return rest === undefined ? ENTRY : `${folder}/${room}`;
}

/** The forbidden place `to` is, or is in (`cli` holds every room and the entry points). */
function forbiddenMatch(from: Place, to: string): string | undefined {
  return FORBIDDEN[from]?.find((f) => to === f || to.startsWith(`${f}/`));
}

/** The folder of the project a relative import lands in, from a file's path relative to the root. */
function folderOf(i: Import): string | undefined {
  const target = targetOf(i);
  return target === undefined ? undefined : placeOf(target);
}

/** Every import that breaks the rules, as `file:line imports specifier (folder may not import other)`. */
export function brokenRules(imports: readonly Import[]): string[] {
  const broken: string[] = [];
  for (const i of imports) {
    const from = placeOf(i.file) as Place;
    const to = folderOf(i);
    const isPackage = !i.specifier.startsWith(".") && !i.specifier.startsWith("node:");
    if (from === "vocabulary" && isPackage)
      broken.push(`${i.file}:${i.line} imports ${i.specifier} (vocabulary imports no package)`);
    // The protocol's SDK is loaded by `renyi mcp` alone, whose files are cli/mcp*.ts.
    if (/^(@modelcontextprotocol\/sdk|zod)(\/|$)/.test(i.specifier) && from !== "cli/mcp")
      broken.push(`${i.file}:${i.line} imports ${i.specifier} (only cli/mcp/ imports the protocol's SDK)`);
    // The language server's library is loaded by `renyi lsp` alone.
    if (/^vscode-languageserver(-[a-z]+)?(\/|$)/.test(i.specifier) && from !== "cli/lsp")
      broken.push(`${i.file}:${i.line} imports ${i.specifier} (only cli/lsp/ imports the language server's library)`);
    const match = to === undefined ? undefined : forbiddenMatch(from, to);
    if (match !== undefined)
      broken.push(`${i.file}:${i.line} imports ${i.specifier} (${from} may not import ${match})`);
  }
  return broken;
}

test("the rules catch an import across a forbidden line, and pass an allowed one", () => {
  const made = [
    ...importsOf(
      "compiler/check/grants.ts",
      'import { coveredBy } from "../../rtlib/capabilities.js";\nimport { needText } from "../../vocabulary/needs.js";',
    ),
    ...importsOf(
      "rtlib/grants.ts",
      'const { x } = require("../cli/exit.js");\nimport type { Span } from "../compiler/source.js";',
    ),
    ...importsOf(
      "vocabulary/needs.ts",
      'export { y } from "../rtlib/index.js";\nimport "acorn";\nimport { z } from "./capabilities.js";',
    ),
    ...importsOf(
      "cli/commands/run.ts",
      'const m = await import("../rtlib/index.js");\nimport { w } from "../compiler/build.js";',
    ),
    ...importsOf(
      "rtlib/entry.ts",
      'const { f } = await hostImport<{ f: (o: Outcome) => number }>("./cli/bundle-outcome.js");\n' +
        'await hostImport("./report/bundle-outcome.js");\nhostImport<typeof import("node:fs")>("node:fs");',
    ),
    ...importsOf(
      "report/outcome-text.ts",
      'import { renderText } from "./diagnostics.js";\n' +
        'import { moduleOfPrefix } from "../compiler/lower/names.js";\n' +
        'import { EXIT } from "../vocabulary/outcomes.js";',
    ),
    ...importsOf("compiler/index.ts", 'import { z } from "zod";'),
    ...importsOf("cli/commands/run.ts", 'import { Client } from "@modelcontextprotocol/sdk/client/index.js";'),
    ...importsOf(
      "cli/mcp/server.ts",
      'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";',
    ),
    ...importsOf(
      "cli/bundles/admit.ts",
      'import { runCommand } from "../commands/run.js";\nimport { DIST } from "../host/places.cjs";\n' +
        'import "../renyi.cjs";',
    ),
    ...importsOf(
      "cli/commands/test.ts",
      'import { serve } from "../mcp/server.js";\nimport { x } from "../../vocabulary/outcomes.js";',
    ),
  ];
  assert.equal(made.length, 25);
  assert.deepEqual(brokenRules(made), [
    "compiler/check/grants.ts:1 imports ../../rtlib/capabilities.js (compiler may not import rtlib)",
    "rtlib/grants.ts:1 imports ../cli/exit.js (rtlib may not import cli)",
    "rtlib/grants.ts:2 imports ../compiler/source.js (rtlib may not import compiler)",
    "vocabulary/needs.ts:1 imports ../rtlib/index.js (vocabulary may not import rtlib)",
    "vocabulary/needs.ts:2 imports acorn (vocabulary imports no package)",
    "rtlib/entry.ts:1 imports ./cli/bundle-outcome.js (rtlib may not import cli)",
    "report/outcome-text.ts:2 imports ../compiler/lower/names.js (report may not import compiler)",
    "compiler/index.ts:1 imports zod (only cli/mcp/ imports the protocol's SDK)",
    "cli/commands/run.ts:1 imports @modelcontextprotocol/sdk/client/index.js (only cli/mcp/ imports the " +
      "protocol's SDK)",
    "cli/bundles/admit.ts:1 imports ../commands/run.js (cli/bundles may not import cli/commands)",
    "cli/bundles/admit.ts:3 imports ../renyi.cjs (cli/bundles may not import cli/entry)",
  ]);
});

test("every source file imports only what its folder may", () => {
  const files = FOLDERS.flatMap(sourceFiles);
  for (const room of ROOMS)
    assert.ok(
      files.some((f) => f.startsWith(`${room}/`)),
      `the room ${room} has files`,
    );
  const unlisted = files.filter(
    (f) => f.startsWith("cli/") && placeOf(f) !== ENTRY && !(ROOMS as readonly string[]).includes(placeOf(f)),
  );
  assert.deepEqual(unlisted, [], "every folder of cli/ is a room with its row");
  const imports = files.flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), "utf8")));
  console.log(`imports: ${files.length} files, ${imports.length} imports checked`);
  assert.ok(
    files.some((f) => f.startsWith("vocabulary/")),
    "the vocabulary's files are found",
  );
  assert.deepEqual(brokenRules(imports), []);
});
