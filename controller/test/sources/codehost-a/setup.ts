import type { Logger, TaskResult } from "@errand/channel-sdk";
import { afterEach } from "vitest";
import type { TaskRun } from "../../../src/runs/task-run.js";
import type { PollAdapter, PollContext } from "../../../src/sources/polling/poll-adapter.js";
import { type CodehostATicketingConfig, ticketingSchema } from "../../../src/sources/ticketing-schema.js";
import {
  type CodehostAAdapterOptions,
  createCodehostAAdapter,
} from "../../../src/vendors/codehost-a/codehost-a-adapter.js";
import { runningTaskRun } from "../../helpers/task-run.js";
import { type FakeCodehostA, startFakeCodehostA } from "./fake-codehost-a.js";

const open: FakeCodehostA[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});

/** A started fake, closed after the test. */
export async function fake(options: Parameters<typeof startFakeCodehostA>[0] = {}): Promise<FakeCodehostA> {
  const f = await startFakeCodehostA(options);
  open.push(f);
  return f;
}

/** `ticketing.config` for the fake, through the real schema (so its defaults apply). */
export function configFor(f: FakeCodehostA, keys: Record<string, unknown> = {}): CodehostATicketingConfig {
  const parsed = ticketingSchema.parse({
    backend: "codehost_a",
    config: {
      token_secret: "codehost-a-token",
      owner: f.repo.owner,
      repo: f.repo.name,
      labels: ["agent"],
      exclude_labels: ["wontfix"],
      api_base_url: f.url,
      ...keys,
    },
  });
  return parsed.config as CodehostATicketingConfig;
}

/** A logger that keeps its records. */
export function recordingLogger(): Logger & {
  records: Array<{ level: string; message: string; fields?: Record<string, unknown> }>;
} {
  const records: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    records.push({ level, message, ...(fields === undefined ? {} : { fields }) });
  };
  const logger = {
    records,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: () => logger,
  };
  return logger;
}

/** Waits of one "second" take 1 ms, attempts time out after 1 s: tests of retries stay quick. */
export const QUICK: CodehostAAdapterOptions = { secondMs: 1, requestTimeoutMs: 1000 };

/** An adapter on the fake, with a context whose signal the test may abort. */
export function adapterFor(
  f: FakeCodehostA,
  keys: Record<string, unknown> = {},
  options: CodehostAAdapterOptions = QUICK,
  token = f.token,
) {
  const adapter: PollAdapter = createCodehostAAdapter(configFor(f, keys), token, options);
  const stop = new AbortController();
  const logger = recordingLogger();
  const ctx: PollContext = { signal: stop.signal, logger };
  return { adapter, ctx, stop, logger };
}

/** A run of `issue` as the loop hands it to write-back. */
export function runOf(issue: number, id = `run_${String(issue).padStart(26, "0")}`): TaskRun {
  return runningTaskRun({ id, ticket: { source: "codehost_a", id: String(issue) } });
}

export const SUCCESS: TaskResult = {
  success: true,
  summary: "Fixed the flaky test.",
  pullRequestUrl: "https://codehost-a.test/acme/shop/pull/77",
  failureReason: "",
};
export const FAILURE: TaskResult = {
  success: false,
  summary: "",
  pullRequestUrl: "",
  failureReason: "the agent crashed",
};
