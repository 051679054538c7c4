// Which account a piece of code charges, when requests run concurrently.
//
// Tasks interleave only where a promise's reaction runs (an `await` resuming,
// a `catch` after an awaited failure, a library function going on after it
// awaited). V8's promise hooks see each of those: every promise is tagged
// with the account that was loaded when it was made, and before its reaction
// runs that account is loaded again. A request's handler starts with its own
// account loaded (lib/server.ts), so everything it awaits, however deep and
// however interleaved with other requests, is charged to it, exactly.
//
// The hooks cost a little on every promise, so they are installed by the
// first `server.serve` of a run, and stay: a promise made before that is the
// run's own, and one without a tag is charged to the run.

import { loadedAccount, switchTo, theRunAccount, type Account } from "./limits.js";
import { hostImport } from "./host-import.js";

const ACCOUNT = Symbol("renyi.account");
type Tagged = Promise<unknown> & { [ACCOUNT]?: Account };

let installed = false;

export async function trackTasks(): Promise<void> {
  if (installed) return;
  const { promiseHooks } = await hostImport<typeof import("node:v8")>("node:v8");
  if (installed) return;
  installed = true;
  promiseHooks.onInit((promise: Tagged) => {
    promise[ACCOUNT] = loadedAccount();
  });
  promiseHooks.onBefore((promise: Tagged) => {
    switchTo(promise[ACCOUNT] ?? theRunAccount());
  });
}
