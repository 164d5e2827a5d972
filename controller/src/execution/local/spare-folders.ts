import { existsSync, mkdirSync, renameSync } from "node:fs";
import { chmod, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { processExists } from "./process-group.js";

/** The two folders a local run gets besides its log: its workspace, and its run folder (prompt, ticket, result). */
export type SpareKind = "workspace" | "run";

/**
 * Emptied folders of finished runs, kept for the next runs instead of being
 * removed and made again. On a file system that is slow to hand out inodes
 * freed a moment ago (ext4 without a journal checks each candidate's
 * deletion time: a new file there cost 30 µs to over 1 ms after much churn,
 * docs/benchmarks.md), a run's two new folders and their removal were most
 * of its file work; a rename costs neither an inode nor a discard.
 */
export interface SpareFolders {
  /**
   * Moves a spare folder of `kind` to `path` (which must not exist); false
   * when none is left or the move failed, and the caller makes a new folder.
   */
  take(kind: SpareKind, path: string): boolean;
  /**
   * Moves the folder at `path` into the spares, off the event loop; false
   * when enough are kept already, when the folder's mode or owner is not what
   * the controller gave it, or the move failed, and the caller removes it. The caller empties it first: a spare workspace must be empty, and a
   * spare run folder may hold only the files the next run overwrites.
   */
  keep(kind: SpareKind, path: string): Promise<boolean>;
}

/** Spares kept of each kind: more runs than this rarely end between two starts. */
const MOST_PER_KIND = 32;

/**
 * The spares of the runs under `workspaceDir`, in
 * `<workspace_dir>/.errand/spare/<pid>-<start>/`: a folder of this process's
 * own, so that two controllers on one workspace_dir never take each other's.
 * The folders an ended process left there are removed at the first keep.
 */
export function createSpareFolders(workspaceDir: string, most = MOST_PER_KIND): SpareFolders {
  const parent = join(workspaceDir, ".errand", "spare");
  const own = `${process.pid}-${Date.now().toString(36)}`;
  const root = join(parent, own);
  const spares: Record<SpareKind, string[]> = { workspace: [], run: [] };
  const incoming: Record<SpareKind, number> = { workspace: 0, run: 0 };
  let made: Promise<boolean> | undefined;
  let next = 0;

  // The mode a new folder gets (0777 less the umask): a spare workspace must still have it, a run folder 0700.
  const modes: Record<SpareKind, number> = { workspace: -1, run: 0o700 };
  const makeRoot = () => {
    made ??= (async () => {
      try {
        mkdirSync(parent, { recursive: true, mode: 0o700 });
        mkdirSync(root);
        modes.workspace = (await stat(root)).mode & 0o7777;
        await chmod(root, 0o700);
      } catch {
        return false;
      }
      void removeLeftovers(parent, own);
      return true;
    })();
    return made;
  };
  /** True when the folder is still as the controller made it: its mode (an engine may chmod its workspace), its owner. */
  const unchanged = async (kind: SpareKind, path: string) => {
    const info = await stat(path);
    return (info.mode & 0o7777) === modes[kind] && info.uid === process.getuid?.();
  };

  return {
    take(kind, path) {
      for (let spare = spares[kind].pop(); spare !== undefined; spare = spares[kind].pop()) {
        try {
          renameSync(spare, path);
          return true;
        } catch {
          // The spare is gone (removed by hand): try the next. Else `path` is in the way: the caller says why.
          if (existsSync(spare)) {
            spares[kind].push(spare);
            return false;
          }
        }
      }
      return false;
    },
    async keep(kind, path) {
      if (spares[kind].length + incoming[kind] >= most) return false;
      incoming[kind]++;
      const spare = join(root, `${kind}-${next++}`);
      try {
        if (!(await makeRoot()) || !(await unchanged(kind, path))) return false;
        await rename(path, spare);
        spares[kind].push(spare);
        return true;
      } catch {
        return false;
      } finally {
        incoming[kind]--;
      }
    },
  };
}

/** Removes the spare folders of processes that are gone (a crash or a restart left them); never throws. */
async function removeLeftovers(parent: string, own: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(parent);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = Number(/^(\d+)-/.exec(entry)?.[1]);
    if (entry === own || (Number.isSafeInteger(pid) && processExists(pid))) continue;
    await rm(join(parent, entry), { recursive: true, force: true }).catch(() => undefined);
  }
}
