import { constants, existsSync } from "node:fs";
import { copyFile, link, lstat, mkdir, mkdtemp, readdir, rename, rm, rmdir, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";

/**
 * Where a scaffold is built before it is moved into the target: a hidden
 * folder beside the target (or inside it, when the parent cannot be written
 * to, as for `create-channel .` in a folder of a read-only parent).
 */
export interface Staging {
  target: string;
  dir: string;
  /** The highest folder on the way to the target that this run created, if any. */
  createdRoot: string | undefined;
}

/** Thrown when the target cannot take the files; the message says why and what to do. */
export class PlacementError extends Error {
  override readonly name = "PlacementError";
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Creates the staging folder for `target`, making the target's missing parent folders (and recording them). */
export async function makeStaging(target: string): Promise<Staging> {
  const parent = dirname(target);
  let createdRoot: string | undefined;
  const unwritable = (error: unknown) =>
    new PlacementError(
      `cannot write in ${parent} (${code(error) ?? (error as Error).message}); choose a directory you can write to`,
    );
  if (!existsSync(parent)) {
    let top = parent;
    while (!existsSync(dirname(top))) top = dirname(top);
    await mkdir(parent, { recursive: true }).catch((error) => {
      throw unwritable(error);
    });
    createdRoot = top;
  }
  try {
    return { target, dir: await mkdtemp(join(parent, `.${basename(target)}.create-channel-`)), createdRoot };
  } catch (error) {
    if (!["EACCES", "EPERM", "EROFS"].includes(code(error) ?? "") || !existsSync(target)) throw unwritable(error);
    return { target, dir: await mkdtemp(join(target, ".create-channel-")), createdRoot };
  }
}

/** What is in the target, leaving out our own staging folder when it lies inside. */
export async function entriesOf(staging: Staging): Promise<string[]> {
  if (!existsSync(staging.target)) return [];
  const own = relative(staging.target, staging.dir);
  return (await readdir(staging.target)).filter((name) => name !== own);
}

/** Removes the staging folder and the parent folders this run created, as long as they stayed empty. */
export async function discard(staging: Staging): Promise<void> {
  await rm(staging.dir, { recursive: true, force: true });
  if (!staging.createdRoot) return;
  for (let dir = dirname(staging.target); ; dir = dirname(dir)) {
    try {
      await rmdir(dir);
    } catch {
      return; // not empty: someone else's now
    }
    if (dir === staging.createdRoot) return;
  }
}

/** Moves a file without ever replacing one that is there: a hard link fails when the name is taken. */
async function moveFileNoClobber(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if (code(error) === "EEXIST") throw error;
    await copyFile(from, to, constants.COPYFILE_EXCL);
  }
  await unlink(from);
}

/**
 * Moves every staged entry into an empty (or missing) target without
 * replacing anything: a folder is renamed (which fails on a non-empty one),
 * a file is linked (which fails on an existing name). Throws PlacementError
 * naming what got in the way; what was not moved stays in the staging folder.
 */
export async function moveIntoEmpty(staging: Staging): Promise<void> {
  if (!existsSync(staging.target)) {
    await rename(staging.dir, staging.target).catch((error) => {
      throw new PlacementError(`${staging.target} appeared while the files were being written (${code(error)})`);
    });
    return;
  }
  for (const name of await readdir(staging.dir)) {
    const from = join(staging.dir, name);
    const to = join(staging.target, name);
    try {
      if ((await lstat(from)).isDirectory()) await rename(from, to);
      else await moveFileNoClobber(from, to);
    } catch (error) {
      throw new PlacementError(`${to} appeared while the files were being written (${code(error)})`);
    }
  }
  await rm(staging.dir, { recursive: true, force: true });
}

/** The template's files whose place in the target is taken by a folder, or that need a folder where a file is. */
export async function forceConflicts(target: string, files: string[]): Promise<string[]> {
  const conflicts = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const path = join(target, ...parts.slice(0, i));
      const info = await stat(path).catch(() => undefined);
      if (!info) break;
      const mustBeFolder = i < parts.length;
      if (info.isDirectory() !== mustBeFolder) conflicts.add(parts.slice(0, i).join(sep));
    }
  }
  return [...conflicts];
}

/** Moves the template's files over the target's files of the same paths; nothing else in the target is touched. */
export async function moveOver(staging: Staging, files: string[]): Promise<void> {
  for (const file of files) {
    const to = join(staging.target, file);
    await mkdir(dirname(to), { recursive: true });
    await rename(join(staging.dir, file), to);
  }
  await rm(staging.dir, { recursive: true, force: true });
}

/** Why the generated files could not be placed, and whether the staging folder holds the only copy of them. */
export interface Unplaced {
  message: string;
  code?: number;
  keepStaging: boolean;
}

/**
 * Moves the staged files into the target: with --force into a non-empty one
 * (`inPlace`), written over the files of the same paths; else into the empty
 * one, which must still be empty. Returns why not, when they were not placed.
 */
export async function placeFiles(
  staging: Staging,
  target: string,
  files: string[],
  inPlace: boolean,
  dir: string,
): Promise<Unplaced | undefined> {
  if (inPlace) {
    const conflicts = await forceConflicts(target, files);
    if (conflicts.length > 0) {
      return {
        message: `--force writes only files, but in ${dir} these are in the way (a folder where a file goes, or the reverse): ${conflicts.join(", ")}; nothing was changed`,
        code: 2,
        keepStaging: false,
      };
    }
    await moveOver(staging, files);
    return undefined;
  }
  const appeared = await entriesOf(staging);
  if (appeared.length > 0) {
    return {
      message: `${dir} gained files while the channel was being generated (${appeared.slice(0, 5).join(", ")}); nothing was written into it. The generated channel is in ${staging.dir}: move its contents where you want them`,
      keepStaging: true,
    };
  }
  try {
    await moveIntoEmpty(staging);
  } catch (error) {
    if (!(error instanceof PlacementError)) throw error;
    return {
      message: `${error.message}; it was left as it is. The files not yet moved are in ${staging.dir}`,
      keepStaging: true,
    };
  }
  return undefined;
}
