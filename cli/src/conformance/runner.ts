import { type CheckEnvironment, CheckFailure, type CheckResult, CheckSkipped } from "./check.js";
import { CHECK_IDS, PHASES } from "./checks/index.js";

/** Options of {@link runConformance}. */
export interface RunOptions {
  /** Check ids or prefixes to run; default all. */
  only?: string[];
  skip?: string[];
  /** Checks at once; default 4. */
  concurrency?: number;
  /** Called as each check finishes. */
  onResult?: (result: CheckResult) => void;
}

const matchesOne = (id: string, p: string) => id === p || (p.endsWith(".") ? id.startsWith(p) : id.startsWith(`${p}.`));
const matches = (id: string, patterns: string[]) => patterns.some((p) => matchesOne(id, p));

/** The `--only`/`--skip` entries that select no check: a typo would otherwise select nothing and pass. */
export function unknownSelectors(patterns: string[]): string[] {
  return patterns.filter((p) => !CHECK_IDS.some((id) => matchesOne(id, p)));
}

/** Runs the conformance checks against a plugin; never throws for a failing plugin. */
export async function runConformance(env: CheckEnvironment, options: RunOptions = {}): Promise<CheckResult[]> {
  const results = new Map<string, CheckResult>();
  const concurrency = Math.max(1, options.concurrency ?? 4);
  for (const phase of PHASES) {
    const gateFailed = phase.gate.find((id) => results.get(id)?.status === "failed");
    const queue = [...phase.checks];
    const worker = async () => {
      for (let check = queue.shift(); check; check = queue.shift()) {
        let result: CheckResult;
        if ((options.only && !matches(check.id, options.only)) || (options.skip && matches(check.id, options.skip))) {
          result = { id: check.id, title: check.title, status: "skipped", durationMs: 0, reason: "not selected" };
        } else if (gateFailed) {
          result = {
            id: check.id,
            title: check.title,
            status: "skipped",
            durationMs: 0,
            reason: `${gateFailed} failed`,
          };
        } else {
          result = await runOne(check.id, check.title, env, check.run);
        }
        results.set(check.id, result);
        options.onResult?.(result);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  }
  return PHASES.flatMap((p) => p.checks.map((c) => results.get(c.id)!));
}

async function runOne(
  id: string,
  title: string,
  env: CheckEnvironment,
  run: (env: CheckEnvironment, defer: (f: () => unknown) => void) => Promise<void>,
): Promise<CheckResult> {
  const cleanups: (() => unknown)[] = [];
  const started = performance.now();
  let result: CheckResult;
  try {
    await run(env, (f) => cleanups.push(f));
    result = { id, title, status: "passed", durationMs: 0 };
  } catch (error) {
    if (error instanceof CheckSkipped) {
      result = { id, title, status: "skipped", durationMs: 0, reason: error.message };
    } else if (error instanceof CheckFailure) {
      result = { id, title, status: "failed", durationMs: 0, ...error.detail };
    } else {
      result = {
        id,
        title,
        status: "failed",
        durationMs: 0,
        expected: title,
        actual: error instanceof Error ? error.message : String(error),
        fix: "see the message; if the plugin did not start, startup.handshake-line explains why",
      };
    }
  }
  result.durationMs = Math.round(performance.now() - started);
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch {
      // cleanup must never change a check's outcome
    }
  }
  return result;
}
