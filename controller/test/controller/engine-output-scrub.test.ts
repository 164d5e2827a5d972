import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  createHarness,
  eventually,
  finished,
  type InProcess,
  postTicket,
  SECRET_ENV,
  startInProcess,
  ticketBody,
} from "./harness.js";

const BIN = resolve(import.meta.dirname, "../../../node_modules/.bin/errand");
/** The engine's API key, which the fixture engine (leak.sh) prints back in everything it reports. */
const KEY = "sk-test-engine-key-7f3a9c2e41b8";

const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

function errand(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(BIN, args, {
    env: { ...process.env, ...SECRET_ENV, ERRAND_SECRET_ENGINE_KEY: KEY },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every byte of the SQLite store: the database file and its -wal (and -shm) beside it. */
function storeBytes(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.startsWith("errand.db"))
    .map((name) => readFileSync(join(dir, name)).toString("latin1"))
    .join("\n");
}

describe("engine output enters the controller scrubbed: no secret, no absolute workspace path", () => {
  it("a key the engine prints in progress, summary, failure reason and PR URL reaches neither the store, the CLI nor a channel", async () => {
    const sink: Sink = await startSink();
    open.push(sink);
    const h = createHarness({
      engine: "leak.sh",
      extra: `notifications:\n  progress_per_minute: 60\n  channels:\n    - backend: webhook_post\n      config: { url: "${sink.url}/hook" }\n`,
    });
    writeFileSync(
      h.configFile,
      readFileSync(h.configFile, "utf8").replace(
        "    kind: command\n",
        "    kind: command\n    auth: { api_key_secret: engine-key }\n",
      ),
    );
    const c: InProcess = await startInProcess(h, undefined, { ERRAND_SECRET_ENGINE_KEY: KEY });
    open.push({ close: () => c.stop() });

    const ok = ticketBody();
    const bad = ticketBody({ title: "FAIL on purpose" });
    expect((await postTicket(c.webhookPort, ok.body)).status).toBe(200);
    expect((await postTicket(c.webhookPort, bad.body)).status).toBe(200);
    const succeeded = await finished(c.controller.store, ok.id);
    const failed = await finished(c.controller.store, bad.id);
    await eventually("both completions on the channel", () =>
      sink.requests.filter((r) => (r.json as { event?: string }).event === "complete").length === 2 ? true : undefined,
    );

    // The engine did print the key and its workspace: what the controller kept has neither.
    const workspace = join(h.dir, "ws", succeeded.id);
    expect(succeeded.state).toBe("Succeeded");
    expect(succeeded.result).toMatchObject({
      summary: "used [redacted]; changed src/x.ts",
      pullRequestUrl: "https://x:[redacted]@github.com/acme/shop/pull/7",
    });
    expect(failed.state).toBe("Failed");
    expect(failed.result?.failureReason).toBe("auth [redacted] rejected at src/x.ts");
    expect(failed.reason).toBe("auth [redacted] rejected at src/x.ts");
    const progress = sink.requests
      .map((r) => r.json as { event?: string; message?: string })
      .filter((m) => m.event === "notify");
    expect(progress.map((m) => m.message)).toContain("key [redacted]; editing src/x.ts in .");

    const channel = sink.requests.map((r) => r.body).join("\n");
    expect(channel).not.toContain(KEY);
    expect(channel).not.toContain(workspace);
    expect(storeBytes(h.dir)).not.toContain(KEY);
    expect(c.logs.join("\n")).not.toContain(KEY);

    const list = errand(["runs", "--config", h.configFile, "--json"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("[redacted]");
    for (const run of [succeeded, failed]) {
      for (const args of [[], ["--json"]]) {
        const show = errand(["runs", "show", run.id, "--config", h.configFile, ...args]);
        expect(show.code).toBe(0);
        expect(show.stdout).toContain("src/x.ts");
        expect(show.stdout).not.toContain(KEY);
        // The log tail as the console shows it: paths inside the workspace are relative (--json keeps the run's attachment).
        const shown = args.length === 0 ? show.stdout : ((JSON.parse(show.stdout) as { log?: string }).log ?? "");
        expect(shown).not.toContain(workspace);
      }
    }
    expect(list.stdout).not.toContain(KEY);
    // The attachment keeps the workspace for the backend; what the engine said does not.
    const results = (JSON.parse(list.stdout) as Array<{ reason: string; result: unknown }>).map((r) =>
      JSON.stringify([r.reason, r.result]),
    );
    expect(results.join("\n")).not.toContain(workspace);

    await c.stop();
    expect(storeBytes(h.dir)).not.toContain(KEY);
  }, 60_000);
});
