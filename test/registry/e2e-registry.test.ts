import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUserSession, type UserSession } from "./user-session.js";

// The whole path through a registry, as people type it. A maintainer
// publishes every Errand package (npm publish); an author scaffolds with
// `npx create-channel`, builds, tests, checks and publishes the plugin; an
// operator installs the controller and the plugin by name in an empty folder,
// adds the plugin to errand.yaml as the author's guide says, runs the
// controller, and a signed ticket's run is announced through the plugin.
// It runs in every `npm test` (CI included); ERRAND_E2E_REGISTRY=0 leaves it
// out, for a machine that cannot reach registry.npmjs.org. The controller's
// better-sqlite3 comes as a prebuilt binary (test/registry/prebuilds.mjs),
// not compiled for minutes.
const enabled = process.env.ERRAND_E2E_REGISTRY !== "0";

let root: string;
let session: UserSession;
let receiver: Server;
const received: string[] = [];

beforeAll(async () => {
  if (!enabled) return;
  root = await mkdtemp(join(tmpdir(), "errand-e2e-registry-"));
  session = await startUserSession(root);
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push(body);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
}, 300_000);
afterAll(async () => {
  if (!enabled) return;
  receiver?.close();
  await session?.close();
  await rm(root, { recursive: true, force: true });
}, 120_000);

const ENGINE = `#!/usr/bin/env node
// A tiny command engine (docs/engines.md): one progress line, then a successful result.
import { readFileSync, writeFileSync } from "node:fs";
const ticket = JSON.parse(readFileSync(process.env.ERRAND_TICKET_FILE, "utf8"));
console.log(\`::progress:: working on \${ticket.id}\`);
writeFileSync(process.env.ERRAND_RESULT_FILE, JSON.stringify({ success: true, summary: "done", pull_request_url: \`\${ticket.repo_url}/pull/7\` }));
`;

// The author's guide, section 5: the channel by its errand.channel name, its secret by name.
const CONFIG = `webhook:
  host: 127.0.0.1
  port: 0
  generic:
    auth_mode: hmac
    secret: { secret: intake-secret }
engines:
  default: tiny
  tiny:
    kind: command
    command: [./engine.mjs]
notifications:
  channels:
    - backend: my-channel
      config:
        webhook_url_secret: team-hook
store:
  path: .errand/errand.db
ops:
  host: 127.0.0.1
  port: 0
`;

async function waitFor<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!enabled)("Errand through a registry, end to end", () => {
  it("publish everything, scaffold and publish a plugin, install it by name beside the controller, see its notification arrive", async () => {
    const { sh } = session;
    const author = join(root, "author");
    await mkdir(author);
    const created = await sh("npx create-channel my-channel --yes", author);
    expect(created.exitCode, created.all).toBe(0);
    const plugin = join(author, "my-channel");
    for (const command of [
      "npm run build",
      "npm test",
      "npx --no-install channel test",
      "npx --no-install channel lint",
      "npm publish",
    ]) {
      const step = await sh(command, plugin);
      expect(step.exitCode, `${command}\n${step.all}`).toBe(0);
    }
    expect(session.registry.published().map((p) => p.name)).toContain("errand-channel-my-channel");

    const server = join(root, "server");
    await mkdir(server);
    const install = await sh("npm init -y && npm install @errand/controller errand-channel-my-channel", server, {
      timeout: 900_000,
    });
    expect(install.exitCode, install.all).toBe(0);
    await writeFile(join(server, "errand.yaml"), CONFIG);
    await writeFile(join(server, "engine.mjs"), ENGINE);
    await chmod(join(server, "engine.mjs"), 0o755);

    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const intakeSecret = "e2e-intake-secret";
    const controller = spawn("bash", ["-c", "npx --no-install errand run --config errand.yaml"], {
      cwd: server,
      env: { ...session.env, ERRAND_SECRET_INTAKE_SECRET: intakeSecret, ERRAND_SECRET_TEAM_HOOK: hook },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let logs = "";
    controller.stdout.on("data", (c: Buffer) => (logs += c.toString()));
    controller.stderr.on("data", (c: Buffer) => (logs += c.toString()));
    // "close": every process holding its output (errand under npx) has exited.
    const exited = new Promise<void>((resolve) => controller.once("close", () => resolve()));
    try {
      const port = await waitFor(
        "the controller's webhook port",
        60_000,
        () => /"webhook server listening".*?"port":(\d+)/.exec(logs)?.[1],
      );
      await waitFor("the controller to start", 60_000, () =>
        logs.includes('"controller started"') ? true : undefined,
      );
      // The ticket of the demo (controller/src/demo/run-demo.ts); its agent is not published, the engine above stands in.
      const body = JSON.stringify({
        id: "DEMO-E2E",
        title: "Fix the flaky login test",
        description: "The login test fails about one run in ten with a timeout waiting for the session cookie.",
        repo_url: "https://github.com/acme/shop",
        external_url: "https://tracker.example/acme/DEMO-E2E",
        labels: ["agent", "bug"],
      });
      const signature = `sha256=${createHmac("sha256", intakeSecret).update(body).digest("hex")}`;
      const response = await fetch(`http://127.0.0.1:${port}/webhooks/generic`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-webhook-signature": signature },
        body,
      });
      expect(response.status, await response.clone().text()).toBe(200);
      const completed = await waitFor("the plugin's completion notification", 60_000, () =>
        received.find((m) => m.includes("pull/7")),
      );
      expect(completed).toContain("DEMO-E2E");
      expect(received.find((m) => m.includes("started"))).toMatch(/DEMO-E2E.*tiny/);
    } finally {
      // As a service manager stops it: SIGTERM to the process group (npx, npm and errand alike).
      if (controller.exitCode === null) process.kill(-controller.pid!, "SIGTERM");
    }
    await exited;
    expect(logs, "the controller shuts down cleanly").toContain('"controller stopped"');
  }, 1_500_000);
});
