import { describe, expect, it } from "vitest";
import { CancelledError } from "../src/index.js";
import { connectEcho } from "./support/echo-plugin.js";

// RemoteChannel.checkHealth against real plugin processes: the host's periodic
// probe of an unhealthy channel (the controller's notifier) is built on it.
describe("RemoteChannel.checkHealth (a real plugin process)", () => {
  it("resolves while the plugin serves, and is a deadline error while its process is stopped", async () => {
    const channel = await connectEcho();
    try {
      await expect(channel.checkHealth(2000)).resolves.toBeUndefined();
      process.kill(channel.pid!, "SIGSTOP");
      await expect(channel.checkHealth(300)).rejects.toMatchObject({ code: "ERR_DEADLINE_EXCEEDED" });
      process.kill(channel.pid!, "SIGCONT");
      await expect(channel.checkHealth(2000)).resolves.toBeUndefined();
    } finally {
      await channel.close();
    }
  });

  it("reports the exit once the process has died, cancellation after close(), and refuses a bad timeout", async () => {
    const channel = await connectEcho();
    await expect(channel.checkHealth(Number.POSITIVE_INFINITY)).rejects.toMatchObject({ code: "ERR_INVALID_ARGUMENT" });
    const exited = new Promise((resolve) => channel.once("exit", resolve));
    process.kill(channel.pid!, "SIGKILL");
    await exited;
    await expect(channel.checkHealth(1000)).rejects.toMatchObject({ code: "ERR_PLUGIN_EXITED" });
    const other = await connectEcho();
    await other.close();
    await expect(other.checkHealth(1000)).rejects.toMatchObject({ code: "ERR_PLUGIN_EXITED" });
  });

  it("an aborted signal cancels a check in flight, with the signal's reason", async () => {
    const channel = await connectEcho();
    try {
      process.kill(channel.pid!, "SIGSTOP");
      const abort = new AbortController();
      const check = channel.checkHealth(5000, abort.signal);
      setTimeout(() => abort.abort(new CancelledError("stop probing")), 100);
      await expect(check).rejects.toMatchObject({ code: "ERR_CANCELLED", message: "stop probing" });
    } finally {
      process.kill(channel.pid!, "SIGCONT");
      await channel.close();
    }
  });
});
