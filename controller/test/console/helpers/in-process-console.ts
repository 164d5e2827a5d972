import { join } from "node:path";
import { Registry } from "prom-client";
import { afterEach } from "vitest";
import { tempDir } from "../../../../test/support/temp-dir.js";
import { quiet } from "../../../src/cli/commands/with-store.js";
import { parseControllerConfig } from "../../../src/config/parse-controller-config.js";
import { createConsole } from "../../../src/console/console-router.js";
import type { ConsoleConfig } from "../../../src/console/console-schema.js";
import { createConsoleServer } from "../../../src/console/console-server.js";
import { stepsReader } from "../../../src/console/log-stream.js";
import { createLocalBackend } from "../../../src/execution/local-backend.js";
import { scrubbingBackend } from "../../../src/execution/scrubbing-backend.js";
import type { Notifier } from "../../../src/notify/notifier-types.js";
import type { Approvals } from "../../../src/runs/approvals-port.js";
import type { PollingSource } from "../../../src/sources/polling/polling-source.js";
import { createSqliteStore } from "../../../src/store/index.js";
import type { Store } from "../../../src/store/store.js";
import { createConfiguredNotifier } from "../../../src/wiring/configured-notifier.js";

/** A console on a real SQLite store (and a real notifier when channels are given) and the local backend's log reader (scrubbed), on a port of its own. */
export interface ConsoleUnderTest {
  url: string;
  store: Store;
  notifier: Notifier | undefined;
  dir: string;
  /** Folder the local backend reads run logs from. */
  logDir: string;
  port: number;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts a console with `console` settings over a fresh store; `secrets` are masked in the logs it shows. */
export async function startConsole(
  settings: Partial<ConsoleConfig> = {},
  options: {
    token?: string;
    secrets?: string[];
    approvals?: Approvals;
    poller?: PollingSource;
    /** `notifications` of errand.yaml, and the secrets its channels name: a real notifier is started. */
    notifications?: { doc: unknown; secrets: Record<string, string> };
    /** Address the console listens on; default 127.0.0.1 (`url` still names 127.0.0.1). */
    host?: string;
  } = {},
): Promise<ConsoleUnderTest> {
  const dir = tempDir("errand-console-");
  const logDir = join(dir, "logs");
  const { config } = parseControllerConfig(
    {
      execution: { local: { log_dir: logDir, workspace_dir: join(dir, "ws") } },
      ...(options.notifications ? { notifications: options.notifications.doc } : {}),
    },
    { baseDir: dir, env: {} },
  );
  const registry = new Registry();
  const notifier = await createConfiguredNotifier(config, options.notifications?.secrets ?? {}, quiet, registry);
  await notifier?.start();
  const store = await createSqliteStore({ path: join(dir, "errand.db") });
  const backend = scrubbingBackend(
    createLocalBackend({ config: config.execution.local, logger: quiet }),
    options.secrets ?? [],
  );
  const handler = createConsole({
    config: { ...config.console, ...settings },
    token: options.token,
    secrets: [...(options.secrets ?? []), ...(options.token === undefined ? [] : [options.token])],
    store,
    readSteps: stepsReader(backend),
    notifier,
    sources: options.poller ? [options.poller] : [],
    poller: options.poller,
    registry,
    election: { leading: true, leader: "test/1" },
    approvals: options.approvals,
    logger: quiet,
  });
  const server = createConsoleServer(handler, options.host ?? "127.0.0.1", 0);
  const address = await server.start();
  cleanups.push(async () => {
    await server.stop();
    await notifier?.close();
    await backend.close();
    await store.close();
  });
  return { url: `http://127.0.0.1:${address.port}`, port: address.port, store, notifier, dir, logDir };
}
