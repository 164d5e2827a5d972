import type { TicketingConfig } from "../../config/controller-config.js";
import type { CodehostATicketingConfig, TrackerATicketingConfig, TrackerBTicketingConfig } from "../../config/schema/ticketing-schema.js";
import { createCodehostAAdapter } from "../codehost-a/codehost-a-adapter.js";
import { createTrackerAAdapter } from "../tracker-a/tracker-a-adapter.js";
import { createTrackerBAdapter } from "../tracker-b/tracker-b-adapter.js";
import type { PollAdapter } from "./poll-adapter.js";

/** The adapter of `ticketing.backend`, with its token from the secret store (resolved at start). */
export function createPollAdapter(ticketing: TicketingConfig, secrets: Readonly<Record<string, string>>): PollAdapter {
  const token = ticketing.tokenSecret === undefined ? undefined : secrets[ticketing.tokenSecret];
  switch (ticketing.backend) {
    case "tracker_a":
      return createTrackerAAdapter(ticketing.config as TrackerATicketingConfig, token);
    case "tracker_b":
      return createTrackerBAdapter(ticketing.config as TrackerBTicketingConfig, token);
    case "codehost_a":
      return createCodehostAAdapter(ticketing.config as CodehostATicketingConfig, token);
  }
}
