// Where bench:controller puts its installations (store, workspaces, logs) and
// the bare loop's result files: BENCH_DIR, else tmpfs (/dev/shm) when it has
// 2 GiB free, else the temporary directory. Why tmpfs by default: on a file
// system that has seen many files made and removed, a new file can cost a
// millisecond of kernel time (ext4 without a journal, as on the machine of
// docs/benchmarks.md, skips recently freed inodes one by one), and a run makes
// five files and folders where the bare loop makes one, so the ratio would
// measure the disk's history, not the controller. The report names the place
// and what a new file costs there; BENCH_DIR=/var/tmp (say) measures a disk.
import { accessSync, closeSync, constants, mkdtempSync, openSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const FS_TYPES = {
  16914836: "tmpfs",
  61267: "ext2/3/4",
  1481003842: "xfs",
  2435016766: "btrfs",
  2035054128: "overlayfs",
};

/** A full run stores ~10,000 logs and runs per installation; a container's /dev/shm (64 MiB by default) is too small. */
const NEEDED_BYTES = 2 * 1024 ** 3;

function usable(dir) {
  try {
    accessSync(dir, constants.W_OK);
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize >= NEEDED_BYTES;
  } catch {
    return false;
  }
}

/** The folder the bench's temporary folders go in. */
export const BENCH_DIR = process.env.BENCH_DIR ?? (usable("/dev/shm") ? "/dev/shm" : tmpdir());

/** A fresh folder in {@link BENCH_DIR}. */
export function benchTempDir(prefix) {
  return mkdtempSync(join(BENCH_DIR, prefix));
}

/** A folder (default the bench folder), its file system and the median cost of making a new file there (µs, 400 files). */
export function describeBenchDir(place = BENCH_DIR) {
  const dir = mkdtempSync(join(place, "errand-bench-probe-"));
  const costs = [];
  for (let i = 0; i < 400; i++) {
    const started = process.hrtime.bigint();
    closeSync(openSync(join(dir, `f${i}`), "w"));
    costs.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  rmSync(dir, { recursive: true, force: true });
  costs.sort((a, b) => a - b);
  const type = statfsSync(place).type;
  return {
    dir: place,
    fsType: FS_TYPES[type] ?? `type 0x${type.toString(16)}`,
    newFileUs: costs[costs.length >> 1],
  };
}
