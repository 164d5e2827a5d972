import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";

// An operator's last step, after docs/author-guide.md's errand-server block
// (the controller and the published plugin installed by name): run the
// controller with the plugin in errand.yaml and see a signed ticket's run
// announced through the plugin, then stop it as a service manager would.

const ENGINE = `#!/usr/bin/env node
// A tiny command engine (docs/engines.md): one progress line, then a successful result.
import { readFileSync, writeFileSync } from "node:fs";
const ticket = JSON.parse(readFileSync(process.env.ERRAND_TICKET_FILE, "utf8"));
console.log(\`::progress:: working on \${ticket.id}\`);
writeFileSync(process.env.ERRAND_RESULT_FILE, JSON.stringify({ success: true, summary: "done", pull_request_url: \`\${ticket.repo_url}/pull/7\` }));
`;

/** The author's guide's errand.yaml (the channel by its errand.channel name, its token by secret name), runnable. */
const config = (channelId: string, chatApi: string) => `webhook:
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
    - backend: team_alerts
      config:
        channel_id: ${channelId}
        token_secret: team-alerts-bot-token
        api_base_url: ${chatApi}
store:
  path: .errand/errand.db
ops:
  host: 127.0.0.1
  port: 0
`;

/** The ticket of the demo (controller/src/demo/run-demo.ts); its agent is not published, the engine above stands in. */
const TICKET = JSON.stringify({
  id: "DEMO-E2E",
  title: "Fix the flaky login test",
  description: "The login test fails about one run in ten with a timeout waiting for the session cookie.",
  repo_url: "https://github.com/acme/shop",
  external_url: "https://tracker.example/acme/DEMO-E2E",
  labels: ["agent", "bug"],
});

async function waitFor<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Where the controller runs and where its chat service's posts land. */
export interface ControllerRun {
  /** A folder with @errand/controller and errand-channel-team-alerts installed. */
  server: string;
  env: Record<string, string>;
  /** The chat service's web API the plugin posts to, and the bodies it received. */
  chatApi: string;
  posted: readonly string[];
}

/**
 * Runs `npx --no-install errand run` in `server`, posts a signed ticket to
 * its webhook, waits for the plugin's start and completion posts, then sends
 * SIGTERM to the process group and expects a clean stop.
 */
export async function announceTicketThroughController({ server, env, chatApi, posted }: ControllerRun): Promise<void> {
  const channelId = "C0CONTROLLER";
  await writeFile(join(server, "errand-run.yaml"), config(channelId, chatApi));
  await writeFile(join(server, "engine.mjs"), ENGINE);
  await chmod(join(server, "engine.mjs"), 0o755);
  const intakeSecret = "e2e-intake-secret";
  const controller = spawn("bash", ["-c", "npx --no-install errand run --config errand-run.yaml"], {
    cwd: server,
    env: { ...env, ERRAND_SECRET_INTAKE_SECRET: intakeSecret, ERRAND_SECRET_TEAM_ALERTS_BOT_TOKEN: "xoxb-e2e" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let logs = "";
  controller.stdout.on("data", (c: Buffer) => (logs += c.toString()));
  controller.stderr.on("data", (c: Buffer) => (logs += c.toString()));
  // "close": every process holding its output (errand under npx) has exited.
  const exited = new Promise<void>((resolve) => controller.once("close", () => resolve()));
  const ours = () => posted.filter((p) => p.includes(channelId));
  try {
    const port = await waitFor(
      "the controller's webhook port",
      60_000,
      () => /"webhook server listening".*?"port":(\d+)/.exec(logs)?.[1],
    );
    await waitFor("the controller to start", 60_000, () => (logs.includes('"controller started"') ? true : undefined));
    const signature = `sha256=${createHmac("sha256", intakeSecret).update(TICKET).digest("hex")}`;
    const response = await fetch(`http://127.0.0.1:${port}/webhooks/generic`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-webhook-signature": signature },
      body: TICKET,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const completed = await waitFor("the plugin's completion post", 60_000, () =>
      ours().find((m) => m.includes("pull/7")),
    );
    expect(completed).toContain("DEMO-E2E");
    expect(ours().find((m) => m.includes("started"))).toMatch(/DEMO-E2E.*tiny/);
  } finally {
    // As a service manager stops it: SIGTERM to the process group (npx, npm and errand alike).
    if (controller.exitCode === null) process.kill(-controller.pid!, "SIGTERM");
  }
  await exited;
  expect(logs, "the controller shuts down cleanly").toContain('"controller stopped"');
}
