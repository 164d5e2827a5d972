import { duration } from "../config/schema/duration-schema.js";
import { flag, section, textList } from "../config/schema/kit.js";
import { secretName } from "../config/schema/secret-name-schema.js";

/** One day, the default `approval_timeout`, in seconds. */
export const DEFAULT_APPROVAL_TIMEOUT_S = 86_400;

/**
 * The approval keys of `guardrails` (docs/approvals.md). `repos` is passed
 * in: it is checked as `allowed_repos` is.
 */
export function approvalKeys(repoList: ReturnType<typeof textList>) {
  return {
    require_approval: section({
      always: flag().optional().meta({ description: "true: every new ticket's run waits for approval." }),
      labels: textList("write a list of labels, e.g. [needs-review]")
        .optional()
        .meta({ description: "A ticket with any of these labels waits (compared ignoring ASCII case)." }),
      repos: repoList
        .optional()
        .meta({ description: "A ticket whose repo_url matches any of these patterns (as in allowed_repos) waits." }),
      sources: textList("write a list of sources, e.g. [chat_a, tracker_a]")
        .optional()
        .meta({ description: "A ticket from any of these sources (chat_a, tracker_a, generic, ...) waits." }),
      engines: textList("write a list of engine names, e.g. [claude_code]")
        .optional()
        .meta({ description: "A run on any of these engines waits." }),
    })
      .optional()
      .meta({
        description:
          "Which new runs wait in AwaitingApproval until a person approves them (docs/approvals.md); any matching rule holds the run. Unset: none wait.",
      }),
    approvers: textList("write a list of chat A user ids and console token labels, e.g. [U0123ABCD, alice]")
      .default([])
      .meta({
        description:
          "Who may approve or reject: chat A user ids (U0123ABCD) and console token labels. `errand runs approve|reject` on the controller's host is always allowed.",
      }),
    approval_timeout: duration(60, 30 * DEFAULT_APPROVAL_TIMEOUT_S, DEFAULT_APPROVAL_TIMEOUT_S)
      .default(DEFAULT_APPROVAL_TIMEOUT_S)
      .meta({ description: "A run still awaiting approval after this is Refused (default 24h)." }),
    approval_signing_secret: secretName(
      "Name of the secret whose value signs the approval buttons of chat A. Unset: a key derived from chat A's webhook signing secret.",
    ).optional(),
  };
}
