import type { TaskResult, Ticket } from "@errand/channel-sdk";
import { createLogger } from "@errand/channel-sdk/host";
import type { TaskRun } from "../../../src/runs/task-run.js";
import type { PollContext } from "../../../src/sources/polling/poll-adapter.js";
import { type TrackerATicketingConfig, ticketingSchema } from "../../../src/sources/ticketing-schema.js";
import { runningTaskRun } from "../../helpers/task-run.js";
import type { FakeLinear } from "./fake-linear.js";

/** `ticketing.config` for the fake's ENG team, parsed by the real schema (defaults applied). */
export function trackerAConfig(fake: FakeLinear, config: Record<string, unknown> = {}): TrackerATicketingConfig {
  const parsed = ticketingSchema.parse({
    backend: "tracker_a",
    config: {
      token_secret: "tracker-a-token",
      team_id: fake.ws.team("ENG").id,
      state_filter: "Todo",
      labels: ["agent"],
      exclude_labels: ["wontfix"],
      api_base_url: fake.url,
      ...config,
    },
  });
  return parsed.config as TrackerATicketingConfig;
}

/** A poll context whose log lines are kept. */
export function testContext(signal = new AbortController().signal): PollContext & { lines: string[] } {
  const lines: string[] = [];
  return { signal, logger: createLogger({ level: "debug", write: (line) => lines.push(line) }), lines };
}

let runs = 0;
/** A run of `ticket` as the store would hand it over. */
export function taskRun(ticket: Ticket, state: TaskRun["state"] = "Running"): TaskRun {
  return runningTaskRun({
    id: `run_${String(++runs).padStart(26, "0")}`,
    ticket: { source: ticket.source, id: ticket.id },
    state,
    reason: "test",
  });
}

export const SUCCESS: TaskResult = {
  success: true,
  summary: "Fixed the login form.",
  pullRequestUrl: "https://github.com/acme/shop/pull/7",
  failureReason: "",
};
export const FAILURE: TaskResult = {
  success: false,
  summary: "",
  pullRequestUrl: "",
  failureReason: "the engine exited with code 3",
};
