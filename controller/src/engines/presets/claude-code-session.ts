import { constants, copyFileSync, existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** Claude Code's session ids are UUIDs; anything else (an option-like value above all) is not passed on. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * Where Claude Code keeps the sessions of runs started in `cwd`: its
 * config folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`), `projects/`, and
 * the folder named after `cwd` with every character outside A-Z, a-z and
 * 0-9 turned into `-`. `--resume <id>` looks only in the folder of its own
 * working directory.
 */
export function claudeProjectFolder(env: Readonly<Record<string, string | undefined>>, cwd: string): string {
  const configDir = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude");
  return join(configDir, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"));
}

/**
 * Makes session `sessionId`, started in `fromCwd`, resumable from `toCwd`
 * (each run has a workspace of its own) by copying its transcript into the
 * folder of `toCwd`. True when the session can be resumed there; false when
 * the id is not a session id or its transcript is not found (another HOME,
 * a cleared `~/.claude`, another machine): the run then starts a fresh
 * session, its prompt carrying the context.
 */
export function carryClaudeSession(
  sessionId: string,
  fromCwd: string,
  toCwd: string,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (!SESSION_ID.test(sessionId)) return false;
  const target = join(claudeProjectFolder(env, toCwd), `${sessionId}.jsonl`);
  if (existsSync(target)) return true;
  const source = join(claudeProjectFolder(env, fromCwd), `${sessionId}.jsonl`);
  if (!existsSync(source)) return false;
  try {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target, constants.COPYFILE_EXCL);
    return true;
  } catch {
    return existsSync(target);
  }
}
