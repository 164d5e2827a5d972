import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { HOST_SOCKET_DIR_PREFIX } from "../src/host/socket-dir.js";
import { launchEcho } from "./support/echo-plugin.js";
import { tempDir } from "./support/temp-dirs.js";

// An SDK plugin removes its socket directory itself on every way out that
// runs exit handlers; a SIGKILL runs none. The host lends each plugin a
// folder for it and removes that folder once the plugin is gone.
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
});
