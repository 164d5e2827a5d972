/** What one concurrent test makes and another uses. */
export interface HandOver {
  /** Settles once the making test has made it (or failed to); the using test awaits it. */
  ready: Promise<void>;
  /** Runs the making test's work and settles `ready` with its outcome; rethrows its error. */
  making: (work: () => Promise<void>) => Promise<void>;
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
    async making(work) {
      try {
        await work();
        resolve();
      } catch (error) {
        reject(new Error(`${what} was not made: the test that makes it failed`));
        throw error;
      }
    },
  };
}
