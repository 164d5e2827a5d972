import { setFlagsFromString } from "node:v8";

/**
 * How far V8 may let the old generation grow past what the last full GC
 * kept before it collects again: to (1 + this / 100) times the live heap.
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * Makes V8 collect the old generation before it has grown by more than
 * {@link HEAP_GROWING_PERCENT} % of the live heap. Left to itself, V8
 * lets it grow up to 4 times when major GCs are cheap (as with the
 * controller's ~15 MB of live objects), so the peak RSS of a busy
 * `errand run` swung by 30 MB from run to run; with this, the old
 * generation stays near 1.3 × live at a cost of a few more (concurrent)
 * major GCs (docs/benchmarks.md). Node applies the flag at run time:
 * V8 reads it each time it sets the next limit, unlike the heap's size
 * limits (`--max-old-space-size`), which only count at start-up and so
 * would need a flag on node's command line (an `env -S` shebang or a
 * second node process). Does nothing when node was started with its own
 * `--heap-growing-percent` (0 restores V8's default); returns whether it
 * set the flag.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
