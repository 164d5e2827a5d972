import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { createHarness, finished, postTicket, SECRET_ENV, ticketBody } from "./harness.js";

describe("several controllers on one store: one loop at a time", () => {
  it("the second is a standby that serves the intake; when the leader dies it takes over and nothing runs twice", async () => {
    const h = createHarness({ engine: "ok.sh", extra: "" });
    // A short lease keeps the take-over quick in a test; the default is 15 s.
    const { readFileSync, writeFileSync } = await import("node:fs");
    writeFileSync(
      h.configFile,
      readFileSync(h.configFile, "utf8").replace(
        "shutdown_grace_seconds: 2",
        "shutdown_grace_seconds: 2\n  leader_lease_seconds: 2",
      ),
    );
    const first = runCli(["run", "--config", h.configFile], { env: SECRET_ENV });
    await first.ready;
    await first.waitForStderr(/"@message":"controller started".*"leading":true/);
    const second = runCli(["run", "--config", h.configFile], { env: SECRET_ENV });
    const standbyPort = await second.ready;
    await second.waitForStderr(/"@message":"controller started".*"leading":false/);
    const store = await h.openStore();
    try {
      const one = ticketBody();
      expect((await postTicket(standbyPort, one.body)).status).toBe(200);
      const run = await finished(store, one.id);
      expect(run.state).toBe("Succeeded");
      first.child.kill("SIGKILL");
      await first.exited;
      await second.waitForStderr(/"@message":"leading: this controller runs the loop"/, 10_000);
      const two = ticketBody();
      expect((await postTicket(standbyPort, two.body)).status).toBe(200);
      expect((await finished(store, two.id)).state).toBe("Succeeded");
      expect(h.executions()).toHaveLength(2);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    } finally {
      await store.close();
    }
  }, 60_000);
});
