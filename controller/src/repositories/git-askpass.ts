import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The files through which git gets a run's token: made outside the workspace, removed when the run is finished. */
export interface GitAskpass {
  /** The folder (0700) holding the script, the token file and git's empty HOME. */
  readonly dir: string;
  /** The `GIT_ASKPASS` script. */
  readonly script: string;
  /** Git's HOME: an empty folder, so no user configuration is read. */
  readonly home: string;
  /** Writes the token git gets next (a refreshed App token replaces the old one). */
  setToken(token: string): void;
  /** Removes the folder and the token in it. */
  remove(): void;
}

/**
 * Writes a `GIT_ASKPASS` script that answers git's user name prompt with
 * `x-access-token` and its password prompt with the content of a 0600 token
 * file beside it. The token is never in the script, the environment, a URL
 * or an argument: `ps` and /proc show only the script's path.
 */
export function createGitAskpass(dir: string): GitAskpass {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const home = join(dir, "home");
  mkdirSync(home, { mode: 0o700 });
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, "", { mode: 0o600 });
  const script = join(dir, "askpass.sh");
  const quoted = `'${tokenFile.replace(/'/g, `'\\''`)}'`;
  writeFileSync(
    script,
    `#!/bin/sh\ncase "$1" in\n  Username*) printf '%s\\n' x-access-token ;;\n  *) cat ${quoted} ;;\nesac\n`,
    { mode: 0o700 },
  );
  return {
    dir,
    script,
    home,
    setToken(token) {
      // Written beside and renamed over would leave a window with no file; a rewrite in place is one write.
      writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
