import * as z from "zod";
import { say } from "../config/problem-codec.js";
import { duration } from "../config/schema/duration-schema.js";
import { section, show } from "../config/schema/kit.js";
import { codehostASchema } from "../vendors/codehost-a/codehost-a-schema.js";
import { trackerASchema } from "../vendors/tracker-a/tracker-a-schema.js";
import { trackerBSchema } from "../vendors/tracker-b/tracker-b-schema.js";

const pollInterval = duration(1, 86_400, 30).prefault(30).meta({ description: "Seconds between polls: a number of seconds or a duration such as `30s`, `2m`, `1h` (default 30 s)." });

const branch = <B extends string, C extends z.ZodType>(backend: B, config: C) =>
  section({ backend: z.literal(backend).meta({ description: "Ticket source." }), poll_interval: pollInterval, config }, { fix: "write ticketing: with backend, poll_interval and config below it" });

/** One branch per poll backend: the only list of them. */
const BRANCHES = [branch("tracker_a", trackerASchema), branch("tracker_b", trackerBSchema), branch("codehost_a", codehostASchema)] as const;
const BACKENDS = BRANCHES.map((b) => b.shape.backend.value);

/** The `ticketing` section: where tickets are polled from. */
export const ticketingSchema = z
  .discriminatedUnion("backend", BRANCHES, {
    error: (iss: { input?: unknown; code?: string }) => {
      const input = iss.input as { backend?: unknown } | null | undefined;
      if (typeof input !== "object" || input === null) return say("must be a mapping", "write ticketing: with backend, poll_interval and config below it");
      if (input.backend === undefined) return say("is required", `write backend: with one of ${BACKENDS.join(", ")}`);
      return say(`is ${show(input.backend)}`, `use one of ${BACKENDS.join(", ")}`);
    },
  })
  .meta({ description: "Ticket polling (docs/ticket-sources/); unset: tickets come from the webhook only." });

export type { CodehostATicketingConfig } from "../vendors/codehost-a/codehost-a-schema.js";
export type { TrackerATicketingConfig } from "../vendors/tracker-a/tracker-a-schema.js";
export type { TrackerBTicketingConfig } from "../vendors/tracker-b/tracker-b-schema.js";

/**
 * `ticketing`, resolved: the poll interval in milliseconds, the token's and
 * the default repository's names lifted out, and `config` typed by backend.
 */
export const ticketingConfig = ticketingSchema.transform((t) => {
  const common = { pollIntervalMs: t.poll_interval * 1000, tokenSecret: t.config.token_secret };
  // One case per backend, so that `config` keeps its backend's type.
  switch (t.backend) {
    case "tracker_a":
      return { backend: t.backend, ...common, repoUrl: t.config.repo_url, config: t.config };
    case "tracker_b":
      return { backend: t.backend, ...common, repoUrl: t.config.repo_url, config: t.config };
    case "codehost_a":
      return { backend: t.backend, ...common, repoUrl: undefined, config: t.config };
  }
});

/** `ticketing`, resolved: one variant per backend. */
export type TicketingConfig = z.output<typeof ticketingConfig>;
