import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { SCHEMA_VERSION } from "../../src/store/postgres/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import type { AcceptOutcome } from "../../src/store/store.js";
import { ticket } from "./conformance/support.js";
import { type ChildRun, killScripts, runStoreScript } from "./helpers/child-store.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

let dir: string;
beforeEach(() => {
  dir = tempDir("errand-pg-proc-");
});
afterEach(async () => {
  await killScripts();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Starts one process per body; each opens the store as `s` (or not, with
 * `open: false`) and waits for a common signal before running its body, so
 * that they all hit the server at the same moment. Resolves with them once started.
 */
async function together(url: string, bodies: string[], open = true): Promise<ChildRun[]> {
  const go = join(dir, "go");
  const children = bodies.map((body) =>
    runStoreScript(`
      const { existsSync } = await import("node:fs");
      const TICKET = (id) => ({ id, title: "t", description: "", ticketType: "bug", repoUrl: "", externalUrl: "", labels: [], source: "generic" });
      ${open ? `const s = await store.createPostgresStore({ connectionString: ${JSON.stringify(url)} });` : ""}
      process.stdout.write("ready\\n");
      while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 2));
      ${body}
    `),
  );
  await Promise.all(children.map((c) => c.waitForLines(1)));
  writeFileSync(go, "");
  return children;
}

const exitCodes = (children: ChildRun[]) =>
  Promise.all(children.map(async (c) => ((await c.exited) === 0 ? 0 : c.stderr())));

describe.runIf(postgresRunnable)(`PostgreSQL store shared by several processes ${NEEDS_POSTGRES}`, () => {
  const server = usePostgresServer();

  it("migrates a new schema once when four processes open it at the same moment", async () => {
    const { schema, url } = await server().freshSchema();
    const open = `const s = await store.createPostgresStore({ connectionString: ${JSON.stringify(url)} }); await s.countRuns(); await s.close();`;
    const children = await together(url, [open, open, open, open], false);
    expect(await exitCodes(children)).toEqual([0, 0, 0, 0]);
    const applied = await server().sql<{ version: number }>(
      `SELECT version FROM ${schema}.errand_migrations ORDER BY version`,
    );
    expect(applied.map((row) => row.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it("hands each Queued run to exactly one of three processes claiming at once", async () => {
    const { url } = await server().freshSchema();
    const store = await createPostgresStore({ connectionString: url });
    await store.acceptTickets(
      Array.from({ length: 300 }, (_, i) => ticket(`c${i}`)),
      "default",
    );
    const claimer = (owner: string) => `
      const mine = [];
      for (;;) {
        const claimed = await s.claimQueued("${owner}", 2, 60000);
        if (claimed.length === 0) break;
        for (const c of claimed) {
          mine.push(c.run.id);
          await s.transition({ runId: c.run.id, from: ["Queued"], to: "Running", reason: "started by ${owner}" });
        }
      }
      process.stdout.write(JSON.stringify(mine) + "\\n");
      await s.close();`;
    const owners = ["A", "B", "C"];
    const children = await together(url, owners.map(claimer));
    expect(await exitCodes(children)).toEqual([0, 0, 0]);
    const perOwner = children.map((c) => JSON.parse(c.lines[1] as string) as string[]);
    expect(perOwner.flat()).toHaveLength(300);
    expect(new Set(perOwner.flat()).size).toBe(300);
    expect((await store.countRuns()).Running).toBe(300);
    for (const [i, owner] of owners.entries()) {
      for (const runId of perOwner[i] ?? []) {
        expect((await store.transitions(runId)).map((t) => t.reason)).toEqual([
          "accepted from generic",
          `started by ${owner}`,
        ]);
      }
    }
    await store.close();
  });

  it("gives each ticket one first run when three processes accept overlapping batches in different orders", async () => {
    const { url } = await server().freshSchema();
    const orders = ["ids", "ids.reverse()", "ids.map((id, i) => ids[(i * 7) % 60])"];
    const children = await together(
      url,
      orders.map(
        (order) => `
        const ids = Array.from({ length: 60 }, (_, i) => "o" + i);
        const mine = ${order};
        const outcomes = [];
        for (let i = 0; i < mine.length; i += 12) outcomes.push(...(await s.acceptTickets(mine.slice(i, i + 12).map(TICKET), "default")));
        process.stdout.write(JSON.stringify(outcomes) + "\\n");
        await s.close();`,
      ),
    );
    expect(await exitCodes(children)).toEqual([0, 0, 0]);
    const outcomes = children.flatMap((c) => JSON.parse(c.lines[1] as string) as AcceptOutcome[]);
    const queued = outcomes.filter((o) => o.kind === "queued");
    expect(queued.map((o) => o.ticket.id).sort()).toEqual(Array.from({ length: 60 }, (_, i) => `o${i}`).sort());
    const runOf = new Map(queued.map((o) => [o.ticket.id, o.runId]));
    for (const o of outcomes) expect(o.runId, o.ticket.id).toBe(runOf.get(o.ticket.id));
    const store = await createPostgresStore({ connectionString: url });
    expect((await store.countRuns()).Queued).toBe(60);
    await store.close();
  });

  it("keeps every batch whose acceptTickets resolved in a process killed with SIGKILL", async () => {
    const { url } = await server().freshSchema();
    const [child] = await together(url, [
      `for (let batch = 0; ; batch++) {
        const outcomes = await s.acceptTickets(Array.from({ length: 10 }, (_, i) => TICKET(batch + "-" + i)), "default");
        process.stdout.write(JSON.stringify(outcomes.map((o) => o.runId)) + "\\n");
      }`,
    ]);
    await child?.waitForLines(26);
    child?.kill("SIGKILL");
    expect(await child?.exited).toBe("SIGKILL");
    const acknowledged = (child?.lines.slice(1) ?? []).flatMap((line) => JSON.parse(line) as string[]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(250);
    const store = await createPostgresStore({ connectionString: url });
    for (const runId of acknowledged) {
      expect((await store.getRun(runId))?.state, runId).toBe("Queued");
      expect(await store.transitions(runId)).toHaveLength(1);
    }
    // A batch is one transaction: the one the kill interrupted is absent as a whole.
    expect((await store.countRuns()).Queued % 10).toBe(0);
    expect((await store.acceptTickets([ticket("0-0")], "default"))[0]).toMatchObject({
      kind: "existing",
      runId: acknowledged[0],
    });
    await store.close();
  });
});
