import type * as z from "zod";
import { section, text } from "../../config/schema/kit.js";
import { commonFields, labelNameFields } from "../../sources/polling/ticketing-fields.js";

/** `ticketing.config` of code host A. */
export const codehostASchema = section({
  ...commonFields(),
  ...labelNameFields(),
  owner: text({ fix: "write the repository owner (user or organisation)" }).meta({ description: "Repository owner." }),
  repo: text({ fix: "write the repository name" }).meta({ description: "Repository name." }),
});

/** `ticketing.config` of code host A, validated, defaults applied. */
export type CodehostATicketingConfig = z.output<typeof codehostASchema>;
