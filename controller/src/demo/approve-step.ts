import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Options of {@link approveAsOperator}. */
export interface ApproveStepOptions {
  /** The errand bin (controller/bin/errand.cjs). */
  bin: string;
  /** The demo's config, absolute, and as printed (relative to the working folder). */
  config: string;
  shown: string;
  runId: string;
  say(line: string): void;
}

/**
 * The demo's `--approval` step: the run waits in AwaitingApproval, and the
 * demo approves it the way an operator would, with `errand runs approve`
 * in a process of its own, printing the command first so it can be copied.
 */
export async function approveAsOperator(options: ApproveStepOptions): Promise<void> {
  const { say } = options;
  say(`approval    the run waits for a person (guardrails.require_approval); approving it as an operator would:`);
  say(`            npx --no-install errand runs approve ${options.runId} --config ${options.shown}`);
  // A moment to read it, as a person would take one.
  await new Promise((r) => setTimeout(r, 1000));
  const args = ["runs", "approve", options.runId, "--reason", "approved in the demo", "--config", options.config];
  const { stdout } = await run(process.execPath, [options.bin, ...args], { timeout: 30_000 });
  say(`            ${stdout.trim()}`);
}
