// The programs `renyi serve --restate` serves, registered when it starts and
// never at a first call: each .ry program compiled (through the compile cache,
// which the runs then find), each bundle admitted as `renyi run` admits it
// (signed by a --trust key where one is given), main's grant judged against
// the ceiling as `renyi mcp`'s run tool judges it, and one program per name.
// Any refusal stops the command before it listens.

import { resolve } from "node:path";
import { checkModules } from "../../compiler/index.js";
import { grantItemOf } from "../../compiler/check/grants.js";
import { mainParameters } from "../../compiler/lower/module.js";
import { renderText } from "../../report/diagnostics.js";
import type { MainParameter } from "../../rtlib/arguments.js";
import { grantText, type GrantItem } from "../../vocabulary/needs.js";
import { admitBundle } from "../bundles/admit.js";
import { literal, NOT_LITERAL, type Node } from "../bundles/own-grant.js";
import { validateBundle } from "../bundles/validate.js";
import { compileWithCache } from "../cache/cached-compile.js";
import { loadProgram } from "../host/program.js";
import { judge, type Ceiling } from "../mcp/ceiling.js";

/** A program ready to be served: what each invocation needs to know of it. */
export interface Registered {
  /** main's module: the service's name. */
  readonly name: string;
  /** The file as the runs are given it (absolute). */
  readonly file: string;
  readonly bundle: boolean;
  /** The code hash of main and everything it reaches (cli/host/code-hash.ts). */
  readonly code: string;
  /** main's grant, each item as its needs line writes it. */
  readonly grant: string[];
  readonly parameters: readonly MainParameter[];
  /** The flags that narrow main's grant to the ceiling, for every run. */
  readonly narrowing: readonly string[];
}

export type Registration = { ok: true; programs: Registered[] } | { ok: false; problems: string[] };

/** Registers every program, or gives every reason one is refused. */
export async function register(
  files: readonly string[],
  ceiling: Ceiling,
  trust: readonly string[],
): Promise<Registration> {
  const programs: Registered[] = [];
  const problems: string[] = [];
  for (const given of files) {
    const one = given.endsWith(".mjs") ? await bundleOf(given, trust) : await programOf(given);
    if ("problem" in one) {
      problems.push(one.problem);
      continue;
    }
    const { items, ...rest } = one;
    const verdict = judge(items, ceiling);
    if (!verdict.within) {
      problems.push(
        `error: ${given}: main's grant lies outside the ceiling: ${verdict.outside.join("; ")}\n` +
          `  = help: to serve it, start renyi serve with ${verdict.flags.join(" ")}\n`,
      );
      continue;
    }
    const twin = programs.find((p) => p.name === rest.name);
    if (twin !== undefined) {
      problems.push(
        `error: ${given}: the program ${rest.name} is served already, from ${twin.file}: a service has one name; ` +
          `give each program a file name of its own\n`,
      );
      continue;
    }
    programs.push({ ...rest, narrowing: verdict.runFlags });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, programs };
}

type Read = (Omit<Registered, "narrowing"> & { items: GrantItem[] }) | { problem: string };

async function programOf(given: string): Promise<Read> {
  if (!given.endsWith(".ry"))
    return { problem: `error: ${given}: renyi serve serves a program, FILE.ry, or a bundle, DIR/NAME.mjs\n` };
  const file = resolve(given);
  const compiled = await compileWithCache(file);
  if ("diagnostics" in compiled) return { problem: renderText(compiled.diagnostics, compiled.sources) };
  // main's needs and parameters, from the checked program: the compiled text is never run here.
  const loaded = loadProgram(file);
  const checked = checkModules(loaded.modules, loaded.entry);
  const main = checked.program?.main;
  if (main === undefined)
    return { problem: `error: ${given}: the program has no main, so there is nothing to serve\n` };
  const items = main.needs.map(grantItemOf);
  return {
    name: compiled.program,
    file,
    bundle: false,
    code: compiled.code(),
    grant: items.map(grantText),
    parameters: plainParameters(mainParameters(main)),
    items,
  };
}

async function bundleOf(given: string, trust: readonly string[]): Promise<Read> {
  const file = resolve(given);
  const admitted = await admitBundle(file, trust);
  if (!admitted.ok) return { problem: `error[E-RT-REFUSED]: ${given}: ${admitted.problem}\n` };
  const validation = validateBundle(admitted.code);
  const parameters = validation.ok ? bundleParameters(validation.body) : undefined;
  if (parameters === undefined)
    return {
      problem: `error[E-RT-REFUSED]: ${given}: the bundle has no main, or its mainParameters are not written as data, as the compiler writes them\n`,
    };
  const items = admitted.grant ?? [];
  return {
    name: admitted.manifest.program,
    file,
    bundle: true,
    code: admitted.manifest.code,
    grant: admitted.manifest.grant,
    parameters,
    items,
  };
}

/** What the compiler writes for main's parameters (an array of records), read as data. */
function plainParameters(expression: unknown): MainParameter[] {
  const elements = (
    expression as { elements: { properties: { key: { name: string }; value: { value: unknown } }[] }[] }
  ).elements;
  return elements.map(
    (element) =>
      Object.fromEntries(element.properties.map((p) => [p.key.name, p.value.value])) as unknown as MainParameter,
  );
}

/** `export const mainParameters = [...]` in the bundle's syntax tree, read as data, checked for its shape. */
function bundleParameters(body: readonly object[]): MainParameter[] | undefined {
  for (const statement of body as readonly Node[]) {
    if (statement.type !== "ExportNamedDeclaration") continue;
    const declaration = statement["declaration"] as Node | null;
    if (declaration?.type !== "VariableDeclaration") continue;
    for (const declarator of declaration["declarations"] as Node[]) {
      if ((declarator["id"] as Node)["name"] !== "mainParameters") continue;
      const value = literal(declarator["init"] as Node);
      if (value === NOT_LITERAL || !Array.isArray(value) || !value.every(isParameter)) return undefined;
      return value;
    }
  }
  return undefined;
}

function isParameter(value: unknown): value is MainParameter {
  if (typeof value !== "object" || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p["name"] === "string" &&
    typeof p["type"] === "string" &&
    typeof p["optional"] === "boolean" &&
    typeof p["hasDefault"] === "boolean" &&
    typeof p["words"] === "boolean"
  );
}
