import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connectChannel } from "@errand/channel-sdk/host";
import { captureLogger, fixtures } from "@errand/channel-sdk/testing";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";

// A scaffold's `npm run build` bundles the plugin into dist/plugin.cjs and
// records V8's code cache for it; dist/bin.js starts the bundle through the
// cache (the plugin's cold start, docs/benchmarks.md). Offline: the scaffold
// uses this checkout's node_modules through a symlink instead of an install.
const repo = fileURLToPath(new URL("../..", import.meta.url));
const cookie = { ERRAND_PLUGIN_MAGIC_COOKIE: "errand-notification-channel" };
let root: string;
let dir: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "scaffold-bundle-"));
  const created = await runCli(
    "create-channel",
    ["pkg", "--yes", "--no-install", "--template", "blank", "--name", "quick_start"],
    { cwd: root },
  );
  expect(created.exitCode, created.stderr).toBe(0);
  dir = join(root, "pkg");
  await symlink(join(repo, "node_modules"), join(dir, "node_modules"));
  const build = await execa("npm", ["run", "build"], { cwd: dir, reject: false, all: true });
  expect(build.exitCode, build.all).toBe(0);
}, 180_000);
afterAll(() => rm(root, { recursive: true, force: true }));

/** Runs the built bin as a host would start it until it prints its handshake line; returns its stderr and stdout. */
async function startOnce(env: Record<string, string>) {
  const child = execa(process.execPath, [join(dir, "dist/bin.js")], { env: { ...cookie, ...env }, reject: false });
  let stdout = "";
  await new Promise<void>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("\n")) resolve();
    });
    void child.then(() => resolve());
  });
  child.kill("SIGTERM");
  const ended = await child;
  return { stdout, stderr: String(ended.stderr), exitCode: ended.exitCode };
}

describe("a scaffold's build", () => {
  it("bundles the plugin and records its code cache, one for the current bundle only", async () => {
    const caches = async () =>
      (await readdir(join(dir, "dist"))).filter((f) => /^plugin\.cjs\.[0-9a-f]+\.cache$/.test(f));
    expect(await readdir(join(dir, "dist"))).toContain("plugin.cjs");
    const first = await caches();
    expect(first).toHaveLength(1);
    const again = await execa(process.execPath, ["scripts/bundle.mjs"], { cwd: dir, reject: false, all: true });
    expect(again.exitCode, again.all).toBe(0);
    const second = await caches();
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
  });

  it("starts the bundle through the code cache, and V8 takes it", async () => {
    const run = await startOnce({ ERRAND_PLUGIN_CODE_CACHE: "report" });
    expect(run.stdout).toMatch(/^1\|1\|unix\|.+\|grpc\n$/);
    expect(run.stderr).toContain('"@message":"code cache","state":"accepted"');
  });

  it("serves through the bundle: Handshake and notifications", async () => {
    const logger = captureLogger();
    const channel = await connectChannel({
      command: process.execPath,
      args: [join(dir, "dist/bin.js")],
      config: { prefix: "[b]" },
      logger,
    });
    await channel.notifyStart(fixtures.tickets.basic, { engine: "e" });
    await channel.close();
    expect(logger.records.map((r) => r.msg)).toContain(`[b] started ${fixtures.tickets.basic.title}`);
  });

  it("refuses an unknown ERRAND_PLUGIN_CODE_CACHE, naming the values", async () => {
    const run = await startOnce({ ERRAND_PLUGIN_CODE_CACHE: "yes" });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain('ERRAND_PLUGIN_CODE_CACHE is "yes"; use one of use, off, write, report');
  });

  it("compiles from source when V8 refuses the cache (another node, or a damaged file)", async () => {
    const [cache] = (await readdir(join(dir, "dist"))).filter((f) => f.endsWith(".cache"));
    const good = await readFile(join(dir, "dist", cache!));
    await writeFile(join(dir, "dist", cache!), Buffer.from("not a code cache"));
    try {
      const run = await startOnce({ ERRAND_PLUGIN_CODE_CACHE: "report" });
      expect(run.stdout).toMatch(/^1\|1\|unix\|.+\|grpc\n$/);
      expect(run.stderr).toContain('"state":"rejected"');
    } finally {
      await writeFile(join(dir, "dist", cache!), good);
    }
  });

  it("starts without the cache when it cannot be read", async () => {
    const [cache] = (await readdir(join(dir, "dist"))).filter((f) => f.endsWith(".cache"));
    const path = join(dir, "dist", cache!);
    const good = await readFile(path);
    await rm(path);
    await mkdir(path);
    try {
      const run = await startOnce({ ERRAND_PLUGIN_CODE_CACHE: "report" });
      expect(run.stdout).toMatch(/^1\|1\|unix\|.+\|grpc\n$/);
      expect(run.stderr).toContain('"state":"missing"');
    } finally {
      await rm(path, { recursive: true });
      await writeFile(path, good);
    }
  });

  it("runs from its modules when there is no bundle (a build by tsc alone)", async () => {
    await rm(join(dir, "dist/plugin.cjs"));
    const run = await startOnce({ ERRAND_PLUGIN_CODE_CACHE: "report" });
    expect(run.stdout).toMatch(/^1\|1\|unix\|.+\|grpc\n$/);
    expect(run.stderr).not.toContain("code cache");
  });

  it("fails when the bundle does not start, with the plugin's own error", async () => {
    await appendFile(join(dir, "src/plugin.ts"), '\nthrow new Error("a channel that cannot start");\n');
    const bundle = await execa(process.execPath, ["scripts/bundle.mjs"], { cwd: dir, reject: false, all: true });
    expect(bundle.exitCode).toBe(1);
    expect(bundle.all).toContain("bundle: dist/plugin.cjs does not start");
    expect(bundle.all).toContain("a channel that cannot start");
  });
});
