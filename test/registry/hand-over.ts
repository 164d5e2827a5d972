/** What one concurrent test makes and another uses. */
export interface HandOver {
  /** Settles once the making test has made it (or failed to); the using test awaits it. */
  ready: Promise<void>;
  /** Settles `ready` with the outcome of the making test's `work`, and returns that outcome. */
  from<T>(work: Promise<T>): Promise<T>;
}

/** A {@link HandOver} of `what` (named in the error a using test fails with when the making test failed). */
export function handOver(what: string): HandOver {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const ready = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Not an unhandled rejection when no test uses it (a using test skipped); a using test still fails with it.
  ready.catch(() => undefined);
  return {
    ready,
    from(work) {
      work.then(resolve, () => reject(new Error(`${what} was not made: the test that makes it failed`)));
      return work;
    },
  };
}
