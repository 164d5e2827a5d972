import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The packages a scaffold pins exactly: what the CLI's release was built and
 * tested with. zod, the templates' config schema library, is a dependency of
 * the scaffold; the others (esbuild bundles the plugin for a fast start) are
 * devDependencies.
 */
export const TOOLCHAIN = ["@types/node", "esbuild", "typescript", "vitest", "zod"] as const;

/** One of {@link TOOLCHAIN}. */
export type ToolchainPackage = (typeof TOOLCHAIN)[number];

/** The file, beside the packed templates, that records the toolchain of a published CLI. */
export const VERSIONS_FILE = "versions.json";

/** The versions a scaffold is written with; none of them is typed by hand. */
export interface TemplateVersions {
  /** The `@errand/channel-sdk` dependency: the range this CLI itself depends on. */
  sdk: string;
  /** The `@errand/cli` devDependency: this CLI's own version, exact. */
  cli: string;
  /** The toolchain devDependencies, exact. */
  toolchain: Record<ToolchainPackage, string>;
}

/** The CLI's installation is missing something the scaffold's versions come from. */
export class TemplateVersionsError extends Error {
  override readonly name = "TemplateVersionsError";
}

const cliDir = fileURLToPath(new URL("../..", import.meta.url));

interface Manifest {
  version?: unknown;
  dependencies?: Record<string, unknown>;
}

const readManifest = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Manifest;

/**
 * The toolchain installed where the CLI is developed: each package's version
 * as the nearest `node_modules` above the CLI holds it, as Node would find it.
 * Only meaningful in a checkout (a published CLI has no toolchain installed);
 * `prepack` records its answer in {@link VERSIONS_FILE}.
 */
export function installedToolchain(from = cliDir): Record<ToolchainPackage, string> {
  const found: Partial<Record<ToolchainPackage, string>> = {};
  for (const name of TOOLCHAIN) {
    for (let dir = from; ; dir = dirname(dir)) {
      const file = join(dir, "node_modules", name, "package.json");
      const version = existsSync(file) ? readManifest(file).version : undefined;
      if (typeof version === "string") {
        found[name] = version;
        break;
      }
      if (dirname(dir) === dir) {
        throw new TemplateVersionsError(
          `${name} is not installed above ${from}; run npm install in the Errand checkout before scaffolding from it`,
        );
      }
    }
  }
  return found as Record<ToolchainPackage, string>;
}

function recordedToolchain(file: string): Record<ToolchainPackage, string> {
  const recorded = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  for (const name of TOOLCHAIN) {
    if (typeof recorded[name] !== "string") {
      throw new TemplateVersionsError(`${file} lacks the version of ${name}; reinstall @errand/cli`);
    }
  }
  return recorded as Record<ToolchainPackage, string>;
}

/**
 * Reads the versions a scaffold depends on: the SDK range and version of this
 * CLI from its package.json, the toolchain from the record beside the packed
 * templates (a published CLI) or from what is installed (a checkout).
 */
export function templateVersions(templatesRoot: string): TemplateVersions {
  const manifest = readManifest(join(cliDir, "package.json"));
  const sdk = manifest.dependencies?.["@errand/channel-sdk"];
  if (typeof sdk !== "string" || typeof manifest.version !== "string") {
    throw new TemplateVersionsError(
      `${join(cliDir, "package.json")} lacks its version or its @errand/channel-sdk dependency; reinstall @errand/cli`,
    );
  }
  const record = join(templatesRoot, VERSIONS_FILE);
  return {
    sdk,
    cli: manifest.version,
    toolchain: existsSync(record) ? recordedToolchain(record) : installedToolchain(),
  };
}
