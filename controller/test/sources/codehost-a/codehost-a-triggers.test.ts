import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { mentions } from "../../../src/vendors/codehost-a/codehost-a-triggers.js";
import { createHarness, eventually, type InProcess, startInProcess } from "../../controller/harness.js";
import { hostASignature } from "../../helpers/sign.js";
import { runsOfIssue } from "./controller-setup.js";

const HOOK_SECRET = "codehost-a-trigger-secret";
const require = createRequire(import.meta.url);
type Example = Record<string, unknown> & { action?: string; issue?: Record<string, unknown> };
const groups = require("@octokit/webhooks-examples/api.github.com/index.json") as Array<{
  name: string;
  examples: Example[];
}>;
const examples = (event: string) => groups.find((g) => g.name === event)?.examples ?? [];
const example = (event: string, action: string): Example => {
  const found = examples(event).find((e) => e.action === action);
  if (found === undefined) throw new Error(`no ${event}.${action} example`);
  return structuredClone(found);
};

const started: InProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});

/** A controller, webhook-only (no `ticketing`), with `repositories.codehost_a` written as `keys`. */
async function controllerWith(keys: string): Promise<InProcess> {
  const h = createHarness({
    engine: "ok.sh",
    extra: `repositories:\n  codehost_a:\n    token_secret: codehost-a-token\n${keys}`,
  });
  const c = await startInProcess(
    h,
    (config) => {
      config.webhook.secrets = { ...config.webhook.secrets, codehost_a: HOOK_SECRET };
    },
    { ERRAND_SECRET_CODEHOST_A_TOKEN: "ghp_unused_here" },
  );
  started.push(c);
  return c;
}

/** POSTs a signed code host A event; returns the status and the JSON answer. */
async function deliver(c: InProcess, event: string, payload: Example): Promise<{ status: number; json: unknown }> {
  const body = JSON.stringify(payload);
  const response = await fetch(`http://127.0.0.1:${c.webhookPort}/webhooks/codehost-a`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-hub-signature-256": hostASignature(HOOK_SECRET, body),
    },
    body,
  });
  return { status: response.status, json: await response.json() };
}

/** The example with the issue renumbered, so each event is its own ticket. */
function onIssue(payload: Example, number: number): Example {
  (payload.issue as Record<string, unknown>).number = number;
  return payload;
}

function labeled(number: number, label: string): Example {
  const p = onIssue(example("issues", "labeled"), number);
  (p.label as Record<string, unknown>).name = label;
  return p;
}

function assigned(number: number, login: string): Example {
  const p = onIssue(example("issues", "assigned"), number);
  (p.assignee as Record<string, unknown>).login = login;
  return p;
}

function commented(number: number, body: string, association: string, login = "Codertocat", pr = false): Example {
  const p = onIssue(example("issue_comment", "created"), number);
  // The published examples are all on issues; a comment on a pull request carries the host's pull_request object.
  if (pr) (p.issue as Record<string, unknown>).pull_request = pullRequestLink(number);
  const comment = p.comment as Record<string, unknown>;
  Object.assign(comment, { body, author_association: association });
  (comment.user as Record<string, unknown>).login = login;
  return p;
}

