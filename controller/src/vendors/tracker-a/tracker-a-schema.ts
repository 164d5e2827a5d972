import * as z from "zod";
import { errorFor, flag, section, show } from "../../config/schema/kit.js";
import { commonFields, labelNameFields, repoUrlField, stateName } from "../../sources/polling/ticketing-fields.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `ticketing.config` of tracker A. */
export const trackerASchema = section({
  ...commonFields(),
  ...repoUrlField(),
  ...labelNameFields(),
  team_id: z
    .string({
      error: errorFor(
        (input) => `must be the team's UUID, got ${show(input)}`,
        "copy the team's id (a UUID) from the tracker's team settings",
      ),
    })
    .regex(UUID, {
      error: errorFor(
        (input) =>
          `${show(input)} is not a team UUID${typeof input === "string" && !/^[0-9a-f-]+$/i.test(input) ? " (it looks like the team's name)" : ""}`,
        "use the team's id, a UUID such as 9cfb482a-81e3-4154-b5b9-2c805e70a02d, not its name or key; the tracker shows it in the team's settings and returns it from its API's teams query",
      ),
    })
    .meta({ description: "Tracker A team UUID (not the team's name)." }),
  state_filter: stateName("Exact workflow state name to poll; issues in other states are ignored.").optional(),
  progress_comment: flag().default(false).meta({
    description:
      "Keep one comment per run on the ticket, edited as progress arrives (at most every 10 s) and ending with the outcome and the pull request link; it replaces the comments the write-back posts otherwise.",
  }),
});

/** `ticketing.config` of tracker A, validated, defaults applied. */
export type TrackerATicketingConfig = z.output<typeof trackerASchema>;
