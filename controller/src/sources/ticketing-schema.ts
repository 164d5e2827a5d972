import * as z from "zod";
import { say } from "../config/problem-codec.js";
import { duration } from "../config/schema/duration-schema.js";
import { errorFor, section, show, text, textList } from "../config/schema/kit.js";
import { secretName } from "../config/schema/secret-name-schema.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const common = () => ({
  token_secret: secretName("Name of the secret holding the tracker's API token (never the token itself)."),
  labels: textList().default([]).meta({ description: "Trigger labels: an issue must carry them to be picked up." }),
  exclude_labels: textList().default([]).meta({ description: "Issues carrying any of these labels are skipped." }),
  api_base_url: z
    .url({ protocol: /^https?$/, error: say("is not an http(s) URL", "write the API's base URL, e.g. https://api.github.com, or remove the key") })
    .optional()
    .meta({ description: "The vendor API's base URL; unset: the vendor's public API (set it for a self-hosted instance or a proxy)." }),
});

const repoUrl = () => ({
  repo_url: z
    .url({ protocol: /^https?$/, error: say("is not an http(s) URL", "write the repository's URL, e.g. https://github.com/acme/shop") })
    .optional()
    .meta({
      description: "Repository the agent works in for this tracker's tickets (a tracker names none); it becomes the tickets' repo_url, which guardrails.allowed_repos checks.",
    }),
});

const labelNames = () => ({
  in_progress_label: text({ fix: "write the label's exact name" }).default("agent-in-progress").meta({ description: "Label added when a run starts." }),
  failed_label: text({ fix: "write the label's exact name" }).default("agent-failed").meta({
    description: "Label added when a run fails; issues with it are not picked up again.",
  }),
});

const stateName = (description: string) => text({ fix: "write the state's exact name (case-sensitive)" }).meta({ description });

const trackerA = section({
  ...common(),
  ...repoUrl(),
  ...labelNames(),
  team_id: z
    .string({ error: errorFor((input) => `must be the team's UUID, got ${show(input)}`, "copy the team's id (a UUID) from the tracker's team settings") })
    .regex(UUID, {
      error: errorFor(
        (input) => `${show(input)} is not a team UUID${typeof input === "string" && !/^[0-9a-f-]+$/i.test(input) ? " (it looks like the team's name)" : ""}`,
        "use the team's id, a UUID such as 9cfb482a-81e3-4154-b5b9-2c805e70a02d, not its name or key; the tracker shows it in the team's settings and returns it from its API's teams query",
      ),
    })
    .meta({ description: "Tracker A team UUID (not the team's name)." }),
  state_filter: stateName("Exact workflow state name to poll; issues in other states are ignored.").optional(),
});

const codehostA = section({
  ...common(),
  ...labelNames(),
  owner: text({ fix: "write the repository owner (user or organisation)" }).meta({ description: "Repository owner." }),
  repo: text({ fix: "write the repository name" }).meta({ description: "Repository name." }),
});

const workflow = section({
  trigger_state: stateName("State that triggers a run."),
  in_progress_state: stateName("State the story is moved to when the run starts."),
});

const trackerB = section({
  ...common(),
  ...repoUrl(),
  workflow_state_name: stateName("State that triggers a run (or use workflows[]).").optional(),
  in_progress_state_name: stateName("State the story is moved to when a run starts (or use workflows[]).").optional(),
  completed_state_name: stateName("State the story is moved to when the agent succeeds; unset: unchanged.").optional(),
  owner_mention_name: text({ fix: "write the mention name of the user stories are assigned to" }).meta({
    description: "Stories assigned to this mention name are picked up.",
  }),
  workflows: z
    .array(workflow, { error: errorFor(() => "must be a list", "write workflows: with '- trigger_state: ...' entries") })
    .min(1, { error: say("is an empty list", "add at least one workflow, or remove the key") })
    .optional()
    .meta({ description: "Several trigger / in-progress state pairs, in place of the two single names." }),
}).superRefine((config, ctx) => {
  const single = config.workflow_state_name !== undefined || config.in_progress_state_name !== undefined;
  if (config.workflows !== undefined && single) {
    ctx.addIssue({ code: "custom", path: ["workflows"], input: config.workflows, message: say("is set beside workflow_state_name / in_progress_state_name", "use either workflows[] or the two single names") });
  } else if (config.workflows === undefined) {
    for (const key of ["workflow_state_name", "in_progress_state_name"] as const) {
      if (config[key] === undefined) ctx.addIssue({ code: "custom", path: [key], input: undefined, message: say("is required", "write the state's exact name, or list the states in workflows[]") });
    }
  }
});

const pollInterval = duration(1, 86_400, 30).prefault(30).meta({ description: "Seconds between polls: a number of seconds or a duration such as `30s`, `2m`, `1h` (default 30 s)." });

const branch = <B extends string, C extends z.ZodType>(backend: B, config: C) =>
  section({ backend: z.literal(backend).meta({ description: "Ticket source." }), poll_interval: pollInterval, config }, { fix: "write ticketing: with backend, poll_interval and config below it" });

/** One branch per poll backend: the only list of them. */
const BRANCHES = [branch("tracker_a", trackerA), branch("tracker_b", trackerB), branch("codehost_a", codehostA)] as const;
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

/** `ticketing.config` of tracker A, validated, defaults applied. */
export type TrackerATicketingConfig = z.output<typeof trackerA>;
/** `ticketing.config` of tracker B, validated, defaults applied. */
export type TrackerBTicketingConfig = z.output<typeof trackerB>;
/** `ticketing.config` of code host A, validated, defaults applied. */
export type CodehostATicketingConfig = z.output<typeof codehostA>;

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
