import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ECHO_PLUGIN } from "./support/echo-plugin.js";
import { runHostScript } from "./support/host-script.js";

const HOST_CASES = fileURLToPath(new URL("./fixtures/plugins/host-cases.mjs", import.meta.url));
const connectEcho = `const channel = await sdk.connectChannel({ command: process.execPath, args: [${JSON.stringify(ECHO_PLUGIN)}], logger: sdk.silentLogger });`;
// Timers still keeping the host alive: the host must leave none once it is done.
const timers = `process.getActiveResourcesInfo().filter((r) => r === "Timeout").length`;

describe("no host timer outlives its work (real host processes)", () => {
  it("a host exits right after close() resolves, not when a leftover grace timer fires", async () => {
    const run = await runHostScript(`${connectEcho}
      await channel.close();
      console.log("timers:" + ${timers});
      console.log("MARK");
    `);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("timers:0");
    // The Shutdown grace is 2000 ms; a host that exits well before it left no timer behind.
    expect(run.exitAfterMarkMs).toBeLessThan(1000);
  });

  it("no timer is left once a call has settled, also when the plugin died during it", async () => {
    const run = await runHostScript(`${connectEcho}
      await channel.notify("x", { id: "1", title: "ok", labels: [] });
      console.log("after ok:" + ${timers});
      const error = await channel.notify("x", { id: "1", title: "crash", labels: [] }).catch((e) => e);
      console.log("after crash:" + ${timers} + ":" + error.code);
      console.log("MARK");
    `);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("after ok:0");
    expect(run.stdout).toContain("after crash:0:ERR_PLUGIN_EXITED");
    expect(run.exitAfterMarkMs).toBeLessThan(1000);
  });

  it("no timer is left once a failed start has been reported", async () => {
    const run = await runHostScript(`
      const error = await sdk.connectChannel({ command: process.execPath, args: [${JSON.stringify(HOST_CASES)}], config: { mode: "init-exit" }, logger: sdk.silentLogger }).catch((e) => e);
      console.log("failed:" + error.code + ":" + ${timers});
      console.log("MARK");
    `);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("failed:ERR_PLUGIN_START:0");
    expect(run.exitAfterMarkMs).toBeLessThan(1000);
  });

  it("a bad timeoutMs on a remote call is an error the host can catch, not a crash", async () => {
    const run = await runHostScript(`${connectEcho}
      for (const timeoutMs of [Infinity, 1e12, 2 ** 31]) {
        const error = await channel.notify("x", { id: "1", title: "ok", labels: [] }, { timeoutMs }).catch((e) => e);
        console.log("timeout " + timeoutMs + ": " + error.code);
      }
      await channel.close();
    `);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.match(/: ERR_INVALID_ARGUMENT/g)).toHaveLength(3);
  });
});
