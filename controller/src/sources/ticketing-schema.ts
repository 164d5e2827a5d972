import * as z from "zod";
import { say } from "../config/problem-codec.js";
import { show } from "../config/schema/kit.js";
import { POLL_BACKENDS } from "../vendors/poll-backends.js";

const [first, ...rest] = POLL_BACKENDS.map((b) => b.branch);
/** One branch per poll backend of vendors/poll-backends.ts. */
const BRANCHES = [first!, ...rest] as const;
const BACKENDS = POLL_BACKENDS.map((b) => b.backend);

/** The `ticketing` section: where tickets are polled from. */
export const ticketingSchema = z
  .discriminatedUnion("backend", BRANCHES, {
    error: (iss: { input?: unknown; code?: string }) => {
      const input = iss.input as { backend?: unknown } | null | undefined;
      if (typeof input !== "object" || input === null)
        return say("must be a mapping", "write ticketing: with backend, poll_interval and config below it");
      if (input.backend === undefined) return say("is required", `write backend: with one of ${BACKENDS.join(", ")}`);
      return say(`is ${show(input.backend)}`, `use one of ${BACKENDS.join(", ")}`);
    },
  })
  .meta({ description: "Ticket polling (docs/ticket-sources/); unset: tickets come from the webhook only." });

export type { CodehostATicketingConfig } from "../vendors/codehost-a/codehost-a-schema.js";
export type { TrackerATicketingConfig } from "../vendors/tracker-a/tracker-a-schema.js";
export type { TrackerBTicketingConfig } from "../vendors/tracker-b/tracker-b-schema.js";

type TicketingBranch = z.output<typeof ticketingSchema>;

/**
 * `ticketing`, resolved: one variant per backend, with the poll interval in
 * milliseconds, the token's and the default repository's names lifted out,
 * and `config` typed by backend.
 */
export type TicketingConfig = TicketingBranch extends infer T
  ? T extends TicketingBranch
    ? {
        backend: T["backend"];
        pollIntervalMs: number;
        tokenSecret: T["config"]["token_secret"];
        repoUrl: string | undefined;
        config: T["config"];
      }
    : never
  : never;

/** `ticketing`, resolved (see {@link TicketingConfig}). */
export const ticketingConfig = ticketingSchema.transform(
  (t) =>
    // The cast pairs each backend with its own config again: TypeScript cannot follow that `t.backend` and `t.config` come from one branch.
    ({
      backend: t.backend,
      pollIntervalMs: t.poll_interval * 1000,
      tokenSecret: t.config.token_secret,
      repoUrl: "repo_url" in t.config ? t.config.repo_url : undefined,
      config: t.config,
    }) as TicketingConfig,
);
