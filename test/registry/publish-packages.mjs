// Publishes every publishable Errand package of this checkout, built, to a
// registry, with `npm publish` as a maintainer would.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { publishedDirs, REPO } from "../support/workspaces.mjs";

export { REPO };

const run = promisify(execFile);

/**
 * The environment a person's shell would have: this process's, without the
 * npm_* variables an enclosing `npm test` or `npm run` sets (they would
 * override the npm config the commands are meant to read).
 */
export function userEnvironment() {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

/**
 * Every package Errand publishes, by folder: the root's workspaces that are
 * not `private` (test/support/workspaces.mjs), so a new package folder is
 * published without a change here.
 */
export const PACKAGE_DIRS = publishedDirs();

/**
 * `npm publish` in each package folder, all at once, with the npm config in
 * `userconfig`. The packages must be built (npm run build): lifecycle scripts
 * are skipped, as parallel `tsc -b` runs would write the same files; the one
 * step of a prepack that is not the build, the CLI's templates, runs first.
 * Resolves to the names and versions published; rejects with npm's output.
 * `dirs` limits the publish to some of {@link PACKAGE_DIRS}.
 * @param {{ userconfig: string, dirs?: string[] }} options
 */
export async function publishPackages({ userconfig, dirs = PACKAGE_DIRS }) {
  await run(process.execPath, [join(REPO, "cli/scripts/copy-templates.js")]);
  const env = { ...userEnvironment(), NPM_CONFIG_USERCONFIG: userconfig };
  return Promise.all(
    dirs.map(async (dir) => {
      const cwd = join(REPO, dir);
      const { name, version } = JSON.parse(await readFile(join(cwd, "package.json"), "utf8"));
      try {
        await run("npm", ["publish", "--ignore-scripts", "--loglevel=error"], {
          cwd,
          env,
          maxBuffer: 32 * 1024 * 1024,
        });
      } catch (error) {
        const { stderr = "", stdout = "" } = /** @type {{ stderr?: string, stdout?: string }} */ (error);
        throw new Error(`npm publish of ${name} (${dir}) failed:\n${stderr || stdout}`);
      }
      return { name, version };
    }),
  );
}

/**
 * Drops npx's cached installs of `create-channel`: npx reuses an install of
 * the same version, dependencies included, so after a republish of the same
 * version (a new local registry, a changed checkout) `npx create-channel`
 * would run the previous @errand/cli. Only those entries are removed
 * (`npm cache npx rm <key>`); the rest of npm's cache stays.
 * @param {Record<string, string | undefined>} env
 */
export async function forgetNpxInstalls(env) {
  const { stdout } = await run("npm", ["cache", "npx", "ls"], { env });
  const keys = stdout
    .split("\n")
    .map((line) => /^(\w+): (.*)$/.exec(line.trim()))
    .flatMap((m) =>
      m && (m[2] ?? "").split(/[\s,]+/).some((spec) => /^create-channel(@|$)/.test(spec))
        ? [/** @type {string} */ (m[1])]
        : [],
    );
  if (keys.length > 0) await run("npm", ["cache", "npx", "rm", ...keys], { env });
  return keys.length;
}
