import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { postJson, send } from "./helpers/http.js";
import { hostASignature } from "./helpers/sign.js";

// The linked bin, as a user gets it after `npm install` (build first: npx tsc -b controller).
const BIN = resolve(import.meta.dirname, "../../node_modules/.bin/errand");
const dir = mkdtempSync(join(tmpdir(), "errand-cli-"));
const SECRET = "cli-test-secret-value";
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

interface Running {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Running & { ready: Promise<number> } {
  const child = spawn(BIN, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (d) => (out += d));
  const ready = new Promise<number>((ok, fail) => {
    child.stderr?.on("data", (d) => {
      err += d;
      const m = /"msg":"webhook server listening".*?"port":(\d+)/.exec(err);
      if (m) ok(Number(m[1]));
    });
    child.on("exit", () => fail(new Error(`exited early: ${err}`)));
  });
  // Runs that are meant to fail never become ready; only awaited readiness may reject a test.
  ready.catch(() => {});
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, port: 0, stdout: () => out, stderr: () => err, exited, ready };
}

function config(text: string): string {
  const path = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  return path;
}

const issue = (n: number) =>
  JSON.stringify({ action: "opened", issue: { number: n, title: `Issue ${n}`, body: "Body", html_url: `https://hosta.example/o/r/issues/${n}`, labels: [{ name: "agent" }] }, repository: { html_url: "https://hosta.example/o/r" } });

describe("errand webhook serve", () => {
  it("prints one JSON line per ticket on stdout with the spec's field names, logs on stderr", async () => {
    const file = config(`webhook:\n  enabled: true\n  port: 1\n  host: 127.0.0.1\n  secrets:\n    github: { env: GH_SECRET }\n`);
    const p = run(["webhook", "serve", "--config", file, "--port", "0"], { GH_SECRET: SECRET });
    const port = await p.ready;
    const base = `http://127.0.0.1:${port}`;
    for (const n of [1, 2]) {
      const body = issue(n);
      const res = await postJson(base, "/webhooks/github", body, { "x-github-event": "issues", "x-hub-signature-256": hostASignature(SECRET, body) });
      expect(res.json).toEqual({ status: "accepted", tickets: [String(n)] });
    }
    await postJson(base, "/webhooks/github", "{}", { "x-github-event": "issues", "x-hub-signature-256": "sha256=00" });
    expect((await send(base, "/healthz", { method: "GET" })).text).toBe("ok");
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    const lines = p.stdout().trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l))).toEqual([1, 2].map((n) => ({
      source: "codehost_a",
      ticket: {
        id: String(n), title: `Issue ${n}`, description: "Body", ticket_type: "issue", repo_url: "https://hosta.example/o/r",
        external_url: `https://hosta.example/o/r/issues/${n}`, labels: ["agent"], source: "codehost_a",
      },
    })));
    const logs = p.stderr().trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(logs.some((l) => l.outcome === "unauthenticated")).toBe(true);
    expect(logs.some((l) => l.msg === "shutting down" && l.signal === "SIGTERM")).toBe(true);
    expect(p.stderr()).not.toContain(SECRET);
  });

  it("adds raw_event with --raw-event", async () => {
    const file = config(`webhook:\n  host: 127.0.0.1\n  generic:\n    auth_mode: bearer\n    secret: ${SECRET}\n`);
    const p = run(["webhook", "serve", "-c", file, "-p", "0", "--raw-event"]);
    const base = `http://127.0.0.1:${await p.ready}`;
    await postJson(base, "/webhooks/generic", { id: 5, extra: { deep: true } }, { authorization: `Bearer ${SECRET}` });
    p.child.kill("SIGTERM");
    await p.exited;
    expect(JSON.parse(p.stdout()).ticket.raw_event).toEqual({ id: 5, extra: { deep: true } });
  });

  it("exits 1 naming the key and the fix for a bad configuration, with nothing on stdout", async () => {
    const file = config("webhook:\n  generic:\n    auth_mode: hmac\n");
    const p = run(["webhook", "serve", "--config", file]);
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain("webhook.generic.secret: is required when auth_mode is hmac");
    expect(p.stdout()).toBe("");
  });

  it("refuses a configuration with webhook.enabled: false", async () => {
    const p = run(["webhook", "serve", "--config", config("webhook:\n  enabled: false\n")]);
    expect(await p.exited).toBe(1);
    expect(p.stderr()).toContain("set webhook.enabled: true");
  });

  it("rejects a bad --port and a missing --config as usage errors", async () => {
    const a = run(["webhook", "serve", "--config", "x.yaml", "--port", "http"]);
    expect(await a.exited).not.toBe(0);
    expect(a.stderr()).toContain("give a port from 0 to 65535");
    const b = run(["webhook", "serve"]);
    expect(await b.exited).not.toBe(0);
    expect(b.stderr()).toContain("--config");
  });
});
