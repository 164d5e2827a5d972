import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import {
  alive,
  createHarness,
  eventually,
  finished,
  postTicket,
  running,
  runsOf,
  SECRET_ENV,
  ticketBody,
} from "./harness.js";

/** True once the process is gone or only a zombie waiting for init to reap it. */
function exitedOrZombie(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

// The real `errand run` bin, killed with SIGKILL as a crash or an OOM kill would.
function startCli(configFile: string) {
  const cli = runCli(["run", "--config", configFile], { env: SECRET_ENV });
  return cli;
}

describe("errand run across restarts (real processes, SIGKILL)", () => {
  it("a redelivery after a restart does not start a second run", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const { id, body } = ticketBody();
    const first = startCli(h.configFile);
    expect((await postTicket(await first.ready, body, { "webhook-id": "msg_restart" })).status).toBe(200);
    const store = await h.openStore();
    try {
      await finished(store, id);
      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      const second = startCli(h.configFile);
      const port = await second.ready;
      const again = await postTicket(port, body, { "webhook-id": "msg_restart" });
      expect(again.status).toBe(200);
      expect(JSON.parse(again.text)).toMatchObject({ status: "duplicate" });
      expect((await postTicket(port, body)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
      expect(await runsOf(store, id)).toHaveLength(1);
      expect(h.executions()).toHaveLength(1);
      second.child.kill("SIGTERM");
      await second.exited;
    } finally {
      await store.close();
    }
  });

  it("kill -9 right after the 200 loses nothing: after a restart the ticket runs exactly once", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const { id, body } = ticketBody();
    const first = startCli(h.configFile);
    const answer = await postTicket(await first.ready, body);
    first.child.kill("SIGKILL");
    expect(answer.status).toBe(200);
    await first.exited;
    const second = startCli(h.configFile);
    await second.ready;
    const store = await h.openStore();
    try {
      const run = await finished(store, id);
      const runs = await runsOf(store, id);
      expect(runs).toHaveLength(1);
      // Either the first controller never started the engine (it runs now, once) or it had: then the run is
      // resolved as the restart rule says and the engine ran once, never twice.
      if (run.state === "Succeeded") expect(h.executions()).toEqual([run.id]);
      else expect(run.reason).toMatch(/controller restarted/);
      expect(h.executions().length).toBeLessThanOrEqual(1);
      second.child.kill("SIGTERM");
      await second.exited;
    } finally {
      await store.close();
    }
  });

  it("kill -9 during a run: after the restart the run is Failed with the reason, and its process group is gone", async () => {
    const h = createHarness({ engine: "slow.sh" });
    const { id, body } = ticketBody();
    const first = startCli(h.configFile);
    await postTicket(await first.ready, body);
    const store = await h.openStore();
    try {
      const r = await running(store, id);
      const main = Number(
        await eventually("pid", () => {
          try {
            return readFileSync(`${h.pidDir}/${r.id}.main`, "utf8");
          } catch {
            return undefined;
          }
        }),
      );
      const child = Number(readFileSync(`${h.pidDir}/${r.id}.child`, "utf8"));
      first.child.kill("SIGKILL");
      await first.exited;
      // The engine has its own process group, so it outlives the controller until the restart resolves it.
      expect(alive(main)).toBe(true);
      const second = startCli(h.configFile);
      await second.ready;
      const run = await finished(store, id);
      expect(run.state).toBe("Failed");
      expect(run.reason).toMatch(/controller restarted/);
      await eventually("the old engine group to die", () => (alive(main) || alive(child) ? undefined : true), 15_000);
      expect(await runsOf(store, id)).toHaveLength(1);
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("a run that finished while the controller was down is recorded with its real result", async () => {
    const h = createHarness({ engine: "finish-later.sh" });
    const { id, body } = ticketBody();
    const first = startCli(h.configFile);
    await postTicket(await first.ready, body);
    const store = await h.openStore();
    try {
      const r = await running(store, id);
      first.child.kill("SIGKILL");
      await first.exited;
      await eventually("the engine to finish on its own", () =>
        existsSync(`${h.pidDir}/${r.id}.done`) ? true : undefined,
      );
      const main = Number(readFileSync(`${h.pidDir}/${r.id}.main`, "utf8"));
      await eventually("the engine process to exit", () => (exitedOrZombie(main) ? true : undefined));
      const second = startCli(h.configFile);
      await second.ready;
      const run = await finished(store, id);
      expect(run.state).toBe("Succeeded");
      expect(run.result).toMatchObject({ success: true, pullRequestUrl: "https://github.com/acme/shop/pull/11" });
      expect(h.executions()).toEqual([run.id]);
      second.child.kill("SIGTERM");
      await second.exited;
    } finally {
      await store.close();
    }
  });
});
