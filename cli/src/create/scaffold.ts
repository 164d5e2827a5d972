import { cp, mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { copyrightHolder, isLicense, licenseText } from "./licenses.js";
import type { RecordedAnswers } from "./record.js";
import type { TemplateVersions } from "./template-versions.js";
import type { TemplateKind } from "./templates.js";

/** Values substituted into the template files. */
export interface ScaffoldValues {
  name: string;
  packageName: string;
  description: string;
  author: string;
  /** package.json `license`; LICENSE is written when it is one of the licenses the scaffolder has the text of. */
  license: string;
  /** The year LICENSE's copyright line names: the year the package was scaffolded. */
  year: string;
  /** The `@errand/channel-sdk` dependency spec. */
  sdkSpec: string;
  /** The `@errand/cli` version, also the template's version in the manifest. */
  cliVersion: string;
  typesNodeVersion: string;
  /** The exact esbuild version `npm run build` bundles the plugin with. */
  esbuildVersion: string;
  typescriptVersion: string;
  vitestVersion: string;
  /** The exact zod version the templates' config schemas are written for. */
  zodVersion: string;
}

/** The values of a scaffold: its answers, and the versions of this CLI (the SDK's unless `--sdk` chose another). */
export function valuesFor(answers: RecordedAnswers, versions: TemplateVersions): ScaffoldValues {
  return {
    name: answers.name,
    packageName: answers.packageName,
    description: answers.description,
    author: answers.author,
    license: answers.license,
    year: answers.year,
    sdkSpec: answers.sdkSpec ?? versions.sdk,
    cliVersion: versions.cli,
    typesNodeVersion: versions.toolchain["@types/node"],
    esbuildVersion: versions.toolchain.esbuild,
    typescriptVersion: versions.toolchain.typescript,
    vitestVersion: versions.toolchain.vitest,
    zodVersion: versions.toolchain.zod,
  };
}

// Files npm would treat specially inside a package are stored renamed.
const RENAMES: Record<string, string> = { _gitignore: ".gitignore" };

/**
 * Copies common + kind template files into `dir` (created when missing),
 * fills in the values and writes LICENSE; returns the files written, sorted.
 * (A scaffold made before LICENSE existed may name another license: it gets no LICENSE.)
 */
export async function scaffold(
  templatesRoot: string,
  kind: TemplateKind,
  dir: string,
  values: ScaffoldValues,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  // Layered like grafana's create-plugin: the kind's files win over common ones.
  await cp(join(templatesRoot, "common"), dir, { recursive: true });
  await cp(join(templatesRoot, kind.id), dir, { recursive: true, force: true });
  const vars: Record<string, string> = {
    ...values,
    binName: values.packageName.replace(/^@[^/]+\//, ""),
    template: kind.id,
    configYaml: kind.configYaml,
    secretsNote: kind.secretsNote,
  };
  const written: string[] = [];
  for (const file of await listFiles(dir)) {
    const path = join(dir, file);
    const text = await readFile(path, "utf8");
    // Only known names are replaced: {{sink_url}} stays for channel test.
    const filled = text.replace(/\{\{(\w+)\}\}/g, (match, key: string) =>
      key in vars ? (file.endsWith(".json") ? JSON.stringify(vars[key]).slice(1, -1) : vars[key]!) : match,
    );
    if (filled !== text) await writeFile(path, filled);
    const base = file.split("/").pop()!;
    if (RENAMES[base]) {
      const target = join(dir, file.slice(0, -base.length), RENAMES[base]);
      await rename(path, target);
      written.push(file.slice(0, -base.length) + RENAMES[base]);
    } else {
      written.push(file);
    }
  }
  if (isLicense(values.license)) {
    await writeFile(
      join(dir, "LICENSE"),
      await licenseText(templatesRoot, values.license, values.year, copyrightHolder(values.author, values.packageName)),
    );
    written.push("LICENSE");
  }
  return written.sort();
}

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else out.push(rel);
  }
  return out;
}
