/** Counts the calls being answered, so shutdown can wait until they are. */
export class CallTracker {
  private active = 0;
  private waiters: (() => void)[] = [];

  /** A call starts; the function returned ends it (idempotent). */
  begin(): () => void {
    this.active++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.active === 0) for (const resolve of this.waiters.splice(0)) resolve();
    };
  }

  /** Resolves once no call is being answered. */
  idle(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
