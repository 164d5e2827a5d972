import type { Ticket } from "@errand/channel-sdk";
import { Octokit } from "@octokit/rest";
import type { RepositoryToken } from "../../repositories/repository-token.js";
import type { CommentTarget } from "../../sources/progress-comment/progress-comment-observer.js";

/** Options of {@link createCodehostACommentTarget}. */
export interface CodehostACommentOptions {
  /** `repositories.codehost_a.api_base_url`. */
  apiBaseUrl: string;
  token: RepositoryToken;
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Comments on code host A issues (`POST .../issues/{n}/comments`, `PATCH
 * .../issues/comments/{id}`), for tickets from its webhook or its poller: the
 * repository is the last two parts of the ticket's repository URL. The token
 * is asked for on every request (an App's token changes) and goes only into
 * the Authorization header. No retry: a repeated create would post twice.
 */
export function createCodehostACommentTarget(options: CodehostACommentOptions): CommentTarget {
  const client = new Octokit({
    baseUrl: options.apiBaseUrl.replace(/\/+$/, ""),
    userAgent: "errand-controller",
    log: silent,
  });
  client.hook.before("request", async (request) => {
    request.headers.authorization = `token ${await options.token.token()}`;
  });
  return {
    name: "codehost_a",
    editable: true,
    html: true,
    accepts: (ticket) => issueOf(ticket) !== undefined,
    async create(ticket, body, signal) {
      const { owner, repo, number } = issueOf(ticket) as IssueRef;
      const { data } = await client.rest.issues.createComment({
        owner,
        repo,
        issue_number: number,
        body,
        request: { signal },
      });
      return String(data.id);
    },
    async update(ticket, id, body, signal) {
      const { owner, repo } = issueOf(ticket) as IssueRef;
      await client.rest.issues.updateComment({ owner, repo, comment_id: Number(id), body, request: { signal } });
    },
  };
}

interface IssueRef {
  owner: string;
  repo: string;
  number: number;
}

/** The issue a code host A ticket names; undefined for another source's ticket or one without a repository URL. */
export function issueOf(ticket: Ticket): IssueRef | undefined {
  if (ticket.source !== "codehost_a" || !/^[1-9][0-9]*$/.test(ticket.id)) return undefined;
  let parts: string[];
  try {
    parts = new URL(ticket.repoUrl).pathname.split("/").filter(Boolean);
  } catch {
    return undefined;
  }
  const [owner, name] = parts.slice(-2);
  if (parts.length < 2 || owner === undefined || name === undefined) return undefined;
  return { owner, repo: name.replace(/\.git$/, ""), number: Number(ticket.id) };
}
