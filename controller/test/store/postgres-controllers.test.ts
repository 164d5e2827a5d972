import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TaskRun } from "../../src/runs/task-run.js";
import { secretEnvName } from "../../src/secrets/secret-env-name.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import {
  createHarness,
  eventually,
  finished,
  postTicket,
  runsOf,
  SECRET_ENV,
  ticketBody,
} from "../controller/harness.js";
import { runCli } from "../helpers/cli.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

// The real `errand run` bin, twice, on one database (build first: npm run build -w controller; `npm test` does).
describe.runIf(postgresRunnable)(`two controllers on one PostgreSQL database ${NEEDS_POSTGRES}`, () => {
  const server = usePostgresServer();

  it("the leader is killed with SIGKILL mid-run: the standby takes over and every ticket runs exactly once", async () => {
    const { url } = await server().freshSchema();
    // Each run takes 2 s and finishes on its own, whether or not its controller is still there.
    const h = createHarness({ engine: "finish-later.sh" });
    const yaml = readFileSync(h.configFile, "utf8");
    writeFileSync(
      h.configFile,
      yaml
        .replace(/store:\n {2}path: .*\n/, "store:\n  backend: postgres\n  url_secret: e2e-db-url\n")
        // A short lease keeps the take-over quick in a test; the default is 15 s.
        .replace("shutdown_grace_seconds: 2", "shutdown_grace_seconds: 2\n  leader_lease_seconds: 2"),
    );
    const env = { ...SECRET_ENV, [secretEnvName("e2e-db-url")]: url };
    const store = await createPostgresStore({ connectionString: url });
    try {
      const first = runCli(["run", "--config", h.configFile], { env });
      await first.ready;
      await first.waitForStderr(
        /"@message":"controller started".*"leading":true.*"store":"postgres:127\.0\.0\.1:/,
        15_000,
      );
      const second = runCli(["run", "--config", h.configFile], { env });
      const standbyPort = await second.ready;
      await second.waitForStderr(/"@message":"controller started".*"leading":false/, 15_000);

      // Six tickets through the standby's intake; the leader runs two at a time (max_concurrent_jobs: 2).
      const tickets = Array.from({ length: 6 }, () => ticketBody());
      for (const t of tickets) expect((await postTicket(standbyPort, t.body)).status).toBe(200);
      await eventually("two runs under way on the leader", async () =>
        (await store.countRuns()).Running === 2 ? true : undefined,
      );
      const inFlight = (await store.listRuns({ states: ["Running"] })).map((r) => r.id);
      // A standby runs nothing: the two were started by the leader.
      expect(second.stderr()).not.toMatch(/"@message":"run started"/);
      for (const id of inFlight) await first.waitForStderr(new RegExp(`"@message":"run started".*"run_id":"${id}"`));
      first.child.kill("SIGKILL");
      await first.exited;
      await second.waitForStderr(/"@message":"leading: this controller runs the loop"/, 15_000);

      const runs: TaskRun[] = [];
      for (const t of tickets) {
        await finished(store, t.id, 30_000);
        const all = await runsOf(store, t.id);
        expect(all, `runs of ${t.id}`).toHaveLength(1);
        runs.push(...all);
      }
      // The engines record each start: every run started once, none twice, none never.
      expect([...h.executions()].sort()).toEqual(runs.map((r) => r.id).sort());
      // The two cut off by the kill end as the restart rule says; the four that waited ran on the new leader.
      for (const run of runs) {
        if (inFlight.includes(run.id)) expect(run.reason).toMatch(/^controller restarted while the run was running/);
        else expect(run.state).toBe("Succeeded");
      }

      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    } finally {
      await store.close();
    }
  }, 90_000);
});
