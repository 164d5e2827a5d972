import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import chalk from "chalk";
import { Command, CommanderError } from "commander";
import { RECORD_FILE, ScaffoldRecordError, writeRecord } from "./record.js";
import { templateVersions } from "./template-versions.js";
import { templatesRoot } from "./templates.js";
import { type FileChange, planUpdate, UpdateError, type UpdatePlan } from "./update-plan.js";

interface UpdateFlags {
  dir: string;
  dryRun: boolean;
  json: boolean;
}

function parseUpdateArgs(argv: string[]): UpdateFlags {
  const program = new Command("create-channel update")
    .description(
      "Bring a channel made by create-channel to this version's template. Files you have not changed since they were generated get the new version; files you changed are left alone, the template's version written beside them as <file>.new.",
    )
    .argument("[dir]", "the channel's folder", ".")
    .option("--dry-run", "say what would change; write nothing", false)
    .option("--json", "print the plan as JSON on stdout", false)
    .addHelpText(
      "after",
      "\nExit codes: 0 updated (files left for you to merge are listed), 1 failed, 2 not a scaffold or invalid input.",
    )
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program.parse(argv, { from: "user" });
  return { dir: program.args[0] ?? ".", ...program.opts<Omit<UpdateFlags, "dir">>() };
}

/** Writes `content` to `path` through a temporary file: an interrupted update never leaves a file half written. */
async function put(path: string, content: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.create-channel-tmp`;
  await writeFile(temporary, content);
  await rename(temporary, path);
}

/**
 * Writes the plan into `dir`: the template's files where the user had not
 * changed them, `<file>.new` beside those they had (unless a different
 * `<file>.new` is there already: that one is kept, and the change says so),
 * then the record of the new version, last, so that an interrupted update
 * is completed by running it again.
 */
async function applyUpdate(dir: string, plan: UpdatePlan): Promise<void> {
  for (const change of plan.changes) {
    const content = plan.rendered.get(change.path);
    if (!content) continue;
    if (change.action === "updated" || change.action === "added") await put(join(dir, change.path), content);
    if (change.action === "modified" && change.newFile) {
      const existing = await readFile(join(dir, change.newFile)).catch(() => undefined);
      if (existing && !existing.equals(content)) change.newFile = undefined;
      else await put(join(dir, change.newFile), content);
    }
  }
  await writeRecord(dir, plan.record);
}

const LABELS: Record<FileChange["action"], (c: FileChange) => string> = {
  updated: () => "updated to the new template",
  added: () => "added: new in the template",
  unchanged: () => "unchanged",
  modified: (c) =>
    c.newFile
      ? `changed by you, left as it is; the template's version goes to ${c.newFile}: merge what you want, then delete it`
      : `changed by you, left as it is; ${c.path}.new is there already and differs, so it was kept: delete it and run update again for the template's version`,
  removed: () => "deleted by you, not restored",
  obsolete: () => "no longer in the template; kept",
  blocked: () => "a folder stands where the template has a file; left as it is",
};

function report(dir: string, plan: UpdatePlan, dryRun: boolean): string {
  const lines = [
    `${dryRun ? "create-channel update --dry-run (nothing written)" : "create-channel update"}: ${dir}, template ${plan.template} ${plan.from} → ${plan.to}`,
  ];
  if (!plan.recorded) {
    lines.push(
      `  no ${RECORD_FILE} (made before update existed): every file that differs from the template counts as changed by you`,
    );
  }
  for (const change of plan.changes)
    if (change.action !== "unchanged") lines.push(`  ${change.path}: ${LABELS[change.action](change)}`);
  const count = (action: FileChange["action"]) => plan.changes.filter((c) => c.action === action).length;
  lines.push(
    `${count("updated")} updated, ${count("added")} added, ${count("modified")} changed by you, ${count("unchanged")} unchanged`,
  );
  return `${lines.join("\n")}\n`;
}

/** `create-channel update [dir]`; resolves to the exit code. */
export async function updateMain(argv: string[]): Promise<number> {
  let flags: UpdateFlags;
  try {
    flags = parseUpdateArgs(argv);
  } catch (error) {
    if (error instanceof CommanderError)
      return error.exitCode === 0 || error.code === "commander.helpDisplayed" ? 0 : 2;
    throw error;
  }
  const dir = resolve(flags.dir);
  try {
    const root = templatesRoot();
    const plan = await planUpdate(dir, root, templateVersions(root));
    if (!flags.dryRun) await applyUpdate(dir, plan);
    const { template, from, to, recorded, changes } = plan;
    process.stdout.write(
      flags.json
        ? `${JSON.stringify({ dir, dryRun: flags.dryRun, template, from, to, recorded, files: changes }, null, 2)}\n`
        : report(flags.dir, plan, flags.dryRun),
    );
    return 0;
  } catch (error) {
    const invalid = error instanceof UpdateError || error instanceof ScaffoldRecordError;
    process.stderr.write(`${chalk.red("create-channel update:")} ${(error as Error).message}\n`);
    return invalid ? 2 : 1;
  }
}
