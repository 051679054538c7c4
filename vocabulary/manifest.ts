// The grant manifest's shape (spec/security.md, "Bundles and their manifests"):
// what `renyic build` writes next to a bundle, and what `renyi run` reads back
// as hostile input before it takes the run's grant from it.

/** A grant item as the manifest writes it: the capability by name, its scope, budget and guard. */
export interface ManifestNeed {
  capability: string;
  scope?: string | number;
  budget?: { count: number; unit: string };
  guard?: { sinks: string[] };
}

/** What `renyic build` writes, field for field in this order. */
export interface Manifest {
  program: string;
  toolchain: string;
  entry: string;
  source: string;
  sources: { module: string; file: string; hash: string }[];
  /** The hash of everything main reaches: the program's sources, in module order. */
  code: string;
  bundle: string;
  /** The hash of the source map. */
  map: string;
  /** The texts of `needs`, as `main`'s needs line writes them (grantText). */
  grant: string[];
  needs: ManifestNeed[];
  built_at?: string;
}
