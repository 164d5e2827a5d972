import { homedir, tmpdir } from "node:os";
import type { RunPaths } from "./run-files.js";

/** Used when the controller itself runs without PATH. */
const FALLBACK_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * The whole environment of an engine process, built from nothing (the
 * controller's own environment, with its secrets, is never inherited):
 *
 * - PATH, so the engine finds its tools (git, node, the CLI itself);
 * - HOME, the real one, so coding-agent CLIs find their configuration and
 *   a login made with `auth.method: none` (~/.claude, ~/.codex, ...);
 * - LANG and LC_ALL when the controller has them, TMPDIR;
 * - TERM=dumb and NO_COLOR=1, so output comes without colour codes;
 * - the engine's own variables (`engines.<name>.env`, its API key under
 *   the variable its CLI reads);
 * - ERRAND_RUN_ID, ERRAND_WORKSPACE, ERRAND_PROMPT_FILE,
 *   ERRAND_TICKET_FILE and ERRAND_RESULT_FILE, last, so nothing overrides
 *   the command-engine contract.
 *
 * Proxy and certificate variables are not passed: set them in
 * `engines.<name>.env` when an engine needs them.
 */
export function engineEnv(
  runId: string,
  paths: RunPaths,
  engineVars: Record<string, string>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: nonEmpty(parent.PATH) ?? FALLBACK_PATH,
    HOME: nonEmpty(parent.HOME) ?? homedir(),
    TMPDIR: nonEmpty(parent.TMPDIR) ?? tmpdir(),
    TERM: "dumb",
    NO_COLOR: "1",
  };
  for (const name of ["LANG", "LC_ALL"] as const) {
    const value = nonEmpty(parent[name]);
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, engineVars);
  env.ERRAND_RUN_ID = runId;
  env.ERRAND_WORKSPACE = paths.workspace;
  env.ERRAND_PROMPT_FILE = paths.prompt;
  env.ERRAND_TICKET_FILE = paths.ticket;
  env.ERRAND_RESULT_FILE = paths.result;
  return env;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
