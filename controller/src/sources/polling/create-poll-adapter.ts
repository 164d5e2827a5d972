import type { TicketingConfig } from "../../config/controller-config.js";
import type { PollAdapter } from "./poll-adapter.js";

/**
 * The adapter of `ticketing.backend`, with its token from the secret store
 * (resolved at start). Each vendor's SDK is loaded only when it is the one
 * configured: together they would add some 50 MB to every controller.
 */
export async function createPollAdapter(ticketing: TicketingConfig, secrets: Readonly<Record<string, string>>): Promise<PollAdapter> {
  const token = ticketing.tokenSecret === undefined ? undefined : secrets[ticketing.tokenSecret];
  switch (ticketing.backend) {
    case "tracker_a":
      return (await import("../../vendors/tracker-a/tracker-a-adapter.js")).createTrackerAAdapter(ticketing.config, token);
    case "tracker_b":
      return (await import("../../vendors/tracker-b/tracker-b-adapter.js")).createTrackerBAdapter(ticketing.config, token);
    case "codehost_a":
      return (await import("../../vendors/codehost-a/codehost-a-adapter.js")).createCodehostAAdapter(ticketing.config, token);
  }
}
