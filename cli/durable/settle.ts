// Awaiting Restate's promises. The SDK follows one awaited promise at a time
// (a second awaited at once ends the attempt), so an invocation awaits each
// through here, one after another, and what it waits on together is one race.
// A cancellation comes as a CancelledError of whatever is awaited when it
// arrives: it is noted, and the same promise is awaited again (a fresh
// combinator, since the one cancelled stays rejected).

import "./polyfill.js";
import * as restate from "@restatedev/restate-sdk";

export class Settler {
  cancelled = false;
  /** Told once, when the invocation is cancelled. */
  onCancel: () => void = () => undefined;

  async settle<T>(promise: restate.RestatePromise<T>): Promise<T> {
    try {
      return await promise;
    } catch (e) {
      if (!(e instanceof restate.CancelledError)) throw e;
      this.noteCancel();
    }
    for (;;) {
      try {
        return (await restate.RestatePromise.all([promise]))[0] as T;
      } catch (e) {
        if (!(e instanceof restate.CancelledError)) throw e;
      }
    }
  }

  noteCancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.onCancel();
  }
}
