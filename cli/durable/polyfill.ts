// Promise.withResolvers, which the Restate SDK calls and Node 20 lacks. Imported
// before the SDK, always.

const promises = Promise as unknown as { withResolvers?: unknown };
if (promises.withResolvers === undefined)
  promises.withResolvers = function withResolvers<T>() {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };

export {};
