import * as z from "zod";
import { say } from "../../config/problem-codec.js";
import { text, textList } from "../../config/schema/kit.js";
import { secretName } from "../../config/schema/secret-name-schema.js";

// The fields several vendors' `ticketing.config` fragments share; each vendor's fragment (vendors/<id>/<id>-schema.ts) picks its own.

/** Token, trigger and excluded labels, API base URL: every poll backend has them. */
export const commonFields = () => ({
  token_secret: secretName("Name of the secret holding the tracker's API token (never the token itself)."),
  labels: textList().default([]).meta({ description: "Trigger labels: an issue must carry them to be picked up." }),
  exclude_labels: textList().default([]).meta({ description: "Issues carrying any of these labels are skipped." }),
  api_base_url: z
    .url({
      protocol: /^https?$/,
      error: say("is not an http(s) URL", "write the API's base URL, e.g. https://api.github.com, or remove the key"),
    })
    .optional()
    .meta({
      description:
        "The vendor API's base URL; unset: the vendor's public API (set it for a self-hosted instance or a proxy).",
    }),
});

/** The repository a tracker's tickets name (a tracker names none). */
export const repoUrlField = () => ({
  repo_url: z
    .url({
      protocol: /^https?$/,
      error: say("is not an http(s) URL", "write the repository's URL, e.g. https://github.com/acme/shop"),
    })
    .optional()
    .meta({
      description:
        "Repository the agent works in for this tracker's tickets (a tracker names none); it becomes the tickets' repo_url, which guardrails.allowed_repos checks.",
    }),
});

/** The labels set when a run starts and when it fails. */
export const labelNameFields = () => ({
  in_progress_label: text({ fix: "write the label's exact name" })
    .default("agent-in-progress")
    .meta({ description: "Label added when a run starts." }),
  failed_label: text({ fix: "write the label's exact name" }).default("agent-failed").meta({
    description: "Label added when a run fails; issues with it are not picked up again.",
  }),
});

/** A workflow state, by its exact name. */
export const stateName = (description: string) =>
  text({ fix: "write the state's exact name (case-sensitive)" }).meta({ description });
