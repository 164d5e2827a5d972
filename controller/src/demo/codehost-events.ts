import { createHmac, randomUUID } from "node:crypto";
import type { StandInPull } from "./codehost-stand-in.js";

/** Where the stand-in's events go, and the repository they are about. */
export interface EventTarget {
  /** The controller's `…/webhooks/codehost-a`. */
  hookUrl: string;
  /** `webhook.secrets.codehost_a`: the events are signed with it, as the code host signs them. */
  secret: string;
  owner: string;
  repo: string;
  /** The repository's address (the tickets' `repo_url`, and what the controller clones). */
  repoUrl: string;
  /** The stand-in's base URL: the issues' and pull requests' web pages. */
  webUrl: string;
}

/** What the controller answered to one delivery. */
export interface Delivered {
  status: number;
  text: string;
}

const user = (login: string) => ({ login, type: "User" });

/** A user adds `label` to a new issue: `issues` `labeled`, in the vendor's shape (the fields the controller reads). */
export function issueLabeled(
  t: EventTarget,
  issue: { number: number; title: string; body: string; label: string; author: string },
): Promise<Delivered> {
  return deliver(t, "issues", {
    action: "labeled",
    label: { name: issue.label },
    issue: {
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: "open",
      html_url: `${t.webUrl}/${t.owner}/${t.repo}/issues/${issue.number}`,
      labels: [{ name: issue.label }],
      user: user(issue.author),
    },
    repository: repository(t),
    sender: user(issue.author),
  });
}

/** A reviewer comments on a line of the pull request: `pull_request_review_comment` `created`. */
export function reviewCommented(
  t: EventTarget,
  pull: StandInPull,
  comment: { id: number; body: string; path: string; line: number; author: string },
): Promise<Delivered> {
  return deliver(t, "pull_request_review_comment", {
    action: "created",
    comment: {
      id: comment.id,
      body: comment.body,
      path: comment.path,
      line: comment.line,
      original_line: comment.line,
      user: user(comment.author),
      author_association: "OWNER",
      html_url: `${pull.html_url}#discussion_r${comment.id}`,
    },
    pull_request: {
      number: pull.number,
      html_url: pull.html_url,
      state: "open",
      draft: pull.draft,
      head: { ref: pull.head },
      base: { ref: pull.base },
    },
    repository: repository(t),
    sender: user(comment.author),
  });
}

function repository(t: EventTarget) {
  return { name: t.repo, full_name: `${t.owner}/${t.repo}`, owner: user(t.owner), html_url: t.repoUrl };
}

/** POSTs one event signed with `X-Hub-Signature-256`, with a fresh delivery id, as the code host does. */
async function deliver(t: EventTarget, event: string, payload: unknown): Promise<Delivered> {
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac("sha256", t.secret).update(body).digest("hex")}`;
  const response = await fetch(t.hookUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": signature,
      "user-agent": "errand-demo-codehost",
    },
    body,
  });
  return { status: response.status, text: await response.text() };
}
