import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { createLogger } from "@errand/channel-sdk/host";
import type { TaskRun } from "../../../src/runs/task-run.js";
import type { PollAdapter, PollContext } from "../../../src/sources/polling/poll-adapter.js";
import type { TrackerBTicketingConfig } from "../../../src/sources/ticketing-schema.js";
import { ticketingSchema } from "../../../src/sources/ticketing-schema.js";
import {
  createTrackerBAdapter,
  type TrackerBAdapterOptions,
} from "../../../src/vendors/tracker-b/tracker-b-adapter.js";
import { runningTaskRun } from "../../helpers/task-run.js";
import type { FakeShortcut } from "./fake-shortcut.js";

/** `ticketing.config` for the fake, through the real schema (so defaults apply as in a file). */
export function trackerBConfig(fake: FakeShortcut, config: Record<string, unknown> = {}): TrackerBTicketingConfig {
  const base = { token_secret: "tracker-b-token", api_base_url: fake.url, owner_mention_name: "errand-bot" };
  const single =
    config.workflows === undefined
      ? { workflow_state_name: "Ready for Agent", in_progress_state_name: "In Progress" }
      : {};
  const parsed = ticketingSchema.parse({ backend: "tracker_b", config: { ...base, ...single, ...config } });
  return parsed.config as TrackerBTicketingConfig;
}

/** A poll context whose log lines are kept. */
export function pollContext(signal: AbortSignal = new AbortController().signal): PollContext & { lines: string[] } {
  const lines: string[] = [];
  return { signal, logger: createLogger({ level: "debug", write: (line) => lines.push(line) }), lines };
}

/** An adapter on the fake, prepared. */
export async function preparedAdapter(
  fake: FakeShortcut,
  config: Record<string, unknown> = {},
  options: TrackerBAdapterOptions = {},
): Promise<PollAdapter> {
  const adapter = createTrackerBAdapter(trackerBConfig(fake, config), fake.token, options);
  await adapter.prepare(pollContext());
  return adapter;
}

let runs = 0;
/** A TaskRun as the loop hands it to observers. */
export function taskRun(storyId: number, fields: Partial<TaskRun> = {}): TaskRun {
  return runningTaskRun({
    id: `run_${String(++runs).padStart(26, "0")}`,
    ticket: { source: "tracker_b", id: String(storyId) },
    ...fields,
  });
}

/** The ticket of a story as the source produces it (only id and source matter to write-back). */
export function storyTicket(storyId: number): Ticket {
  return {
    id: String(storyId),
    title: "",
    description: "",
    ticketType: "issue",
    repoUrl: "",
    externalUrl: "",
    labels: [],
    source: "tracker_b",
  };
}

export const SUCCESS: TaskResult = {
  success: true,
  summary: "Fixed it.",
  pullRequestUrl: "https://github.com/acme/shop/pull/7",
  failureReason: "",
};
export const FAILURE: TaskResult = {
  success: false,
  summary: "",
  pullRequestUrl: "",
  failureReason: "the engine exited with code 3",
};
