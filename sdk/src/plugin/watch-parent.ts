/**
 * Calls `onOrphaned` once the process that started us has exited. When a
 * parent dies its children are re-parented, so a changed ppid means the host
 * is gone and nobody will ever call Shutdown.
 */
export function watchParent(intervalMs: number, onOrphaned: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, intervalMs);
  // The watch alone must not keep the process alive.
  timer.unref();
}