function pullRequestLink(number: number) {
  const api = "https://api.github.com/repos/Codertocat/Hello-World";
  const html = `https://github.com/Codertocat/Hello-World/pull/${number}`;
  return {
    url: `${api}/pulls/${number}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    merged_at: null,
  };
}

/** The host's example review, asking for changes: a follow-up, were the pull request one of errand's. */
function changesRequested(): Example {
  const p = example("pull_request_review", "submitted");
  (p.review as Record<string, unknown>).state = "changes_requested";
  return p;
}

const accepted = (n: number) => ({ status: 200, json: { status: "accepted", tickets: [String(n)] } });
const ignored = (reason: string) => ({ status: 200, json: { status: "ignored", reason } });

describe("code host A trigger rules (repositories.codehost_a)", () => {
  it("starts runs on the trigger label, an assignment to the bot, and a mention by a writer; ignores the rest with the reason", async () => {
    const c = await controllerWith("    bot_login: errand-bot\n");
    expect(await deliver(c, "issues", labeled(101, "errand"))).toEqual(accepted(101));
    expect(await deliver(c, "issues", labeled(102, "bug"))).toEqual(
      ignored("issues.labeled with label bug, not the trigger label errand"),
    );
    expect(await deliver(c, "issues", assigned(103, "Errand-Bot"))).toEqual(accepted(103));
    expect(await deliver(c, "issues", assigned(104, "octocat"))).toEqual(
      ignored("issues.assigned to octocat, not the bot login errand-bot"),
    );
    const writers = { OWNER: 111, MEMBER: 112, COLLABORATOR: 113 };
    for (const [association, n] of Object.entries(writers)) {
      expect(await deliver(c, "issue_comment", commented(n, "@errand please fix this", association))).toEqual(
        accepted(n),
      );
    }
    expect(await deliver(c, "issue_comment", commented(120, "hey @errand, fix it", "CONTRIBUTOR", "mallory"))).toEqual(
      ignored(
        "issue_comment mentioning @errand by mallory, whose author_association CONTRIBUTOR is not OWNER, MEMBER or COLLABORATOR",
      ),
    );
    expect(await deliver(c, "issue_comment", commented(121, "looks good to me", "OWNER"))).toEqual(
      ignored("issue_comment without the mention @errand"),
    );
    expect(await deliver(c, "issue_comment", commented(122, "@errand on it", "MEMBER", "errand-bot"))).toEqual(
      ignored("issue_comment by the bot login errand-bot itself"),
    );
    // A comment on a pull request is the follow-up rules' to judge, not the triggers': this one no run of errand opened.
    expect(
      await deliver(c, "issue_comment", commented(123, "@errand address this", "OWNER", "Codertocat", true)),
    ).toEqual(ignored("pull request https://github.com/Codertocat/Hello-World/pull/123 was not opened by errand"));
    const edited = onIssue(example("issue_comment", "edited"), 124);
    expect(await deliver(c, "issue_comment", edited)).toEqual(
      ignored("issue_comment.edited is not a trigger (only new comments are)"),
    );
    expect(await deliver(c, "issues", onIssue(example("issues", "opened"), 125))).toEqual(
      ignored(
        "issues.opened is not a trigger (triggers: the label errand, assignment to errand-bot, a comment mentioning @errand)",
      ),
    );
    const runs = (n: number) => runsOfIssue(c.controller.store, n);
    for (const n of [101, 103, ...Object.values(writers)])
      await eventually(`the run of #${n}`, async () => ((await runs(n)).length === 1 ? n : undefined));
    for (const n of [102, 104, 120, 121, 122, 123, 124, 125]) expect(await runs(n)).toHaveLength(0);
  });

  it("assignment starts no run without bot_login, nor with triggers.assignee false; the label and phrase are configurable", async () => {
    const noBot = await controllerWith("    triggers: { label: agent, mention: /fix }\n");
    expect(await deliver(noBot, "issues", assigned(201, "errand-bot"))).toEqual(
      ignored(
        "issues.assigned to errand-bot: repositories.codehost_a.bot_login is not set, so assignment starts no run",
      ),
    );
    expect(await deliver(noBot, "issues", labeled(202, "errand"))).toEqual(
      ignored("issues.labeled with label errand, not the trigger label agent"),
    );
    expect(await deliver(noBot, "issues", labeled(203, "agent"))).toEqual(accepted(203));
    expect(await deliver(noBot, "issue_comment", commented(204, "@errand do it", "OWNER"))).toEqual(
      ignored("issue_comment without the mention /fix"),
    );
    expect(await deliver(noBot, "issue_comment", commented(205, "/fix", "OWNER"))).toEqual(accepted(205));
    const off = await controllerWith("    bot_login: errand-bot\n    triggers: { assignee: false }\n");
    expect(await deliver(off, "issues", assigned(206, "errand-bot"))).toEqual(
      ignored("issues.assigned: repositories.codehost_a.triggers.assignee is false"),
    );
    expect(await deliver(off, "pull_request_review", changesRequested())).toEqual(
      ignored("pull request https://github.com/Codertocat/Hello-World/pull/2 was not opened by errand"),
    );
    expect(await deliver(off, "push", { ref: "refs/heads/main" })).toEqual(
      ignored("event push is not a trigger (triggers: the label errand, a comment mentioning @errand)"),
    );
  });

  it("a mention is the phrase as a word of its own, in any case", () => {
    const cases: Array<[string, boolean]> = [
      ["@errand please fix", true],
      ["Hi @Errand, the test fails", true],
      ["(@errand)", true],
      ["fix it\n@errand", true],
      ["@errand-bot fix it", false],
      ["@errandbot fix it", false],
      ["mail me@errand.dev", false],
      ["errand please", false],
    ];
    for (const [body, expected] of cases) expect([body, mentions(body, "@errand")]).toEqual([body, expected]);
  });
});
