import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { HOST_SOCKET_DIR_PREFIX } from "../src/host/socket-dir.js";
import { ECHO_PLUGIN, launchEcho, waitForExit } from "./support/echo-plugin.js";
import { SDK_DIST } from "./support/host-script.js";

// An SDK plugin removes its socket directory itself on every way out that
// runs exit handlers; a SIGKILL runs none. The host lends each plugin a
// folder for it and removes that folder once the plugin is gone; a host
// killed outright cannot, so the plugin, which outlives it, removes it.
describe("the socket folder a host lends a plugin", () => {
  it("is removed with what a SIGKILLed plugin left in it", async () => {
    const plugin = await launchEcho();
    const lent = dirname(dirname(plugin.line.address));
    expect(dirname(lent)).toBe(tmpdir());
    expect(basename(lent).startsWith(HOST_SOCKET_DIR_PREFIX)).toBe(true);
    expect(existsSync(plugin.line.address)).toBe(true);
    plugin.child.kill("SIGKILL");
    await plugin.exited;
    expect(existsSync(lent)).toBe(false);
  });

  it("is not lent when PLUGIN_UNIX_SOCKET_DIR names a directory: that one is the operator's, never removed", async () => {
    const own = tempDir("errand-own-socket-dir-");
    const plugin = await launchEcho({ env: { PLUGIN_UNIX_SOCKET_DIR: own } });
    expect(dirname(dirname(plugin.line.address))).toBe(own);
    plugin.child.kill("SIGKILL");
    await plugin.exited;
    expect(existsSync(own)).toBe(true);
  });

  it("is removed by the plugin itself when its host was killed outright", async () => {
    // The host's own temp directory, so the folder it lends is the only thing that can appear in it.
    const hostTmp = tempDir("errand-killed-host-");
    const script = `
      const { connectChannel, silentLogger } = await import(${JSON.stringify(SDK_DIST)});
      const channel = await connectChannel({ command: process.execPath, args: [${JSON.stringify(ECHO_PLUGIN)}], logger: silentLogger });
      process.stdout.write(String(channel.pid) + "\\n");
      setInterval(() => {}, 1000);
    `;
    const host = spawn(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: hostTmp },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const pluginPid = await new Promise<number>((resolve) =>
      host.stdout.once("data", (d) => resolve(Number(String(d).trim()))),
    );
    expect(readdirSync(hostTmp).map((name) => name.startsWith(HOST_SOCKET_DIR_PREFIX))).toEqual([true]);
    host.kill("SIGKILL");
    await waitForExit(pluginPid, 5000);
    expect(readdirSync(hostTmp)).toEqual([]);
  });

  it("is never an operator's folder, even one an inherited ERRAND_PLUGIN_SOCKET_DIR_LENT names", async () => {
    const own = tempDir("errand-own-socket-dir-");
    const plugin = await launchEcho({ env: { PLUGIN_UNIX_SOCKET_DIR: own, ERRAND_PLUGIN_SOCKET_DIR_LENT: own } });
    // SIGTERM: the plugin exits through its exit handlers, the ones that remove a lent folder.
    plugin.child.kill("SIGTERM");
    await plugin.exited;
    expect(existsSync(own)).toBe(true);
    expect(readdirSync(own)).toEqual([]);
  });
});
