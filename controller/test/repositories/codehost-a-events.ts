import { createRequire } from "node:module";
import { hostASignature } from "../helpers/sign.js";
import type { FakePull } from "../sources/codehost-a/fake-pulls.js";
import type { Host } from "./repo-setup.js";

// Code host A's webhook events, from the vendor's published examples, pointed at the test's repository acme/app.

export const HOOK_SECRET = "codehost-a-hook-secret-e2e";

// biome-ignore lint/suspicious/noExplicitAny: the vendor's published examples are deep JSON that the tests edit in place
export type Example = Record<string, any>;
const groups = createRequire(import.meta.url)("@octokit/webhooks-examples/api.github.com/index.json") as Array<{
  name: string;
  examples: Example[];
}>;

/** A copy of the vendor's published example of `event` with `action`, for the test to adapt. */
export function example(event: string, action: string): Example {
  const found = groups.find((g) => g.name === event)?.examples.find((e) => e.action === action);
  if (found === undefined) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found);
}

let deliveries = 0;
/** POSTs a signed code host A event to the bin's webhook; returns the status and the JSON answer. */
export async function deliver(
  port: number,
  event: string,
  payload: Example,
): Promise<{ status: number; json: unknown }> {
  const body = JSON.stringify(payload);
  const response = await fetch(`http://127.0.0.1:${port}/webhooks/codehost-a`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": `e2e-${process.pid}-${++deliveries}`,
      "x-hub-signature-256": hostASignature(HOOK_SECRET, body),
    },
    body,
  });
  return { status: response.status, json: await response.json() };
}

/** The vendor's `issues.labeled` example for issue `n` of the host's repository, labeled `label`. */
export function labeled(host: Host, n: number, title: string, label = "errand"): Example {
  const p = example("issues", "labeled");
  Object.assign(p.issue, { number: n, title, body: "The README says 'teh'.", html_url: issueUrl(n) });
  p.label.name = label;
  // The issue carries the label it just got, as the host sends it.
  p.issue.labels = [{ ...p.label }];
  Object.assign(p.repository, { name: "app", full_name: "acme/app", html_url: `${host.git.url}/acme/app` });
  p.repository.owner.login = "acme";
  return p;
}

export const issueUrl = (n: number) => `https://codehost-a.test/acme/app/issues/${n}`;

/** A comment on pull request `pr`: on a line of its diff, or (`issue_comment`) on its conversation. */
export function onPull(
  event: "pull_request_review_comment" | "issue_comment",
  pr: FakePull,
  body: string,
  login: string,
) {
  const p = example(event, "created");
  Object.assign(p.repository, { name: "app", full_name: "acme/app" });
  p.repository.owner.login = "acme";
  const pull = p.pull_request ?? p.issue;
  Object.assign(pull, { number: pr.number, html_url: pr.html_url });
  if (p.pull_request) pull.head.ref = pr.head;
  else pull.pull_request = { html_url: pr.html_url, url: `https://api.test/repos/acme/app/pulls/${pr.number}` };
  Object.assign(p.comment, { body, author_association: "COLLABORATOR", path: "README.md", line: 1 });
  p.comment.user.login = login;
  return p;
}
