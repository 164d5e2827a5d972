/**
 * Standard error as a log sink that can never crash the process. When the
 * reader of our stderr dies (a plugin's host was killed), the next write
 * fails with EPIPE, reported as an 'error' event: without a listener that
 * event is an uncaught exception, and a plugin would crash on the very log
 * line that announces its shutdown. Once stderr has failed, lines are
 * dropped: there is nobody left to read them.
 */
let guarded = false;
let gone = false;

/** Listens for stderr's 'error' event (once per process), so a broken stderr is never fatal. */
export function guardStderr(): void {
  if (guarded) return;
  guarded = true;
  process.stderr.on("error", () => {
    gone = true;
  });
}

/** True once a write to stderr has failed. */
export function stderrGone(): boolean {
  return gone;
}

/** Writes to stderr, or drops the text once stderr is gone; never throws. */
export function writeStderr(text: string): void {
  if (!guarded) guardStderr();
  if (gone || process.stderr.destroyed) return;
  try {
    process.stderr.write(text);
  } catch {
    gone = true;
  }
}
