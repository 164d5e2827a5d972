import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { readAll, runCli, writeConfig } from "./helpers/cli.js";
import { type HttpResult, postJson, send } from "./helpers/http.js";
import { hostASignature } from "./helpers/sign.js";

const SECRET = "cli-test-secret-value";

const story = (id: number, name = `Story ${id}`) => ({
  actions: [{ id, entity_type: "story", action: "update", name }],
});
/** The answer, or the connection error's code once the server stopped listening. */
const answerOrRefusal = (request: Promise<HttpResult>) =>
  request.catch((e: NodeJS.ErrnoException) => e.code ?? e.message);

const issue = (n: number) =>
  JSON.stringify({
    action: "opened",
    issue: {
      number: n,
      title: `Issue ${n}`,
      body: "Body",
      html_url: `https://hosta.example/o/r/issues/${n}`,
      labels: [{ name: "agent" }],
    },
    repository: { html_url: "https://hosta.example/o/r" },
  });

describe("errand webhook serve", () => {
  it("prints one JSON line per ticket on stdout with the spec's field names, logs on stderr", async () => {
    const file = writeConfig(
      `webhook:\n  enabled: true\n  port: 1\n  host: 127.0.0.1\n  secrets:\n    github: { env: GH_SECRET }\n`,
    );
    const p = runCli(["webhook", "serve", "--config", file, "--port", "0"], { env: { GH_SECRET: SECRET } });
    const port = await p.ready;
    const base = `http://127.0.0.1:${port}`;
    for (const n of [1, 2]) {
      const body = issue(n);
      const res = await postJson(base, "/webhooks/github", body, {
        "x-github-event": "issues",
        "x-hub-signature-256": hostASignature(SECRET, body),
      });
      expect(res.json).toEqual({ status: "accepted", tickets: [String(n)] });
    }
    await postJson(base, "/webhooks/github", "{}", { "x-github-event": "issues", "x-hub-signature-256": "sha256=00" });
    expect((await send(base, "/healthz", { method: "GET" })).text).toBe("ok");
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    const lines = p.stdout().trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l))).toEqual(
      [1, 2].map((n) => ({
        source: "codehost_a",
        ticket: {
          id: String(n),
          title: `Issue ${n}`,
          description: "Body",
          ticket_type: "issue",
          repo_url: "https://hosta.example/o/r",
          external_url: `https://hosta.example/o/r/issues/${n}`,
          labels: ["agent"],
          source: "codehost_a",
        },
      })),
    );
    const logs = p
      .stderr()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(logs.some((l) => l.outcome === "unauthenticated")).toBe(true);
    expect(logs.some((l) => l["@message"] === "shutting down" && l.signal === "SIGTERM")).toBe(true);
    expect(p.stderr()).not.toContain(SECRET);
  });

  it("adds raw_event with --raw-event", async () => {
    const file = writeConfig(`webhook:\n  host: 127.0.0.1\n  generic:\n    auth_mode: bearer\n    secret: ${SECRET}\n`);
    const p = runCli(["webhook", "serve", "-c", file, "-p", "0", "--raw-event"]);
    const base = `http://127.0.0.1:${await p.ready}`;
    await postJson(base, "/webhooks/generic", { id: 5, extra: { deep: true } }, { authorization: `Bearer ${SECRET}` });
    p.child.kill("SIGTERM");
    await p.exited;
    expect(JSON.parse(p.stdout()).ticket.raw_event).toEqual({ id: 5, extra: { deep: true } });
  });

  it("exits 1 naming the key and the fix for a bad configuration, with nothing on stdout", async () => {
    const file = writeConfig("webhook:\n  generic:\n    auth_mode: hmac\n");
    const p = runCli(["webhook", "serve", "--config", file]);
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain("webhook.generic.secret (line 2): is required when auth_mode is hmac");
    expect(p.stdout()).toBe("");
  });

  it("refuses a configuration with webhook.enabled: false", async () => {
    const p = runCli(["webhook", "serve", "--config", writeConfig("webhook:\n  enabled: false\n")]);
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain("set webhook.enabled: true");
  });

  it("rejects a bad --port and a missing --config as usage errors", async () => {
    const a = runCli(["webhook", "serve", "--config", "x.yaml", "--port", "http"]);
    expect(await a.exited).not.toBe(0);
    expect(a.stderr()).toContain("give a port from 0 to 65535");
    const b = runCli(["webhook", "serve"]);
    expect(await b.exited).not.toBe(0);
    expect(b.stderr()).toContain("--config");
  });

  it("answers 503 once stdout's reader went away, logs why once, stops and exits 141 without crashing", async () => {
    const file = writeConfig(`webhook:\n  host: 127.0.0.1\n  secrets:\n    github: { env: GH_SECRET }\n`);
    const p = runCli(["webhook", "serve", "--config", file, "--port", "0"], {
      env: { GH_SECRET: SECRET },
      readStdout: false,
    });
    const base = `http://127.0.0.1:${await p.ready}`;
    expect((await postJson(base, "/webhooks/tracker", story(1))).status).toBe(200);
    const [first] = await once(p.child.stdout, "data");
    expect(JSON.parse(String(first)).ticket.id).toBe("1");
    // As when `| head -n 1` exits: the child's next write to stdout fails with EPIPE.
    p.child.stdout.destroy();
    await once(p.child.stdout, "close");

    const body = issue(2);
    const after = await Promise.all(
      [
        postJson(base, "/webhooks/github", body, {
          "x-github-event": "issues",
          "x-hub-signature-256": hostASignature(SECRET, body),
        }),
        postJson(base, "/webhooks/tracker", story(3)),
        postJson(base, "/webhooks/tracker", story(4)),
      ].map(answerOrRefusal),
    );
    // The first ticket to hit the broken pipe is answered 503; the others too, or refused once the server stopped.
    expect(after.some((r) => typeof r === "object")).toBe(true);
    for (const r of after) {
      if (typeof r === "object")
        expect([r.status, r.json?.error?.code, r.headers["retry-after"]]).toEqual([503, "ERR_UNAVAILABLE", "5"]);
      else expect(["ECONNREFUSED", "ECONNRESET"]).toContain(r);
    }

    // 141 is the documented code (docs/webhooks.md): what a shell reports for a producer killed by SIGPIPE.
    expect(await p.exited).toBe(141);
    expect(p.stderr()).not.toMatch(/Unhandled 'error' event|\n\s+at /);
    const logs = p
      .stderr()
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const stopping = logs.filter(
      (l) => l["@message"] === "stdout was closed by its reader (EPIPE); stopping: tickets are no longer accepted",
    );
    expect(stopping).toHaveLength(1);
    expect(stopping[0]["@level"]).toBe("error");
    expect(logs.filter((l) => l.outcome === "accepted").map((l) => l.tickets)).toEqual([["1"]]);
    expect(logs.at(-1)["@message"]).toBe("webhook server stopped");
  });

  it("on SIGTERM answers the request in flight, refuses new connections and exits 0 promptly", async () => {
    const file = writeConfig(`webhook:\n  host: 127.0.0.1\n  max_body_bytes: 8388608\n`);
    const p = runCli(["webhook", "serve", "--config", file, "--port", "0"], { readStdout: false });
    const base = `http://127.0.0.1:${await p.ready}`;
    const exitedAt = p.exited.then((code) => ({ code, at: Date.now() }));
    // Far more than the stdout pipe (or socket pair) and our read buffer hold: with stdout unread, the
    // ticket's write, and so its request, stays in flight until the test reads.
    const name = "x".repeat(4 * 1024 * 1024);
    const inFlight = postJson(base, "/webhooks/tracker", story(7, name));
    await once(p.child.stdout, "readable");

    p.child.kill("SIGTERM");
    await p.waitForStderr(/"@message":"shutting down"/);
    expect(await answerOrRefusal(send(base, "/healthz", { method: "GET" }))).toBe("ECONNREFUSED");

    const stdout = readAll(p.child.stdout);
    const res = await inFlight;
    const answeredAt = Date.now();
    expect([res.status, res.json, res.headers.connection]).toEqual([
      200,
      { status: "accepted", tickets: ["7"] },
      "close",
    ]);
    const exit = await exitedAt;
    expect(exit.code).toBe(0);
    // Well under webhook.timeouts.handler_ms (8 s): no timer holds the process after the last request.
    expect(exit.at - answeredAt).toBeLessThan(3000);
    const tickets = (await stdout)
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l).ticket);
    expect(tickets).toMatchObject([{ id: "7", title: name }]);
  });
});
