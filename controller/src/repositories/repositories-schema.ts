import type * as z from "zod";
import { choice, flag, optionalSection, section, text, whole } from "../config/schema/kit.js";
import { secretName } from "../config/schema/secret-name-schema.js";

const appSection = section({
  app_id: whole(1, Number.MAX_SAFE_INTEGER).meta({ description: "The GitHub App's id (its settings page shows it)." }),
  private_key_secret: secretName("Name of the secret holding the App's private key (PEM)."),
  installation_id: whole(1, Number.MAX_SAFE_INTEGER).meta({
    description: "Id of the App's installation on the account that owns the repositories.",
  }),
}).meta({
  description:
    "A GitHub App: errand makes short-lived installation tokens from it and refreshes them before they expire.",
});

const triggersSection = section({
  label: text({ fix: "write a label name, e.g. errand" })
    .default("errand")
    .meta({ description: "Adding this label to an issue starts a run." }),
  assignee: flag()
    .default(true)
    .meta({ description: "Assigning an issue to `bot_login` starts a run (needs `bot_login`)." }),
  mention: text({ fix: "write a phrase, e.g. @errand" }).default("@errand").meta({
    description:
      "A comment containing this phrase, by a user with write access (OWNER, MEMBER or COLLABORATOR), starts a run on an issue, or a follow-up on a pull request errand opened.",
  }),
}).meta({
  description:
    "What starts a run from code host A's webhook when `repositories.codehost_a` is set (otherwise every opened or labelled issue does).",
});

const followUpsSection = section({
  enabled: flag().default(true).meta({
    description:
      "Start a follow-up run on the same branch when a pull request errand opened gets a review with changes requested, or a comment with the mention phrase.",
  }),
  max_per_pull_request: whole(0, 1000, 5)
    .default(5)
    .meta({ description: "Follow-up runs one pull request may start at most." }),
}).meta({ description: "Follow-up runs on review." });

const pullRequestsSection = section({
  draft: flag().default(true).meta({ description: "Open pull requests as drafts." }),
  when_no_changes: choice(["succeed", "fail"]).default("succeed").meta({
    description:
      'A run whose agent made no commit: `succeed` (Succeeded, summary "no changes") or `fail` (Failed, reason "no changes").',
  }),
}).meta({ description: "Pull requests the controller opens after a successful run." });

/** `repositories.codehost_a`: repository access on code host A. */
export const codehostARepositoriesSection = section({
  api_base_url: text({ fix: "write the REST API's base URL, e.g. https://api.github.com" })
    .default("https://api.github.com")
    .meta({ description: "Base URL of code host A's REST API (set it for an Enterprise server)." }),
  token_secret: secretName(
    "Name of the secret holding a token (a fine-grained token with contents and pull requests write) used for clone, push and pull requests. Give this or `app`.",
  ).optional(),
  app: appSection.optional(),
  bot_login: text({ fix: "write the login, e.g. errand-bot or my-app[bot]" }).optional().meta({
    description:
      "Login the credentials act as (`<app-slug>[bot]` for an App): issues assigned to it start runs, and its own comments never do.",
  }),
  triggers: triggersSection.default(triggersSection.parse({})),
  follow_ups: followUpsSection.default(followUpsSection.parse({})),
  pull_requests: pullRequestsSection.default(pullRequestsSection.parse({})),
  progress_comment: flag().default(true).meta({
    description:
      "Keep one comment per run on the issue, edited as progress arrives (at most every 10 s) and ending with the outcome and the pull request link.",
  }),
})
  .superRefine((c, ctx) => {
    if ((c.token_secret === undefined) === (c.app === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: c.app === undefined ? ["token_secret"] : ["app"],
        message:
          c.app === undefined
            ? "needs a credential: give token_secret (a token's secret name) or app (a GitHub App)"
            : "token_secret and app are both set: keep one of the two",
      });
    }
  })
  .meta({ description: "Repository access on code host A: credentials, triggers, pull requests, follow-ups." });

const checkoutSection = section({
  branch_template: text({ fix: "write a template such as errand/{ticket_id}-{slug}" })
    .default("errand/{ticket_id}-{slug}")
    .meta({
      description:
        "Name of the branch a run works on: `{ticket_id}`, `{slug}` (the title in lower-case words joined by -) and `{run_id}` are replaced.",
    }),
  depth: whole(1, 1_000_000, 1).default(1).meta({ description: "Commits fetched by the clone (1: shallow)." }),
  git_user_name: text().default("Errand").meta({ description: "Author name of the agent's commits." }),
  git_user_email: text().default("errand@localhost").meta({ description: "Author e-mail of the agent's commits." }),
}).meta({ description: "How the controller prepares the checkout a run works in." });

/** `repositories` as written in errand.yaml. Unset: runs get an empty folder, as before. */
export const repositoriesSection = section({
  codehost_a: optionalSection(codehostARepositoriesSection),
  checkout: checkoutSection.default(checkoutSection.parse({})),
}).meta({
  description:
    "Repository access: the controller clones the ticket's repository, and opens the pull request (docs/first-real-repository.md).",
});

/** `repositories`, resolved. */
export const repositoriesConfig = repositoriesSection.transform((r) => ({
  codehostA: r.codehost_a,
  checkout: r.checkout,
}));

/** `repositories`, resolved. */
export type RepositoriesConfig = z.output<typeof repositoriesConfig>;
/** `repositories.codehost_a`, resolved. */
export type CodehostARepositoriesConfig = NonNullable<RepositoriesConfig["codehostA"]>;
