import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Ticket } from "@errand/channel-sdk";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { quiet } from "../../src/cli/commands/with-store.js";
import type { PollAdapter } from "../../src/sources/polling/poll-adapter.js";
import { createPollingSource } from "../../src/sources/polling/polling-source.js";
import type { Store } from "../../src/store/store.js";
import { startConsole } from "./helpers/in-process-console.js";

const TOKEN = "console-test-token-4f9a2c";

function ticket(id: string, extra: Partial<Ticket> = {}): Ticket {
  return {
    id,
    title: `Ticket ${id}`,
    description: "Fix it.",
    ticketType: "bug_fix",
    repoUrl: "https://codehost.example/acme/app",
    externalUrl: `https://tracker.example/${id}`,
    labels: [],
    source: "generic",
    ...extra,
  };
}

async function queued(store: Store, id: string, extra: Partial<Ticket> = {}) {
  const [outcome] = await store.acceptTickets([ticket(id, extra)], "default");
  if (outcome?.kind !== "queued") throw new Error(`ticket ${id} was not new`);
  return outcome.runId;
}

/** Logs in through the form; returns the session cookie and the CSRF token of the run's page. */
async function login(url: string, runId: string): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(`${url}/console/login`, {
    method: "POST",
    body: new URLSearchParams({ token: TOKEN, next: `/console/runs/${runId}` }),
    redirect: "manual",
  });
  expect(response.status).toBe(303);
  const setCookie = response.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Strict/);
  const cookie = setCookie.split(";")[0] as string;
  const page = await (await fetch(`${url}/console/runs/${runId}`, { headers: { cookie } })).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  if (csrf === undefined) throw new Error("no CSRF field on the run's page");
  return { cookie, csrf };
}

const post = (url: string, headers: Record<string, string>, body: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers, body: new URLSearchParams(body), redirect: "manual" });

