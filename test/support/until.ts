/**
 * Resolves once `condition()` is true, checking every 10 ms; rejects naming
 * `what` after `timeoutMs` (default 10 s). For work a call answers before it
 * is done, such as notifications a chat channel queued.
 */
export async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
