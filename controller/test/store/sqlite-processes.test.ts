import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createSqliteStore } from "../../src/store/index.js";
import { ticket } from "./conformance/support.js";
import { killScripts, runStoreScript } from "./helpers/child-store.js";

let dir: string;
afterEach(async () => {
  await killScripts();
  rmSync(dir, { recursive: true, force: true });
});
function dbPath(): string {
  dir = tempDir("errand-sqlite-proc-");
  return join(dir, "errand.db");
}

describe("SQLite store across processes", () => {
  it("keeps every batch whose acceptTickets resolved in a process killed with SIGKILL", async () => {
    const path = dbPath();
    const child = runStoreScript(`
      const s = await store.createSqliteStore({ path: ${JSON.stringify(path)} });
      for (let batch = 0; ; batch++) {
        const tickets = Array.from({ length: 10 }, (_, i) => ({
          id: batch + "-" + i, title: "t", description: "", ticketType: "bug", repoUrl: "", externalUrl: "",
          labels: [], source: "generic", rawEvent: { batch },
        }));
        const outcomes = await s.acceptTickets(tickets, "default");
        process.stdout.write(JSON.stringify(outcomes.map((o) => o.runId)) + "\\n");
      }
    `);
    await child.waitForLines(25);
    child.kill("SIGKILL");
    expect(await child.exited).toBe("SIGKILL");

    const acknowledged = child.lines.flatMap((line) => JSON.parse(line) as string[]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(250);
    const store = await createSqliteStore({ path });
    for (const runId of acknowledged) {
      const run = await store.getRun(runId);
      expect(run?.state, runId).toBe("Queued");
      expect(await store.transitions(runId)).toHaveLength(1);
      expect(await store.getTicket(run?.ticket ?? { source: "", id: "" })).toMatchObject({ id: run?.ticket.id });
    }
    // A batch is one transaction: the one the kill interrupted is absent as a whole.
    const stored = (await store.countRuns()).Queued;
    expect(stored).toBeGreaterThanOrEqual(acknowledged.length);
    expect(stored % 10).toBe(0);
    // A redelivery after the restart is a duplicate, not a second run.
    expect((await store.acceptTickets([ticket("0-0")], "default"))[0]).toMatchObject({
      kind: "existing",
      runId: acknowledged[0],
    });
    await store.close();
  });

  it("lets a process that never closed its store exit", async () => {
    const path = dbPath();
    const child = runStoreScript(`
      const s = await store.createSqliteStore({ path: ${JSON.stringify(path)} });
      await s.acceptTickets([{ id: "1", title: "t", description: "", ticketType: "bug", repoUrl: "", externalUrl: "", labels: [], source: "generic" }], "default");
      process.stdout.write("stored\\n");
    `);
    expect(await child.exited).toBe(0);
    expect(child.lines[0]).toBe("stored");
  });

  it("hands each Queued run to exactly one of three processes claiming at once", async () => {
    const path = dbPath();
    const store = await createSqliteStore({ path });
    await store.acceptTickets(
      Array.from({ length: 300 }, (_, i) => ticket(`c${i}`)),
      "default",
    );
    const go = join(dir, "go");
    const children = ["A", "B", "C"].map((owner) =>
      runStoreScript(`
        const { existsSync } = await import("node:fs");
        const s = await store.createSqliteStore({ path: ${JSON.stringify(path)} });
        process.stdout.write("ready\\n");
        while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 5));
        const mine = [];
        for (;;) {
          const claimed = await s.claimQueued(${JSON.stringify(owner)}, 2, 60000);
          if (claimed.length === 0) break;
          for (const c of claimed) {
            mine.push(c.run.id);
            await s.transition({ runId: c.run.id, from: ["Queued"], to: "Running", reason: "started by ${owner}" });
          }
        }
        process.stdout.write(JSON.stringify(mine) + "\\n");
        await s.close();
      `),
    );
    await Promise.all(children.map((c) => c.waitForLines(1)));
    writeFileSync(go, "");
    expect(await Promise.all(children.map((c) => c.exited))).toEqual([0, 0, 0]);

    const perOwner = children.map((c) => JSON.parse(c.lines[1] as string) as string[]);
    const all = perOwner.flat();
    expect(all).toHaveLength(300);
    expect(new Set(all).size).toBe(300);
    expect((await store.countRuns()).Running).toBe(300);
    for (const [i, owner] of ["A", "B", "C"].entries()) {
      for (const runId of perOwner[i] ?? []) {
        expect((await store.transitions(runId)).map((t) => t.reason)).toEqual([
          "accepted from generic",
          `started by ${owner}`,
        ]);
      }
    }
    await store.close();
  });
});
