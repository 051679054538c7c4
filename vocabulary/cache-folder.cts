// Where the compile cache lives, as the environment names it: one rule for the
// command line, which keeps the cache there, and for the runtime, which
// refuses a program any path in it whatever the grant.

/**
 * RENYI_CACHE_DIR, else XDG_CACHE_HOME/renyi, else HOME/.cache/renyi; undefined when none is known. The caller makes it
 * absolute.
 */
export function cacheFolderNamed(
  env: Readonly<Record<string, string | undefined>>,
  home: string | undefined,
): string | undefined {
  const named = env["RENYI_CACHE_DIR"];
  if (named !== undefined) return named;
  const base = env["XDG_CACHE_HOME"] ?? (home === undefined || home === "" ? undefined : `${home}/.cache`);
  return base === undefined ? undefined : `${base}/renyi`;
}
