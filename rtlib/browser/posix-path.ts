// node:path's posix functions the runtime uses (dirname, join, resolve, basename), for the
// runtime bundled for a browser (spec/view.md, section 8), where scripts/browser-seams.mjs puts
// this in place of `node:path`. There is no working folder in a browser: a relative path is
// resolved from `/`. Paths reach these only in a replay, where no file is touched.

import { normalisePath } from "../../vocabulary/capabilities.js";

// node:path's normalize is the vocabulary's reading of a path scope: the same rules (`.`, `..`, repeated slashes).
const normalize = normalisePath;

export function join(...paths: string[]): string {
  const given = paths.filter((p) => p !== "");
  return given.length === 0 ? "." : normalize(given.join("/"));
}

export function resolve(...paths: string[]): string {
  let path = "";
  for (let i = paths.length - 1; i >= 0 && !path.startsWith("/"); i--)
    if (paths[i] !== "") path = path === "" ? paths[i]! : `${paths[i]}/${path}`;
  const resolved = normalize(path.startsWith("/") ? path : `/${path}`);
  return resolved.length > 1 && resolved.endsWith("/") ? resolved.slice(0, -1) : resolved;
}

export function dirname(path: string): string {
  if (path === "") return ".";
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const at = trimmed.lastIndexOf("/");
  if (at < 0) return ".";
  if (at === 0) return "/";
  return trimmed.slice(0, at).replace(/\/+$/, "") || "/";
}

export function basename(path: string, suffix?: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const base = trimmed.slice(trimmed.lastIndexOf("/") + 1);
  return suffix !== undefined && base.endsWith(suffix) && base !== suffix ? base.slice(0, -suffix.length) : base;
}

export const sep = "/";
export const posix = { join, resolve, dirname, basename, sep };
