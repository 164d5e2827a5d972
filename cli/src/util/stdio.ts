/**
 * Keeps a reader that goes away (`channel test | head -1`) from crashing the
 * process: without a listener, a write to a closed pipe is an unhandled
 * 'error' event. The command carries on (plugins are still stopped, files
 * still written, the exit code still tells the outcome); only its output is
 * lost, which is what the reader asked for by leaving.
 */
export function guardStdio(): void {
  if (process.stdout.listenerCount("error") === 0) process.stdout.on("error", () => {});
  // With stderr gone there is nowhere left to report to.
  if (process.stderr.listenerCount("error") === 0) process.stderr.on("error", () => {});
}
