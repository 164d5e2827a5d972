import { execFileSync } from "node:child_process";
import { mkdir, symlink } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { execa, type Options } from "execa";
import { writeNpmrc } from "./npmrc.mjs";
import { localPrebuilds } from "./prebuilds.mjs";
import { publishPackages, userEnvironment } from "./publish-packages.mjs";
import { startTestRegistry } from "./registry-server.mjs";

/** How a command line ended: its exit code, its output apart and interleaved. */
export interface ShellRun {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  all: string;
}

/** A test registry with Errand's packages published, and the npm config of a person using it. */
export interface UserSession {
  registry: Awaited<ReturnType<typeof startTestRegistry>>;
  npmrc: string;
  /** The environment of that person's shell. */
  env: Record<string, string>;
  /** Runs a command line through bash, exactly as typed; never rejects. */
  sh: (command: string, cwd: string, options?: Options) => Promise<ShellRun>;
  close: () => Promise<void>;
}

/** A setting of this machine's own npm config (~/.npmrc and npm's defaults), or undefined. */
function ambientNpmConfig(key: string): string | undefined {
  try {
    const value = execFileSync("npm", ["config", "get", key], { encoding: "utf8", env: userEnvironment() }).trim();
    return value && value !== "undefined" && value !== "null" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An npm cache of the session's own whose content store is this machine's:
 * tarballs and packuments stay warm, and npx's installs (`_npx`, inside the
 * cache folder) are the session's alone, so that `npx create-channel` installs
 * the create-channel just published, never one another session (or an
 * earlier publish of the same version) left there.
 */
async function sessionCache(root: string): Promise<string> {
  const shared = join(ambientNpmConfig("cache") ?? join(homedir(), ".npm"), "_cacache");
  await mkdir(shared, { recursive: true });
  const cache = join(root, "npm-cache");
  await mkdir(cache, { recursive: true });
  await symlink(shared, join(cache, "_cacache"));
  return cache;
}

/**
 * Starts a test registry, publishes Errand's packages to it (all of them, or
 * the folders in `dirs`) and writes the npm config a person would use: the
 * registry, its token, a cache of its own over this machine's content store
 * ({@link sessionCache}), nothing of ~/.npmrc but `nodedir`. Installs in
 * folders under `root` get this checkout's compiled better-sqlite3 as its
 * prebuilt binary ({@link localPrebuilds}).
 */
export async function startUserSession(root: string, dirs?: string[]): Promise<UserSession> {
  const registry = await startTestRegistry();
  const npmrc = join(root, "npmrc");
  // nodedir, when this machine's config has one: where native modules (better-sqlite3) find Node's headers offline.
  const nodedir = ambientNpmConfig("nodedir");
  await writeNpmrc(npmrc, registry, [
    "update-notifier=false",
    `cache=${await sessionCache(root)}`,
    ...(nodedir ? [`nodedir=${nodedir}`] : []),
  ]);
  await localPrebuilds(root);
  const env = { ...(userEnvironment() as Record<string, string>), NPM_CONFIG_USERCONFIG: npmrc, FORCE_COLOR: "0" };
  try {
    await publishPackages({ userconfig: npmrc, dirs });
  } catch (error) {
    await registry.close();
    throw error;
  }
  const sh = async (command: string, cwd: string, options: Options = {}): Promise<ShellRun> => {
    const r = await execa("bash", ["-c", command], {
      cwd,
      env,
      extendEnv: false,
      reject: false,
      all: true,
      ...options,
    });
    return {
      exitCode: r.exitCode,
      stdout: String(r.stdout ?? ""),
      stderr: String(r.stderr ?? ""),
      all: String(r.all ?? ""),
    };
  };
  return { registry, npmrc, env, sh, close: () => registry.close() };
}
