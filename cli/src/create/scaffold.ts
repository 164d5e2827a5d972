import { cp, mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TemplateKind } from "./templates.js";

/** Values substituted into the template files. */
export interface ScaffoldValues {
  name: string;
  packageName: string;
  description: string;
  author: string;
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

// Files npm would treat specially inside a package are stored renamed.
const RENAMES: Record<string, string> = { _gitignore: ".gitignore" };

/** Copies common + kind template files into `dir` (which must exist) and fills in the values. */
export async function scaffold(templatesRoot: string, kind: TemplateKind, dir: string, values: ScaffoldValues): Promise<string[]> {
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
    const filled = text.replace(/\{\{(\w+)\}\}/g, (match, key: string) => (key in vars ? (file.endsWith(".json") ? JSON.stringify(vars[key]).slice(1, -1) : vars[key]!) : match));
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
