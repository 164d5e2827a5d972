import type { TicketingConfig } from "../../config/controller-config.js";
import { POLL_BACKENDS } from "../../vendors/poll-backends.js";
import type { PollAdapter } from "./poll-adapter.js";

/**
 * The adapter of `ticketing.backend` (vendors/poll-backends.ts), with its
 * token from the secret store (resolved at start). Each vendor's SDK is
 * loaded only when it is the one configured.
 */
export async function createPollAdapter(
  ticketing: TicketingConfig,
  secrets: Readonly<Record<string, string>>,
): Promise<PollAdapter> {
  const token = ticketing.tokenSecret === undefined ? undefined : secrets[ticketing.tokenSecret];
  // Found: the schema admits only the backends of POLL_BACKENDS, each with its own config (which the cast restates).
  const load = POLL_BACKENDS.find((b) => b.backend === ticketing.backend)!.load as (
    config: TicketingConfig["config"],
    token: string | undefined,
  ) => Promise<PollAdapter>;
  return load(ticketing.config, token);
}
