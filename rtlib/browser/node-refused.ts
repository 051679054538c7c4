// What the runtime bundled for a browser has in place of the Node modules it names but a
// browser run never needs (spec/view.md, section 8; scripts/browser-seams.mjs): node:url,
// node:worker_threads, node:v8, node:vm. The memory limit does not apply in a browser (the
// page's worker is ended by the page at its time limit instead): the heap reads as empty.

export function pathToFileURL(path: string): URL {
  throw new Error(`${path}: no file is reached from a browser`);
}

export function fileURLToPath(url: string | URL): string {
  throw new Error(`${String(url)}: no file is reached from a browser`);
}

export const isMainThread = false;

export function getHeapStatistics(): { used_heap_size: number; external_memory: number } {
  return { used_heap_size: 0, external_memory: 0 };
}

export function setFlagsFromString(_flags: string): void {}

export function runInNewContext(_code: string): () => void {
  return () => {};
}
