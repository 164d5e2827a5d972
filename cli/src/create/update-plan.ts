import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashOf, type RecordedAnswers, readRecord, type ScaffoldRecord } from "./record.js";
import { scaffold, valuesFor } from "./scaffold.js";
import type { TemplateVersions } from "./template-versions.js";
import { TEMPLATE_IDS, TEMPLATES } from "./templates.js";

/**
 * What update does with one file of the template:
 * `updated` the user had not changed it, it gets the new template's version;
 * `added` new in the template; `unchanged` already as the template has it;
 * `modified` the user changed it, so it is left alone and the template's
 * version goes beside it as `<file>.new`; `removed` the user deleted it, it
 * stays deleted; `obsolete` no longer in the template, kept; `blocked` a
 * folder stands where the template has a file, left alone.
 */
export type FileAction = "updated" | "added" | "unchanged" | "modified" | "removed" | "obsolete" | "blocked";

/** One file of an update plan. */
export interface FileChange {
  path: string;
  action: FileAction;
  /** For `modified`: where the template's version is (or would be) written. */
  newFile?: string;
}

/** What bringing a scaffold to this CLI's template means, file by file. */
export interface UpdatePlan {
  template: string;
  from: string;
  to: string;
  /** False for a scaffold without a record: every file that differs from the template then counts as the user's. */
  recorded: boolean;
  changes: FileChange[];
  /** The new template's files: path → content, and the record to write once they are in place. */
  rendered: Map<string, Buffer>;
  record: ScaffoldRecord;
}

/** The folder is not a scaffold update can work on; `code` is stable, the message says what to do. */
export class UpdateError extends Error {
  override readonly name = "UpdateError";
  constructor(
    readonly code: "ERR_NOT_A_SCAFFOLD" | "ERR_UNKNOWN_TEMPLATE",
    message: string,
  ) {
    super(message);
  }
}

interface Manifest {
  name?: unknown;
  description?: unknown;
  author?: unknown;
  license?: unknown;
  errand?: { channel?: unknown; template?: unknown };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/** What a scaffold without a record was made from, read from its package.json (`errand.template`, `<id>@<version>`). */
async function baselineFromManifest(dir: string): Promise<Omit<ScaffoldRecord, "files">> {
  const file = join(dir, "package.json");
  const notScaffold = (why: string) =>
    new UpdateError(
      "ERR_NOT_A_SCAFFOLD",
      `${dir} is not a channel create-channel made: ${why}; run update in the folder of a scaffold`,
    );
  if (!existsSync(file)) throw notScaffold("it has no package.json");
  let pkg: Manifest;
  try {
    pkg = JSON.parse(await readFile(file, "utf8")) as Manifest;
  } catch (error) {
    throw notScaffold(`its package.json is not valid JSON (${(error as Error).message})`);
  }
  const match = /^([\w-]+)@(\S+)$/.exec(text(pkg?.errand?.template));
  if (!match) throw notScaffold('its package.json has no "errand.template" of the form <template>@<version>');
  const author =
    typeof pkg.author === "object" && pkg.author !== null
      ? text((pkg.author as { name?: unknown }).name)
      : text(pkg.author);
  const answers: RecordedAnswers = {
    name: text(pkg.errand?.channel),
    packageName: text(pkg.name),
    description: text(pkg.description),
    author,
    license: text(pkg.license),
    year: String(new Date().getUTCFullYear()),
  };
  return { template: match[1]!, version: match[2]!, answers };
}

async function currentHash(path: string): Promise<string | undefined | "folder"> {
  const stats = await stat(path).catch(() => undefined);
  if (!stats) return undefined;
  return stats.isFile() ? hashOf(await readFile(path)) : "folder";
}

/** Renders this CLI's template with the scaffold's answers into memory, through a temporary folder. */
async function render(
  templatesRoot: string,
  baseline: Omit<ScaffoldRecord, "files">,
  versions: TemplateVersions,
): Promise<Map<string, Buffer>> {
  const kind = TEMPLATES.find((t) => t.id === baseline.template);
  if (!kind)
    throw new UpdateError(
      "ERR_UNKNOWN_TEMPLATE",
      `the scaffold was made from the template "${baseline.template}", which this create-channel does not have (${TEMPLATE_IDS.join(", ")})`,
    );
  const scratch = await mkdtemp(join(tmpdir(), "create-channel-update-"));
  try {
    const files = await scaffold(templatesRoot, kind, scratch, valuesFor(baseline.answers, versions));
    const rendered = new Map<string, Buffer>();
    for (const file of files) rendered.set(file, await readFile(join(scratch, file)));
    return rendered;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Plans the update of the scaffold in `dir` to this CLI's templates; reads, never writes, the scaffold. */
export async function planUpdate(dir: string, templatesRoot: string, versions: TemplateVersions): Promise<UpdatePlan> {
  const record = await readRecord(dir);
  const baseline = record ?? (await baselineFromManifest(dir));
  const rendered = await render(templatesRoot, baseline, versions);
  const changes: FileChange[] = [];
  const hashes: Record<string, string> = {};
  for (const [path, content] of rendered) {
    const next = hashOf(content);
    hashes[path] = next;
    const now = await currentHash(join(dir, path));
    const generated = record?.files[path];
    let action: FileAction;
    if (now === "folder") action = "blocked";
    else if (now === undefined) action = generated === undefined ? "added" : "removed";
    else if (now === next) action = "unchanged";
    else action = generated !== undefined && now === generated ? "updated" : "modified";
    changes.push(action === "modified" ? { path, action, newFile: `${path}.new` } : { path, action });
  }
  for (const path of Object.keys(record?.files ?? {})) {
    if (!rendered.has(path) && existsSync(join(dir, path))) changes.push({ path, action: "obsolete" });
  }
  changes.sort((a, b) => a.path.localeCompare(b.path));
  return {
    template: baseline.template,
    from: baseline.version,
    to: versions.cli,
    recorded: record !== undefined,
    changes,
    rendered,
    record: { template: baseline.template, version: versions.cli, answers: baseline.answers, files: hashes },
  };
}
