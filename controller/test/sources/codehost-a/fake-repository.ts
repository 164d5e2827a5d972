/**
 * The in-memory repository behind the fake code host A: issues (and pull
 * requests, which the issues API lists too), labels, comments, and a log of
 * every change in the order it happened, in the shapes the real REST API
 * answers with.
 */

export interface FakeComment {
  id: number;
  body: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  labels: string[];
  isPullRequest: boolean;
  comments: FakeComment[];
}

/** One change the API made, in order. */
export type FakeChange =
  | { kind: "label_added"; issue: number; label: string }
  | { kind: "label_removed"; issue: number; label: string }
  | { kind: "comment"; issue: number; body: string };

export const REPO_ID = 4242;

export class FakeRepository {
  readonly owner: string;
  readonly name: string;
  readonly htmlUrl: string;
  readonly labels: string[];
  readonly issues = new Map<number, FakeIssue>();
  readonly changes: FakeChange[] = [];
  /** Other public repositories of the owner (GET /users/{owner}/repos). */
  readonly siblings: string[] = ["website", "infra"];
  hasIssues = true;
  private nextNumber = 1;
  private nextId = 1000;

  constructor(owner: string, name: string, labels: string[]) {
    this.owner = owner;
    this.name = name;
    this.htmlUrl = `https://codehost-a.test/${owner}/${name}`;
    this.labels = [...labels];
  }

  get fullName(): string {
    return `${this.owner}/${this.name}`;
  }

  /** Adds an issue (or a pull request) and returns it; labels are added to the repository as the host would. */
  add(fields: Partial<Omit<FakeIssue, "number" | "comments">> = {}): FakeIssue {
    const number = this.nextNumber++;
    const issue: FakeIssue = {
      number,
      title: `Issue ${number}`,
      body: "Make the tests pass.",
      state: "open",
      labels: [],
      isPullRequest: false,
      comments: [],
      ...fields,
    };
    for (const l of issue.labels) this.ensureLabel(l);
    this.issues.set(number, issue);
    return issue;
  }

  ensureLabel(name: string): string {
    const existing = this.labels.find((l) => l.toLowerCase() === name.toLowerCase());
    if (existing !== undefined) return existing;
    this.labels.push(name);
    return name;
  }

  /** POST .../labels: the host creates labels it does not know and matches names without regard to case. */
  addLabel(issue: FakeIssue, name: string): void {
    const label = this.ensureLabel(name);
    if (issue.labels.includes(label)) return;
    issue.labels.push(label);
    this.changes.push({ kind: "label_added", issue: issue.number, label });
  }

  removeLabel(issue: FakeIssue, name: string): boolean {
    const at = issue.labels.findIndex((l) => l.toLowerCase() === name.toLowerCase());
    if (at < 0) return false;
    const [label] = issue.labels.splice(at, 1);
    this.changes.push({ kind: "label_removed", issue: issue.number, label: label ?? name });
    return true;
  }

  comment(issue: FakeIssue, body: string): FakeComment {
    const comment = { id: this.nextId++, body };
    issue.comments.push(comment);
    this.changes.push({ kind: "comment", issue: issue.number, body });
    return comment;
  }

  /** The changes made to one issue, as short strings (`+label`, `-label`, `comment: ...`). */
  changesOf(number: number): string[] {
    return this.changes
      .filter((c) => c.issue === number)
      .map((c) => (c.kind === "comment" ? `comment: ${c.body}` : `${c.kind === "label_added" ? "+" : "-"}${c.label}`));
  }

  // --- JSON as the REST API returns it -------------------------------------------------------

  repoJson(api: string) {
    return {
      id: REPO_ID,
      node_id: "R_kgDOfake",
      name: this.name,
      full_name: this.fullName,
      private: false,
      owner: { login: this.owner, id: 1, type: "Organization" },
      html_url: this.htmlUrl,
      url: `${api}/repos/${this.fullName}`,
      has_issues: this.hasIssues,
      default_branch: "main",
    };
  }

  labelJson(api: string, name: string) {
    return {
      id: 5000 + this.labels.indexOf(name),
      node_id: `LA_${name}`,
      url: `${api}/repos/${this.fullName}/labels/${encodeURIComponent(name)}`,
      name,
      color: "ededed",
      default: false,
      description: null,
    };
  }

  issueJson(api: string, issue: FakeIssue) {
    const kind = issue.isPullRequest ? "pull" : "issues";
    return {
      id: 900_000 + issue.number,
      node_id: `I_${issue.number}`,
      url: `${api}/repos/${this.fullName}/issues/${issue.number}`,
      repository_url: `${api}/repos/${this.fullName}`,
      html_url: `${this.htmlUrl}/${kind}/${issue.number}`,
      number: issue.number,
      state: issue.state,
      title: issue.title,
      body: issue.body,
      user: { login: "octocat", id: 2 },
      labels: issue.labels.map((l) => this.labelJson(api, l)),
      comments: issue.comments.length,
      ...(issue.isPullRequest
        ? {
            pull_request: {
              url: `${api}/repos/${this.fullName}/pulls/${issue.number}`,
              html_url: `${this.htmlUrl}/pull/${issue.number}`,
            },
          }
        : {}),
    };
  }

  commentJson(api: string, issue: FakeIssue, comment: FakeComment) {
    return {
      id: comment.id,
      node_id: `IC_${comment.id}`,
      url: `${api}/repos/${this.fullName}/issues/comments/${comment.id}`,
      html_url: `${this.htmlUrl}/issues/${issue.number}#issuecomment-${comment.id}`,
      body: comment.body,
      user: { login: "errand-bot", id: 3 },
    };
  }

  /** An `issues` webhook payload for the issue (spec 4.2), as the host would deliver it. */
  webhookPayload(issue: FakeIssue, action: "opened" | "labeled") {
    return {
      action,
      issue: {
        number: issue.number,
        title: issue.title,
        body: issue.body,
        html_url: `${this.htmlUrl}/issues/${issue.number}`,
        labels: issue.labels.map((name) => ({ name })),
      },
      repository: { full_name: this.fullName, html_url: this.htmlUrl },
    };
  }
}
