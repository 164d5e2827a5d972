import type { PackageJson } from "../conformance/plugin-target.js";
import type { AddFinding } from "./lint-finding.js";

/** The keyword by which users and the controller find channel plugins on npm. */
export const CHANNEL_KEYWORD = "errand-channel";
const NAME_CONVENTION = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?errand-channel-[a-z0-9][a-z0-9._-]*$/;

/** The fields users find the plugin by on npm: its name and keywords. */
export function lintDiscoveryFields(pkg: PackageJson, add: AddFinding): void {
  if (!pkg.name) add("name", "error", "package.json has no name", 'set "name", for example "errand-channel-teams"');
  else if (!NAME_CONVENTION.test(pkg.name)) {
    add(
      "name",
      "warning",
      `the name ${pkg.name} does not follow the convention errand-channel-<name> (or @scope/errand-channel-<name>)`,
      "rename it so users find it next to other channels",
    );
  }
  if (!pkg.keywords?.includes(CHANNEL_KEYWORD)) {
    add(
      "keywords",
      "error",
      `"keywords" lacks "${CHANNEL_KEYWORD}"`,
      `add "${CHANNEL_KEYWORD}" to "keywords"; the controller's docs and npm search use it`,
    );
  }
}

/** What the installed plugin needs to run: Node 20 or later, and the SDK as a dependency (not a devDependency). */
export function lintRuntimeFields(pkg: PackageJson, add: AddFinding): void {
  const node = pkg.engines?.node;
  if (!node) add("engines", "error", 'package.json has no "engines.node"', 'add "engines": { "node": ">=20.19" }');
  else if (!/>=?\s*(2[0-9]|[3-9][0-9])/.test(node)) {
    add("engines", "warning", `engines.node "${node}" does not clearly require Node 20 or later`, 'use ">=20.19"');
  }
  if (pkg.devDependencies?.["@errand/channel-sdk"] && !pkg.dependencies?.["@errand/channel-sdk"]) {
    add(
      "dependencies",
      "error",
      "@errand/channel-sdk is only a devDependency; the installed plugin cannot load it",
      'move it to "dependencies"',
    );
  }
}
