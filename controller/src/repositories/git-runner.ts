import { execFile } from "node:child_process";

/** How one git command ended when it failed: its exit code and what it wrote to stderr. */
export class GitCommandError extends Error {
  override readonly name = "GitCommandError";
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | undefined,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ""} exited with ${exitCode ?? "a signal"}: ${lastLine(stderr)}`);
  }
}

/** Runs git commands in one folder with one environment. */
export type GitRunner = (args: readonly string[], cwd: string) => Promise<string>;

/** Longest one git command may run: a clone of a large repository over a slow link. */
const GIT_TIMEOUT_MS = 10 * 60_000;

/**
 * A git runner whose environment is built from nothing: no system or user
 * configuration (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`, HOME
 * an empty folder of the run's), never a prompt on a terminal
 * (`GIT_TERMINAL_PROMPT=0`), and credentials only through `askpass` (a
 * script that reads a file): never in a URL or an argument.
 */
export function createGitRunner(options: { askpass: string; home: string; path?: string }): GitRunner {
  const env: Record<string, string> = {
    PATH: options.path ?? process.env.PATH ?? "/usr/bin:/bin",
    HOME: options.home,
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: options.askpass,
    // The askpass script answers; no helper of the machine's may answer first or store what it gave.
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "credential.helper",
    GIT_CONFIG_VALUE_0: "",
  };
  return (args, cwd) =>
    new Promise((resolve, reject) => {
      execFile(
        "git",
        [...args],
        { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error === null) return resolve(stdout);
          const code = typeof error.code === "number" ? error.code : undefined;
          reject(new GitCommandError(args, code, stderr || error.message));
        },
      );
    });
}

function lastLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("hint:"));
  return lines.at(-1) ?? "no message";
}
