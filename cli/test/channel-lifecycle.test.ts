import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pidsIn, startCli, survivors, waitFor } from "./helpers/processes.js";
import { fixturesDir } from "./helpers/run-fixture.js";

// Process behaviour of `channel test` and `channel lint`, with real processes:
// a reader that goes away, signals, leftovers, and the exit after the summary.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "channel-lifecycle-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const config = join(fixturesDir, "conformance.json");
const good = join(fixturesDir, "good.mjs");
const stubborn = join(fixturesDir, "signals/stubborn.mjs");

describe("a closed stdout", () => {
  it("does not crash channel test: the run goes on and exits with its outcome", async () => {
    const cli = startCli("channel", ["test", "--config", config, "--only", "startup,handshake", "--", "node", good]);
    // Like `| head -1`: read the first chunk, then go away.
    cli.child.stdout!.once("data", () => cli.child.stdout!.destroy());
    const { code } = await cli.exited;
    expect(cli.stderr()).not.toMatch(/Unhandled|EPIPE/);
    expect(code).toBe(0);
  });

  it("does not crash channel lint", async () => {
    const dir = join(root, "lint-epipe");
    await mkdir(dir);
    await writeFile(join(dir, "package.json"), JSON.stringify({ name: "my-plugin", version: "1.0.0" }));
    const cli = startCli("channel", ["lint", dir]);
    // Like `| head -0`: gone before the first line.
    cli.child.stdout!.destroy();
    const { code } = await cli.exited;
    expect(cli.stderr()).not.toMatch(/Unhandled|EPIPE/);
    expect(code).toBe(1);
  });
});

describe("stopping channel test", () => {
  it("SIGTERM stops every plugin process (and what it started), then exits 143", async () => {
    const pidFile = join(root, "term.pids");
    const cli = startCli("channel", ["test", "--", "node", stubborn], { env: { PID_FILE: pidFile } });
    // startup.cookie and startup.handshake-line each start the plugin, which starts `sleep`.
    await waitFor(() => pidsIn(pidFile).length >= 4, 10_000, "two plugins and their children");
    cli.child.kill("SIGTERM");
    const { code } = await cli.exited;
    expect(await survivors(pidsIn(pidFile))).toEqual([]);
    expect(code).toBe(143);
  });

  it("Ctrl-C stops a plugin that ignores SIGINT and SIGTERM (SIGKILL after the grace), then exits 130", async () => {
    const pidFile = join(root, "int.pids");
    const cli = startCli("channel", ["test", "--", "node", stubborn], {
      env: { PID_FILE: pidFile, STUBBORN_TERM: "ignore" },
      detached: true,
    });
    await waitFor(() => pidsIn(pidFile).length >= 4, 10_000, "two plugins and their children");
    const sentAt = Date.now();
    // What a terminal does on Ctrl-C: SIGINT to the whole foreground process group.
    process.kill(-cli.child.pid!, "SIGINT");
    const { code, at } = await cli.exited;
    expect(await survivors(pidsIn(pidFile))).toEqual([]);
    expect(code).toBe(130);
    // The 2 s grace, then SIGKILL; a hang would take as long as the plugin lives (minutes).
    expect(at - sentAt).toBeLessThan(8000);
    expect(cli.stderr()).toContain("SIGINT: stopping");
  });
});

describe("stopping channel lint", () => {
  it("SIGTERM during the manifest Handshake stops the plugin and exits 143", async () => {
    const dir = join(root, "lint-term");
    await mkdir(dir);
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({
        name: "errand-channel-stubborn",
        version: "1.0.0",
        bin: { "errand-channel-stubborn": "bin.mjs" },
        errand: { channel: "stubborn", interfaceVersions: [1] },
      }),
    );
    await writeFile(
      join(dir, "bin.mjs"),
      `#!/usr/bin/env node\nimport ${JSON.stringify(pathToFileURL(stubborn).href)};\n`,
    );
    const pidFile = join(root, "lint.pids");
    const cli = startCli("channel", ["lint", dir], { env: { PID_FILE: pidFile } });
    await waitFor(() => pidsIn(pidFile).length >= 2, 20_000, "the plugin and its child");
    cli.child.kill("SIGTERM");
    const { code } = await cli.exited;
    expect(await survivors(pidsIn(pidFile))).toEqual([]);
    expect(code).toBe(143);
  });
});

describe("after the run", () => {
  it("plugins stopped by a check get SIGTERM first, so SDK plugins remove their socket folders", async () => {
    const tmp = await mkdtemp(join(root, "tmp-"));
    // PLUGIN_UNIX_SOCKET_DIR set: the host lends no folder of its own (which it would remove), so this sees what the plugin does.
    const cli = startCli(
      "channel",
      ["test", "--config", config, "--only", "handshake.v1,notify.basic,notify.start", "--", "node", good],
      { env: { TMPDIR: tmp, PLUGIN_UNIX_SOCKET_DIR: tmp } },
    );
    const { code } = await cli.exited;
    expect(code, cli.stdout()).toBe(0);
    expect((await readdir(tmp)).filter((name) => name.startsWith("errand-plugin-"))).toEqual([]);
  });

  it("a plugin that had to be SIGKILLed leaves no socket folder: the one it was lent goes with it", async () => {
    const tmp = await mkdtemp(join(root, "tmp-"));
    // Ignores Shutdown and SIGTERM, so only SIGKILL ends it, and no exit handler of its own runs.
    const stubbornPlugin = join(fixturesDir, "broken/ignores-shutdown.mjs");
    const cli = startCli(
      "channel",
      ["test", "--config", config, "--only", "shutdown.sigterm", "--", "node", stubbornPlugin],
      { env: { TMPDIR: tmp } },
    );
    const { code } = await cli.exited;
    expect(code, cli.stdout()).toBe(1);
    expect(cli.stdout()).toMatch(/shutdown\.sigterm/);
    expect(await readdir(tmp)).toEqual([]);
  });

  it("exits promptly after its summary (no timer left running)", async () => {
    // `false` exits at once, so a timer of the check left running would show as a gap of seconds.
    const cli = startCli("channel", ["test", "--only", "startup.cookie", "--", "false"]);
    let summaryAt = 0;
    cli.child.stdout!.on("data", () => {
      if (!summaryAt && /\d+ passed/.test(cli.stdout())) summaryAt = Date.now();
    });
    const { code, at } = await cli.exited;
    expect(code).toBe(0);
    expect(summaryAt).toBeGreaterThan(0);
    expect(at - summaryAt).toBeLessThan(1500);
  });
});
