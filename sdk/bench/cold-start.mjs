// Cold start for bench:rpc: spawn to ready (handshake line read, health check
// SERVING, Handshake answered) for the plugins below, against the yardstick
// `node -e "require('@grpc/grpc-js')"` (spawn to exit), all in alternating
// rounds of one invocation; medians. See docs/benchmarks.md.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statfsSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectChannel, silentLogger } from "@errand/channel-sdk/host";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const FILESYSTEMS = {
  16914836: "tmpfs",
  61267: "ext4",
  2035054128: "overlayfs",
  1481003842: "xfs",
  2435016766: "btrfs",
};

/** The file system `dir` is on, by name where known: the cache and the modules are read from it at every start. */
export function fileSystemOf(dir) {
  const type = statfsSync(dir).type;
  return FILESYSTEMS[type] ?? `type 0x${type.toString(16)}`;
}

/** The 1-minute load average, as printed with every result. */
export const load = () => loadavg()[0].toFixed(2);

/**
 * Scaffolds a blank-template plugin with the built create-channel CLI into a
 * temp folder and builds it (tsc, then the bundle and its code cache), offline:
 * the scaffold uses this checkout's node_modules through a symlink. Returns
 * its folder and how long `npm run build` took (tsc, bundle, one start to record the cache).
 */
export function scaffoldPlugin() {
  const root = mkdtempSync(join(tmpdir(), "bench-scaffold-"));
  const dir = join(root, "plugin");
  const cli = join(repo, "cli/create-channel/bin/create-channel.js");
  execFileSync(
    process.execPath,
    [cli, "plugin", "--yes", "--no-install", "--template", "blank", "--name", "bench_scaffold"],
    { cwd: root, stdio: "ignore" },
  );
  symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"));
  const t = performance.now();
  execFileSync("npm", ["run", "build"], { cwd: dir, stdio: "ignore" });
  const buildMs = performance.now() - t;
  if (!existsSync(join(dir, "dist/plugin.cjs")))
    throw new Error(
      `the scaffold in ${dir} has no dist/plugin.cjs: its template predates the bundle (a stale cli/templates? delete it)`,
    );
  return { dir, buildMs, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Spawn to exit of `node -e "require('@grpc/grpc-js')"`, resolved from the repository's node_modules. */
function yardstick() {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, ["-e", "require('@grpc/grpc-js')"], { cwd: repo, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(performance.now() - t) : reject(new Error(`the yardstick exited with ${code}`)),
    );
  });
}

/** Spawn to ready through the SDK's host, then a clean Shutdown. */
async function plugin(args, options = {}) {
  const t = performance.now();
  const channel = await connectChannel({ command: process.execPath, args, logger: silentLogger, ...options });
  const ms = performance.now() - t;
  await channel.close();
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Measures every subject `rounds` times, alternating: each round starts each
 * subject once, in an order rotated from round to round. Returns the median
 * per subject and its ratio to the yardstick's median.
 */
export async function coldStarts(subjects, rounds) {
  const all = [{ name: `yardstick: node -e "require('@grpc/grpc-js')"`, start: yardstick }, ...subjects];
  const times = all.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < all.length; k++) {
      const i = (k + r) % all.length;
      times[i].push(await all[i].start());
    }
  }
  const yard = median(times[0]);
  return all.map((s, i) => ({
    name: s.name,
    where: s.where,
    judged: i > 0 && s.judged !== false,
    median: median(times[i]),
    min: Math.min(...times[i]),
    ratio: median(times[i]) / yard,
  }));
}

/** The plugins bench:rpc starts cold: the SDK's no-op plugin, the repository's example, and a fresh scaffold (bundled, and its modules). */
export function pluginSubjects(noopPlugin, scaffoldDir) {
  const example = join(repo, "examples/webhook-post/bin/errand-channel-webhook-post.js");
  const sdkFs = fileSystemOf(join(repo, "sdk"));
  const scaffold = (file) =>
    `${join(scaffoldDir, file)} (${fileSystemOf(scaffoldDir)}; node_modules a symlink to ${repo}node_modules, ${sdkFs})`;
  return [
    { name: "no-op plugin, SDK modules", where: `${noopPlugin} (${sdkFs})`, start: () => plugin([noopPlugin]) },
    {
      name: "example webhook_post",
      where: `${example} (${sdkFs})`,
      start: () => plugin([example], { config: { url: "http://127.0.0.1:9/hook" } }),
    },
    {
      name: "scaffold, bundle + code cache",
      where: scaffold("dist/plugin.cjs"),
      start: () => plugin([join(scaffoldDir, "dist/bin.js")]),
    },
    {
      name: "scaffold, its modules (tsc; not judged)",
      judged: false,
      where: scaffold("dist/plugin.js"),
      start: () => plugin([join(scaffoldDir, "dist/plugin.js")]),
    },
  ];
}
