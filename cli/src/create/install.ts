import { execa } from "execa";

/** Runs `npm install` in `dir`; resolves with the time it took, throws with npm's output. */
export async function installDependencies(dir: string, signal: AbortSignal): Promise<number> {
  const started = performance.now();
  const result = await execa("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: dir,
    cancelSignal: signal,
    reject: false,
    all: true,
    env: { npm_config_update_notifier: "false" },
  });
  if (result.failed) {
    throw new Error(`npm install failed (${result.shortMessage})\n${(result.all ?? "").slice(-3000)}`);
  }
  return performance.now() - started;
}
