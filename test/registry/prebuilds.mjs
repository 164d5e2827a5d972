// The native addon the controller depends on (better-sqlite3), offered to
// installs in a test session as the prebuilt binary its installer
// (prebuild-install) would download from the addon's GitHub release.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { REPO } from "./publish-packages.mjs";

const run = promisify(execFile);

/**
 * Packs this checkout's compiled better-sqlite3 as the prebuild tarball
 * prebuild-install looks for (`better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`)
 * in `<root>/prebuilds`, and points prebuild-install at it for every install
 * in a folder under `root`: `<root>/.prebuild-installrc` (its rc config,
 * searched upwards from the package being installed). Not an environment
 * variable: an npm_config_* one makes every npm command warn about an unknown
 * config, and npm's script shell (dash) drops `prebuild-install_…` names.
 *
 * Without it, `npm install @errand/controller` here compiles SQLite (2 to 12
 * minutes of both cores, by load): the release download needs github.com,
 * which a test machine may not reach. A user's install downloads the same
 * kind of prebuilt binary. An install that resolves another version of the
 * addon finds no tarball of that name and falls back to the download or the
 * compile, as it would without this; so does a checkout whose addon is not
 * built. Resolves to whether the tarball was made.
 * @param {string} root
 * @returns {Promise<boolean>}
 */
export async function localPrebuilds(root) {
  const addon = join(REPO, "node_modules/better-sqlite3");
  const binary = join(addon, "build/Release/better_sqlite3.node");
  if (!existsSync(binary)) return false;
  const { version } = JSON.parse(await readFile(join(addon, "package.json"), "utf8"));
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const dir = join(root, "prebuilds");
  await mkdir(dir, { recursive: true });
  await run("tar", ["-czf", join(dir, file), "-C", addon, "build/Release/better_sqlite3.node"]);
  await writeFile(join(root, ".prebuild-installrc"), `local-prebuilds=${dir}\n`);
  return true;
}
