// A throw-away installation of the controller for the bench: a config file,
// its store, workspaces and logs in a fresh temporary folder, on free ports.
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchTempDir } from "./bench-dir.mjs";

export const WEBHOOK_SECRET = "bench-webhook-signing-secret";
export const CHAT_TOKEN = "xoxb-bench-chat-token-0000";
/** The secrets the config names, as `errand run` reads them from its environment. */
export const SECRET_ENV = { ERRAND_SECRET_BENCH_WEBHOOK: WEBHOOK_SECRET, ERRAND_SECRET_BENCH_CHAT_TOKEN: CHAT_TOKEN };
export const ENGINE = fileURLToPath(new URL("../engine/instant.sh", import.meta.url));

/** A port nothing listens on now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Writes errand.yaml for `concurrency` runs at a time with the instant
 * engine; `channels` adds the two notification channels (a built-in chat_a
 * posting to `targets.chatApiUrl`, the example webhook_post plugin process
 * posting to `targets.hookUrl`).
 */
export async function createInstallation({ concurrency, targets }) {
  const dir = benchTempDir("errand-bench-controller-");
  const webhookPort = await freePort();
  const opsPort = await freePort();
  const channels = targets
    ? `notifications:
  channels:
    - backend: chat_a
      config:
        channel_id: C0BENCH0001
        token_secret: bench-chat-token
        api_base_url: ${targets.chatApiUrl}
        min_interval_ms: 0
    - backend: webhook_post
      config:
        url: ${targets.hookUrl}
`
    : "";
  const configFile = join(dir, "errand.yaml");
  writeFileSync(
    configFile,
    `webhook:
  host: 127.0.0.1
  port: ${webhookPort}
  generic:
    auth_mode: hmac
    secret: { secret: bench-webhook }
engines:
  default: instant
  instant:
    kind: command
    command: [${JSON.stringify(ENGINE)}]
    prompt_via: file
guardrails:
  max_concurrent_jobs: ${concurrency}
  allowed_repos: ["github.com/acme/*"]
${channels}store:
  path: ${join(dir, "errand.db")}
execution:
  local:
    workspace_dir: ${join(dir, "workspaces")}
    log_dir: ${join(dir, "logs")}
ops:
  host: 127.0.0.1
  port: ${opsPort}
  log_level: info
`,
  );
  return {
    dir,
    configFile,
    webhookPort,
    opsPort,
    storePath: join(dir, "errand.db"),
    logFile: join(dir, "controller.log"),
  };
}
