import { createLogger } from "@errand/channel-sdk/host";
import { afterEach } from "vitest";
import type { ControllerConfig } from "../../../src/config/controller-config.js";
import { loadControllerConfig } from "../../../src/config/load-controller-config.js";
import { createController } from "../../../src/controller.js";
import { isTerminal, type TaskRun } from "../../../src/runs/task-run.js";
import { resolveSecrets } from "../../../src/secrets/resolve-secrets.js";
import type { PollingSource } from "../../../src/sources/polling/polling-source.js";
import type { CodehostATicketingConfig } from "../../../src/sources/ticketing-schema.js";
import type { Store } from "../../../src/store/store.js";
import {
  type CodehostAAdapterOptions,
  createCodehostAAdapter,
} from "../../../src/vendors/codehost-a/codehost-a-adapter.js";
import {
  createHarness,
  eventually,
  type Harness,
  type InProcess,
  SECRET_ENV,
  startInProcess,
} from "../../controller/harness.js";
import type { FakeCodehostA } from "./fake-codehost-a.js";

export const HOOK_SECRET = "codehost-a-hook-secret";

const started: InProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});

/** A harness whose `ticketing` polls the fake (interval in seconds). */
export function harnessFor(f: FakeCodehostA, engine: string, pollInterval = 3600): Harness {
  return createHarness({
    engine,
    extra: `ticketing:
  backend: codehost_a
  poll_interval: ${pollInterval}
  config:
    token_secret: codehost-a-token
    owner: ${f.repo.owner}
    repo: ${f.repo.name}
    labels: [agent]
    exclude_labels: [wontfix]
    api_base_url: ${f.url}
`,
  });
}

const withHookSecret = (config: ControllerConfig) => {
  config.webhook.secrets = { ...config.webhook.secrets, codehost_a: HOOK_SECRET };
};

/** The controller in-process, as the bin builds it (the adapter from `ticketing`), the webhook taking code host A events. */
export async function startController(h: Harness, f: FakeCodehostA): Promise<InProcess> {
  const c = await startInProcess(h, withHookSecret, { ERRAND_SECRET_CODEHOST_A_TOKEN: f.token });
  started.push(c);
  return c;
}

/** The same, with the adapter tuned for tests (short retry waits and timeouts). */
export async function startControllerWith(
  h: Harness,
  f: FakeCodehostA,
  options: CodehostAAdapterOptions,
): Promise<InProcess> {
  const env = { ...SECRET_ENV, ERRAND_SECRET_CODEHOST_A_TOKEN: f.token };
  const { config } = await loadControllerConfig(h.configFile, { env });
  withHookSecret(config);
  const secrets = resolveSecrets(config, { env });
  const logs: string[] = [];
  const logger = createLogger({ level: "debug", write: (line) => logs.push(line), secrets: Object.values(secrets) });
  const ticketing = config.ticketing?.config as CodehostATicketingConfig;
  const pollAdapter = createCodehostAAdapter(ticketing, secrets["codehost-a-token"], options);
  const controller = await createController({ config, secrets, logger, pollAdapter });
  await controller.start();
  const c: InProcess = {
    controller,
    webhookPort: (controller.sources[0] as { server?: { address?: { port: number } } }).server?.address?.port ?? 0,
    logs,
    stop: () => controller.stop(),
  };
  started.push(c);
  return c;
}

/** The polling source of a started controller. */
export function pollingOf(c: InProcess): PollingSource {
  const source = c.controller.sources.find((s) => s.name === "codehost_a");
  if (source === undefined) throw new Error("no codehost_a source");
  return source as PollingSource;
}

/** The runs of an issue, oldest first. */
export async function runsOfIssue(store: Store, issue: number): Promise<TaskRun[]> {
  return (await store.listRuns({ ticket: { source: "codehost_a", id: String(issue) }, limit: 100 })).sort(
    (a, b) => a.createdAt - b.createdAt,
  );
}

/** Waits until the issue's only run ended. */
export function finishedRun(store: Store, issue: number): Promise<TaskRun> {
  return eventually(`a final state of issue #${issue}`, async () => {
    const runs = await runsOfIssue(store, issue);
    return runs.length === 1 && runs[0] !== undefined && isTerminal(runs[0].state) ? runs[0] : undefined;
  });
}

/** Waits until the fake shows exactly `count` changes on the issue, and returns them. */
export function changesOnce(f: FakeCodehostA, issue: number, count: number): Promise<string[]> {
  return eventually(`${count} changes on issue #${issue}`, () => {
    const changes = f.repo.changesOf(issue);
    return changes.length >= count ? changes : undefined;
  });
}
