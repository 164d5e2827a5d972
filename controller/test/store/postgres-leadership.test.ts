import { afterEach, describe, expect, it } from "vitest";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import type { Leadership, Store } from "../../src/store/store.js";
import { sleep } from "./conformance/support.js";
import { NEEDS_POSTGRES, postgresRunnable, usePostgresServer } from "./helpers/postgres-server.js";

const MINUTE = 60_000;
const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
async function open(url: string): Promise<Store> {
  const store = await createPostgresStore({ connectionString: url });
  opened.push(store);
  return store;
}

/** Tries for the lead until it comes, for at most 5 s (the server frees a lock as its backend exits, a few ms after it is told to). */
async function leadsSoon(store: Store, owner: string): Promise<Leadership> {
  const end = Date.now() + 5000;
  for (;;) {
    const answer = await store.tryLead(owner, MINUTE);
    if (answer.leading || Date.now() > end) return answer;
    await sleep(10);
  }
}

describe.runIf(postgresRunnable)(
  `PostgreSQL store: the loop's leader is an advisory lock of its own session ${NEEDS_POSTGRES}`,
  () => {
    const server = usePostgresServer();
    const endSessions = (applicationName: string) =>
      server().sql<{ ended: boolean }>(
        "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1",
        [applicationName],
      );

    it("shows the leader in pg_stat_activity; when its session is killed another store leads, and the old leader is told", async () => {
      const { url } = await server().freshSchema();
      const [a, b] = [await open(url), await open(url)];
      expect(await a.tryLead("host-a/11", MINUTE)).toEqual({ leading: true, leader: "host-a/11" });
      expect(await b.tryLead("host-b/22", MINUTE)).toEqual({ leading: false, leader: "host-a/11" });
      expect(await endSessions("errand:host-a/11")).toEqual([{ ended: true }]);
      expect(await leadsSoon(b, "host-b/22")).toEqual({ leading: true, leader: "host-b/22" });
      // A's next try connects again and finds the lock taken.
      expect(await a.tryLead("host-a/11", MINUTE)).toEqual({ leading: false, leader: "host-b/22" });
      expect(
        await server().sql(
          "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE 'errand:%' ORDER BY 1",
        ),
      ).toEqual([{ application_name: "errand:host-a/11" }, { application_name: "errand:host-b/22" }]);
    });

    it("keeps the lead while the server ends every pooled connection: the lock lives on a connection of its own", async () => {
      const { url } = await server().freshSchema();
      const [a, b] = [await open(url), await open(url)];
      await a.countRuns();
      await a.tryLead("a", MINUTE);
      expect((await endSessions("errand")).length).toBeGreaterThan(0);
      expect(await b.tryLead("b", MINUTE)).toEqual({ leading: false, leader: "a" });
      expect(await a.tryLead("a", MINUTE)).toEqual({ leading: true, leader: "a" });
    });

    it("keeps one lead per schema: installations in two schemas of one database each have a leader", async () => {
      const [one, two] = [await server().freshSchema(), await server().freshSchema()];
      const [a, b] = [await open(one.url), await open(two.url)];
      expect((await a.tryLead("a", MINUTE)).leading).toBe(true);
      expect((await b.tryLead("b", MINUTE)).leading).toBe(true);
      expect(await (await open(one.url)).tryLead("c", MINUTE)).toEqual({ leading: false, leader: "a" });
    });

    it("gives the lead up when its session stops answering, and leads again once the session is gone", async () => {
      const { url } = await server().freshSchema();
      const a = await open(url);
      await a.tryLead("frozen", MINUTE);
      const [backend] = await server().sql<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'errand:frozen'",
      );
      // The leader's server process stops answering, as a server behind a dead network would.
      process.kill(backend?.pid as number, "SIGSTOP");
      try {
        // After 2 s without an answer the session is abandoned; a new one finds the lock still held by the frozen one.
        expect((await a.tryLead("frozen", 1000)).leading).toBe(false);
      } finally {
        process.kill(backend?.pid as number, "SIGCONT");
      }
      // The abandoned session ends once its process runs again; the next try connects anew.
      expect(await leadsSoon(a, "frozen")).toEqual({ leading: true, leader: "frozen" });
    });

    it("takes the lock once however often the leader renews: one resign frees it", async () => {
      const { url } = await server().freshSchema();
      const [a, b] = [await open(url), await open(url)];
      for (let i = 0; i < 5; i++) expect((await a.tryLead("a", MINUTE)).leading).toBe(true);
      await a.resign("a");
      expect(await b.tryLead("b", MINUTE)).toEqual({ leading: true, leader: "b" });
    });
  },
);
