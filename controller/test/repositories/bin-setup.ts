import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterEach } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { hostASignature } from "../helpers/sign.js";
import type { Host } from "./repo-setup.js";

export const HOOK_SECRET = "codehost-a-hook-secret-e2e";
export const BOT = "errand-bot";
const SCRIPT = resolve(import.meta.dirname, "../fixtures/repositories/commit.sh");

/** An installation of the `errand` bin: its config, and its secrets kept apart from what the test searches. */
export interface BinInstall {
  /** Logs, store and workspaces: every byte here is searched for the token. */
  dir: string;
  configFile: string;
  opsPort: number;
}

/**
 * Writes `errand.yaml` for a real `errand run`: code host A's webhook and
 * repository credential from `secrets.dir`, the committing fixture as the
 * engine (given the token in GH_TOKEN, as an agent that runs `gh` is), and
 * chat_b posting to `chatUrl`.
 */
export async function installBin(host: Host, token: string, chatUrl: string, engineEnv: string[]): Promise<BinInstall> {
  const dir = tempDir("errand-bin-e2e-");
  const secrets = tempDir("errand-bin-secrets-");
  const put = (name: string, value: string) => writeFileSync(join(secrets, name), value, { mode: 0o600 });
  put("repo-token", token);
  put("codehost-a-webhook", HOOK_SECRET);
  put("chat-b-url", chatUrl);
  mkdirSync(join(dir, "logs"));
  const opsPort = await freePort();
  const configFile = join(dir, "errand.yaml");
  writeFileSync(
    configFile,
    `webhook:
  host: 127.0.0.1
  port: 0
  secrets:
    codehost_a: { secret: codehost-a-webhook }
repositories:
  codehost_a:
    api_base_url: ${host.api.url}
    token_secret: repo-token
    bot_login: ${BOT}
  checkout:
    git_user_name: Errand Bot
    git_user_email: bot@example.invalid
engines:
  default: fixture
  fixture:
    kind: command
    command: ${JSON.stringify(["/usr/bin/env", ...engineEnv, SCRIPT])}
    repository_token_env: [GH_TOKEN, GITHUB_TOKEN]
    env:
      EXEC_LOG: ${join(dir, "exec.log")}
notifications:
  channels:
    - backend: chat_b
      config: { webhook_url_secret: chat-b-url }
store:
  path: ${join(dir, "errand.db")}
execution:
  local:
    workspace_dir: ${join(dir, "ws")}
    log_dir: ${join(dir, "logs")}
ops:
  host: 127.0.0.1
  port: ${opsPort}
  shutdown_grace_seconds: 2
secrets:
  dir: ${secrets}
`,
  );
  return { dir, configFile, opsPort };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  await new Promise((ok) => server.close(ok));
  return port;
}

/** chat_b's webhook endpoint on 127.0.0.1: keeps every message body posted to it. */
export interface ChatCapture {
  /** `http://127.0.0.1:PORT/api/webhooks/1/capture`, the URL the secret holds. */
  url: string;
  readonly bodies: string[];
}

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((ok) => s.close(ok));
  }
});

/** Starts the chat_b capture, closed after the test. */
export async function startChatCapture(): Promise<ChatCapture> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(204).end();
    });
  });
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/webhooks/1/capture`, bodies };
}

// biome-ignore lint/suspicious/noExplicitAny: the vendor's published examples are deep JSON that the tests edit in place
export type Example = Record<string, any>;
const groups = createRequire(import.meta.url)("@octokit/webhooks-examples/api.github.com/index.json") as Array<{
  name: string;
  examples: Example[];
}>;

/** A copy of the vendor's published example of `event` with `action`, for the test to adapt. */
export function example(event: string, action: string): Example {
  const found = groups.find((g) => g.name === event)?.examples.find((e) => e.action === action);
  if (found === undefined) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found);
}

let deliveries = 0;
/** POSTs a signed code host A event to the bin's webhook; returns the status and the JSON answer. */
export async function deliver(
  port: number,
  event: string,
  payload: Example,
): Promise<{ status: number; json: unknown }> {
  const body = JSON.stringify(payload);
  const response = await fetch(`http://127.0.0.1:${port}/webhooks/codehost-a`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": `e2e-${process.pid}-${++deliveries}`,
      "x-hub-signature-256": hostASignature(HOOK_SECRET, body),
    },
    body,
  });
  return { status: response.status, json: await response.json() };
}
