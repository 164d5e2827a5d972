import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterEach } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { isTerminal, type TaskRun } from "../../src/runs/task-run.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { eventually } from "../controller/harness.js";
import { type CliRun, runCli } from "../helpers/cli.js";
import { HOOK_SECRET } from "./codehost-a-events.js";
import type { Host } from "./repo-setup.js";

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
 * repository credential (`token`, or the host's App) from `secrets.dir`, the committing fixture as the
 * engine (given the token in GH_TOKEN, as an agent that runs `gh` is), and
 * chat_b posting to `chatUrl`.
 */
export async function installBin(host: Host, token: string, chatUrl: string, engineEnv: string[]): Promise<BinInstall> {
  const dir = tempDir("errand-bin-e2e-");
  const secrets = tempDir("errand-bin-secrets-");
  const put = (name: string, value: string) => writeFileSync(join(secrets, name), value, { mode: 0o600 });
  put("repo-token", token);
  if (host.app !== undefined) put("app-key", host.app.privateKey);
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
${credentialYaml(host)}
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

/** The App of the host when it has one (its tokens then are the only ones accepted), else the token secret. */
function credentialYaml(host: Host): string {
  if (host.app === undefined) return "    token_secret: repo-token";
  const { appId, installationId } = host.app;
  return `    app: { app_id: ${appId}, private_key_secret: app-key, installation_id: ${installationId} }`;
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

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

/** `errand run` on the installation, and a second connection to its store to watch the runs. */
export async function startBin(bin: BinInstall): Promise<{ cli: CliRun; port: number; store: Store }> {
  const cli = runCli(["run", "--config", bin.configFile]);
  const port = await cli.ready;
  const store = await createSqliteStore({ path: join(bin.dir, "errand.db") });
  stores.push(store);
  return { cli, port, store };
}

/** The runs of issue `n`, oldest first, once `count` exist and all ended. */
export function ended(store: Store, n: number, count: number): Promise<TaskRun[]> {
  return eventually(
    `${count} ended runs of issue #${n}`,
    async () => {
      const runs = await store.listRuns({ ticket: { source: "codehost_a", id: String(n) }, limit: 100 });
      if (runs.length !== count || !runs.every((r) => isTerminal(r.state))) return undefined;
      return runs.sort((a, b) => a.createdAt - b.createdAt);
    },
    60_000,
  );
}
