import * as z from "zod";
import { say } from "../../config/problem-codec.js";
import { errorFor, flag, section, text } from "../../config/schema/kit.js";
import { commonFields, repoUrlField, stateName } from "../../sources/polling/ticketing-fields.js";

const workflow = section({
  trigger_state: stateName("State that triggers a run."),
  in_progress_state: stateName("State the story is moved to when the run starts."),
});

/** `ticketing.config` of tracker B. */
export const trackerBSchema = section({
  ...commonFields(),
  ...repoUrlField(),
  workflow_state_name: stateName("State that triggers a run (or use workflows[]).").optional(),
  in_progress_state_name: stateName("State the story is moved to when a run starts (or use workflows[]).").optional(),
  completed_state_name: stateName("State the story is moved to when the agent succeeds; unset: unchanged.").optional(),
  owner_mention_name: text({ fix: "write the mention name of the user stories are assigned to" }).meta({
    description: "Stories assigned to this mention name are picked up.",
  }),
  workflows: z
    .array(workflow, {
      error: errorFor(() => "must be a list", "write workflows: with '- trigger_state: ...' entries"),
    })
    .min(1, { error: say("is an empty list", "add at least one workflow, or remove the key") })
    .optional()
    .meta({ description: "Several trigger / in-progress state pairs, in place of the two single names." }),
  progress_comment: flag().default(false).meta({
    description:
      "Keep one comment per run on the ticket, edited as progress arrives (at most every 10 s) and ending with the outcome and the pull request link; it replaces the comments the write-back posts otherwise.",
  }),
}).superRefine((config, ctx) => {
  const single = config.workflow_state_name !== undefined || config.in_progress_state_name !== undefined;
  if (config.workflows !== undefined && single) {
    ctx.addIssue({
      code: "custom",
      path: ["workflows"],
      input: config.workflows,
      message: say(
        "is set beside workflow_state_name / in_progress_state_name",
        "use either workflows[] or the two single names",
      ),
    });
  } else if (config.workflows === undefined) {
    for (const key of ["workflow_state_name", "in_progress_state_name"] as const) {
      if (config[key] === undefined)
        ctx.addIssue({
          code: "custom",
          path: [key],
          input: undefined,
          message: say("is required", "write the state's exact name, or list the states in workflows[]"),
        });
    }
  }
});

/** `ticketing.config` of tracker B, validated, defaults applied. */
export type TrackerBTicketingConfig = z.output<typeof trackerBSchema>;
