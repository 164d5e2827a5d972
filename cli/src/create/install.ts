import { execa } from "execa";
import { npmReason } from "../util/npm-reason.js";

/** How `npm install` went: the time it took, or npm's reason for failing. */
export type InstallOutcome = { ok: true; ms: number } | { ok: false; reason: string; aborted: boolean };

/** Runs `npm install` in `dir`; never throws. */
export async function installDependencies(dir: string, signal: AbortSignal): Promise<InstallOutcome> {
  const started = performance.now();
  const result = await execa("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: dir,
    cancelSignal: signal,
    reject: false,
    all: true,
    env: { npm_config_update_notifier: "false" },
  });
  if (!result.failed) return { ok: true, ms: performance.now() - started };
  const reason = npmReason(result.all ?? "") ?? result.shortMessage ?? "npm failed";
  return { ok: false, reason, aborted: signal.aborted };
}