describe("console over HTTP", () => {
  it("sends its security headers and serves its own assets only", async () => {
    const c = await startConsole();
    const response = await fetch(`${c.url}/console/runs`);
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    const page = await response.text();
    expect(page).not.toMatch(/<script>|<style>| style=|https?:\/\/(?!codehost|tracker)/);
    expect((await fetch(`${c.url}/console/assets/console.js`)).headers.get("content-type")).toMatch(/javascript/);
    expect((await fetch(`${c.url}/console/nothing`)).status).toBe(404);
  });

  it("read_access token: reading needs the token, from loopback too", async () => {
    const c = await startConsole({ readAccess: "token", tokenSecret: "t" }, { token: TOKEN });
    const anonymous = await fetch(`${c.url}/console/runs`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain('name="token"');
    expect((await fetch(`${c.url}/console/runs`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${c.url}/console/runs`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const untokened = await startConsole({ readAccess: "token" });
    const refused = await fetch(`${untokened.url}/console/runs`);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain("set console.token_secret to the name of a secret holding a token");
  });

  it("a console without a token is read-only and says how to set one", async () => {
    const c = await startConsole();
    const runId = await queued(c.store, "ro");
    const response = await post(`${c.url}/console/runs/${runId}/cancel`, { authorization: "Bearer anything" });
    expect(response.status).toBe(403);
    const text = await response.text();
    expect(text).toContain("console_read_only");
    expect(text).toContain("console.token_secret");
    expect((await c.store.getRun(runId))?.state).toBe("Queued");
  });

  it("an action with the session cookie needs the page's CSRF token; with it, the run is cancelled and the timeline names who and where", async () => {
    const c = await startConsole({ tokenSecret: "t" }, { token: TOKEN });
    const runId = await queued(c.store, "csrf");
    const { cookie, csrf } = await login(c.url, runId);
    const forged = await post(`${c.url}/console/runs/${runId}/cancel`, { cookie }, { csrf: "guess" });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("console_csrf_mismatch");
    expect((await c.store.getRun(runId))?.state).toBe("Queued");

    const real = await post(`${c.url}/console/runs/${runId}/cancel`, { cookie }, { csrf });
    expect(real.status).toBe(303);
    expect(real.headers.get("location")).toBe(`/console/runs/${runId}?done=cancelled`);
    expect(await (await fetch(`${c.url}${real.headers.get("location")}`, { headers: { cookie } })).text()).toContain(
      '<div class="notice" role="status">Cancelled.</div>',
    );
    const made = await (
      await fetch(`${c.url}/console/runs/${runId}?done=${encodeURIComponent("Your token expired")}`)
    ).text();
    expect(made).not.toContain("Your token expired");
    expect((await c.store.getRun(runId))?.state).toBe("Cancelled");
    const last = (await c.store.transitions(runId)).at(-1);
    expect(last?.reason).toBe("cancelled from the console by operator (127.0.0.1)");
    expect(last?.actor).toEqual({ kind: "console", name: "operator", from: "127.0.0.1" });
  });

  it("a wrong token does not log in, and logging out ends the session", async () => {
    const c = await startConsole({ tokenSecret: "t" }, { token: TOKEN });
    const wrong = await post(`${c.url}/console/login`, {}, { token: "nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const runId = await queued(c.store, "out");
    const { cookie, csrf } = await login(c.url, runId);
    expect((await post(`${c.url}/console/logout`, { cookie }, { csrf })).status).toBe(303);
    const after = await post(`${c.url}/console/runs/${runId}/cancel`, { cookie }, { csrf });
    expect(after.status).toBe(401);
  });

  it("retry makes a new attempt and answers with its page; a retry of a live run is refused with the reason", async () => {
    const c = await startConsole({ tokenSecret: "t", tokenLabel: "alice" }, { token: TOKEN });
    const runId = await queued(c.store, "again");
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const early = await post(`${c.url}/console/runs/${runId}/retry`, bearer);
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("only a finished run can be retried");
    await c.store.requestCancel(runId, "stop");
    const retried = await post(`${c.url}/console/runs/${runId}/retry`, bearer);
    expect(retried.status).toBe(303);
    const [latest] = await c.store.listRuns({ ticket: { source: "generic", id: "again" } });
    expect(latest?.attempt).toBe(2);
    expect(retried.headers.get("location")).toContain(`/console/runs/${latest?.id}`);
    expect((await c.store.transitions(latest?.id as string))[0]).toMatchObject({
      reason: "retried from the console by alice (127.0.0.1)",
      actor: { kind: "console", name: "alice", from: "127.0.0.1" },
    });
  });

  it("approve and reject are refused for a run that does not wait for an approval", async () => {
    const decided: string[] = [];
    const approvals = {
      decide: async (runId: string) => {
        decided.push(runId);
        return { kind: "refused" as const, code: "not_awaiting" as const, message: "not called" };
      },
    };
    const c = await startConsole({ tokenSecret: "t" }, { token: TOKEN, approvals });
    const runId = await queued(c.store, "ask");
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const page = await (await fetch(`${c.url}/console/runs/${runId}`, { headers: bearer })).text();
    expect(page).not.toContain(`${runId}/approve`);
    expect(page).toContain(`${runId}/cancel`);
    const response = await post(`${c.url}/console/runs/${runId}/approve`, bearer);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("not waiting for an approval");
    expect(decided).toEqual([]);
  });

  it("pages through the runs with a cursor and filters by state, source and repository", async () => {
    const c = await startConsole();
    for (let i = 0; i < 120; i++) {
      await queued(c.store, `p${i}`, i % 4 === 0 ? { repoUrl: "https://codehost.example/acme/other" } : {});
    }
    const ids = (page: string) => [...page.matchAll(/<td class="title">Ticket (p\d+)<\/td>/g)].map((m) => m[1]);
    const first = await (await fetch(`${c.url}/console/runs`)).text();
    expect(ids(first)).toHaveLength(50);
    expect(ids(first)[0]).toBe("p119");
    const older = /href="([^"]+)" rel="next"/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    const second = await (await fetch(`${c.url}${older}`)).text();
    expect(ids(second)[0]).toBe("p69");
    const third = await (
      await fetch(`${c.url}${/href="([^"]+)" rel="next"/.exec(second)?.[1]?.replaceAll("&amp;", "&")}`)
    ).text();
    expect(ids(third)).toHaveLength(20);
    expect(third).not.toContain('rel="next"');
    const repo = await (
      await fetch(`${c.url}/console/runs?repo=${encodeURIComponent("https://codehost.example/acme/other")}`)
    ).text();
    expect(ids(repo)).toHaveLength(30);
    expect(ids(await (await fetch(`${c.url}/console/runs?source=elsewhere`)).text())).toEqual([]);
    expect(ids(await (await fetch(`${c.url}/console/runs?state=Succeeded`)).text())).toEqual([]);
    expect(ids(await (await fetch(`${c.url}/console/runs?state=Bogus&cursor=junk`)).text())).toHaveLength(50);
  });

  it("shows each channel's health, last error, restarts and failed calls", async () => {
    const c = await startConsole(
      {},
      {
        notifications: {
          doc: {
            channels: [
              {
                backend: "chat_a",
                config: {
                  channel_id: "C0000000001",
                  token_secret: "chat-token",
                  api_base_url: "http://127.0.0.1:9/api",
                },
              },
            ],
          },
          secrets: { "chat-token": "xoxb-console-test" },
        },
      },
    );
    const [result] = (await c.notifier?.check()) ?? [];
    expect(result?.ok).toBe(false);
    const page = await (await fetch(`${c.url}/console/channels`)).text();
    const row = /<tr>\s*<td>chat_a<\/td>[\s\S]*?<\/tr>/.exec(page)?.[0] ?? "";
    expect(row).toContain(`${result?.error?.code}: `);
    expect(row).toMatch(/<td>0<\/td>\s*<td>1<\/td>\s*<\/tr>$/);
    expect(page).not.toContain("xoxb-console-test");
  });

  it("shows the poller's last and next poll, its failures and the vendor's rate limit", async () => {
    const limitedUntil = Date.UTC(2031, 0, 2, 3, 4, 5);
    const adapter: PollAdapter = {
      backend: "tracker_a",
      prepare: async () => {},
      poll: async () => {
        throw new Error("tracker A answered 429: slow down");
      },
      pickedUp: async () => {},
      finished: async () => {},
      limitedUntil: () => limitedUntil,
    };
    const poller = createPollingSource({ adapter, intervalMs: 3_600_000, logger: quiet, registry: new Registry() });
    const sink = { accept: async () => [], acceptDelivery: async () => ({ delivery: "duplicate" as const }) };
    await poller.start(sink);
    try {
      await poller.pollNow();
      const c = await startConsole({}, { poller });
      const page = await (await fetch(`${c.url}/console/sources`)).text();
      expect(page).toContain("<h2>Polling tracker_a</h2>");
      expect(page).toContain("<dt>Interval</dt><dd>1 h 0 min</dd>");
      expect(page).toMatch(/<dt>Failures in a row<\/dt><dd>\d: tracker A answered 429: slow down<\/dd>/);
      expect(page).toContain("holding requests until 2031-01-02 03:04:05 UTC");
      expect(page).toMatch(/<dt>Next poll<\/dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC<\/dd>/);
    } finally {
      await poller.stop();
    }
  });

  it("shows a run's log as readable steps with secrets masked", async () => {
    const secret = "sk-live-ABCDEF0123456789";
    const c = await startConsole({}, { secrets: [secret] });
    const runId = await queued(c.store, "log");
    mkdirSync(c.logDir, { recursive: true });
    const log = join(c.logDir, `${runId}.log`);
    writeFileSync(
      log,
      [
        `[errand] starting`,
        `[stdout] {"type":"assistant","message":{"content":[{"type":"text","text":"using key ${secret}"}]}}`,
        `[stderr] warning: ${secret} leaked`,
      ].join("\n"),
    );
    await c.store.transition({ runId, from: ["Queued"], to: "Running", reason: "started", patch: { logRef: log } });
    const page = await (await fetch(`${c.url}/console/runs/${runId}`)).text();
    expect(page).toContain('<span class="label">assistant</span>using key');
    expect(page).not.toContain(secret);
    expect(page).not.toContain('{"type":"assistant"');
    expect(page).toContain(`data-stream="/console/runs/${runId}/log"`);
  });

  it("masks a secret that a ticket's text holds, as written and as the page escapes it", async () => {
    const secret = "tok<en>&ABCDEF0123456789";
    const c = await startConsole({}, { secrets: [secret] });
    const runId = await queued(c.store, "leak", { title: `leaked ${secret}`, description: `body ${secret} end` });
    const page = await (await fetch(`${c.url}/console/runs/${runId}`)).text();
    expect(page).toContain("<h1>leaked [redacted]</h1>");
    expect(page).toContain("body [redacted] end");
    expect(page).not.toContain("ABCDEF0123456789");
    const list = await (await fetch(`${c.url}/console/runs`)).text();
    expect(list).toContain("leaked [redacted]");
  });
});
