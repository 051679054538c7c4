// The Restate SDK calls Promise.withResolvers, which Node 20 lacks (it came
// with Node 22). Every module that loads the SDK imports this one first, so
// that the SDK finds it whichever of them loads it.

interface WithResolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const PromiseWith = Promise as unknown as { withResolvers?: <T>() => WithResolvers<T> };

if (typeof PromiseWith.withResolvers !== "function") {
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor): WithResolvers<T> {
      let resolve!: WithResolvers<T>["resolve"];
      let reject!: WithResolvers<T>["reject"];
      const promise = new this<T>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      return { promise, resolve, reject };
    },
  });
}

export {};
