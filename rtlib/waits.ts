// Waits longer than a timer can hold. Node's setTimeout takes at most
// 2^31 - 1 ms (about 24.8 days); a longer delay is cut to 1 ms with a
// TimeoutOverflowWarning. A long wait is therefore a chain of timers, each at
// most that long, so that `time.sleep(time.hours(1000))` and
// `renyi run --timeout 3000000` wait as long as they say.

/** The longest delay one timer takes. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The delays of the timers a wait of `ms` is made of, in order (none for a wait of 0 or less). */
export function timerSlices(ms: number): number[] {
  const slices: number[] = [];
  let left = Math.max(0, ms);
  while (left > MAX_TIMER_MS) {
    slices.push(MAX_TIMER_MS);
    left -= MAX_TIMER_MS;
  }
  slices.push(left);
  return slices;
}

export interface LongTimer {
  /** Stops the wait; `then` is not called. */
  clear(): void;
  /** Lets the process end while the wait goes on (as Node's timer.unref). */
  unref(): void;
}

/** Calls `then` once `ms` milliseconds have passed, however many that is (an Int's worth at most). */
export function longTimeout(then: () => void, ms: number): LongTimer {
  let left = Math.max(0, ms);
  let referenced = true;
  let timer: ReturnType<typeof setTimeout>;
  const next = (): void => {
    const slice = Math.min(left, MAX_TIMER_MS);
    left -= slice;
    timer = setTimeout(left > 0 ? next : then, slice);
    if (!referenced) timer.unref();
  };
  next();
  return {
    clear: () => clearTimeout(timer),
    unref: () => {
      referenced = false;
      timer.unref();
    },
  };
}
