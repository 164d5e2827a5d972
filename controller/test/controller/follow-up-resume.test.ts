import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ControllerConfig, EngineConfig } from "../../src/config/controller-config.js";
import { type GitServer, startGitServer } from "../helpers/git-server.js";
import { hostASignature } from "../helpers/sign.js";
import {
  createHarness,
  eventually,
  finished,
  type InProcess,
  postTicket,
  runsOf,
  startInProcess,
  ticketBody,
} from "./harness.js";

const FAKES = resolve(import.meta.dirname, "../fixtures/engines");
const BIN = resolve(import.meta.dirname, "../../../node_modules/.bin/errand");
const errand = (args: string[]) =>
  spawnSync(BIN, args, { env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8", timeout: 20_000 });
const HOOK_SECRET = "follow-up-hook-secret";
const CODEHOST_TOKEN = "ghp_followUpTokenForTests0123456789";
// The fake claude's pull request (fixtures/engines/claude, FINAL).
const PR = "https://github.com/acme/widgets/pull/42";

const started: InProcess[] = [];
const gitServers: GitServer[] = [];
afterEach(async () => {
  for (const c of started.splice(0)) await c.stop();
  for (const g of gitServers.splice(0)) await g.close();
});

/** A review comment on the pull request, as code host A sends it. */
function reviewComment(body: string) {
  return JSON.stringify({
    action: "created",
    comment: {
      id: 9,
      body,
      path: "src/parse.ts",
      line: 12,
      author_association: "MEMBER",
      user: { login: "alice" },
    },
    pull_request: { number: 42, html_url: PR, head: { ref: "errand/1-fix" }, base: { ref: "main" } },
    repository: { name: "widgets", full_name: "acme/widgets", owner: { login: "acme" } },
    sender: { login: "alice" },
  });
}

describe("a follow-up run through the controller, on the claude_code preset's fake", () => {
  it("records the first run's session, and the follow-up resumes it with the review comments in its prompt", async () => {
    const h = createHarness({
      engine: "ok.sh",
      extra: `repositories:\n  codehost_a:\n    token_secret: codehost-a-token\n    bot_login: errand-bot\n`,
    });
    const record = join(h.dir, "record.json");
    const claudeConfig = join(h.dir, "claude-config");
    mkdirSync(claudeConfig);
    const usePreset = (config: ControllerConfig) => {
      const fixture = config.engines.byName.fixture as EngineConfig;
      // Where the fake files its sessions by working directory, as Claude Code does in ~/.claude.
      config.engines.byName.fixture = {
        ...fixture,
        kind: "claude_code",
        command: [join(FAKES, "claude")],
        env: { FAKE_CLI_RECORD: record, CLAUDE_CONFIG_DIR: claudeConfig },
      };
      config.webhook.secrets = { ...config.webhook.secrets, codehost_a: HOOK_SECRET };
    };
    // The ticket's repository, which the controller checks out for each run (repositories.codehost_a is set).
    const git = await startGitServer((password) => password === CODEHOST_TOKEN);
    gitServers.push(git);
    git.createRepository("acme/widgets.git", { "README.md": "# widgets\n" });
    const c = await startInProcess(h, usePreset, { ERRAND_SECRET_CODEHOST_A_TOKEN: CODEHOST_TOKEN });
    started.push(c);
    const { id, body } = ticketBody({ repo_url: `${git.url}/acme/widgets.git` });
    await postTicket(c.webhookPort, body);
    const first = await finished(c.controller.store, id);
    expect(first).toMatchObject({ state: "Succeeded", result: { pullRequestUrl: PR } });
    expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // The fake opened pull request 42 itself, from the branch it pushed: the one the follow-up continues.
    git.createBranch("acme/widgets.git", "errand/1-fix");

    const payload = reviewComment("@errand please guard against null");
    const answer = await fetch(`http://127.0.0.1:${c.webhookPort}/webhooks/codehost-a`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "pull_request_review_comment",
        "x-github-delivery": "review-1",
        "x-hub-signature-256": hostASignature(HOOK_SECRET, payload),
      },
      body: payload,
    });
    expect(await answer.json()).toEqual({ status: "accepted", tickets: [id] });
    const followUp = await eventually("the follow-up's end", async () => {
      const last = (await runsOf(c.controller.store, id)).at(-1);
      return last !== undefined && last.id !== first.id && last.finishedAt !== undefined ? last : undefined;
    });
    expect(followUp).toMatchObject({
      state: "Succeeded",
      attempt: 2,
      parentRunId: first.id,
      sessionId: first.sessionId,
      branch: "errand/1-fix",
    });
    const seen = JSON.parse(readFileSync(record, "utf8")) as { argv: string[]; stdin: string };
    expect(seen.argv.slice(seen.argv.indexOf("--resume"), seen.argv.indexOf("--resume") + 2)).toEqual([
      "--resume",
      first.sessionId,
    ]);
    expect(seen.stdin).toContain(
      "Review comments:\n- alice on src/parse.ts line 12: @errand please guard against null",
    );
    expect(seen.stdin).toContain("Branch: errand/1-fix");

    // The chain, from either end, in text and JSON; the list marks the follow-up.
    const config = ["--config", h.configFile];
    const parent = errand(["runs", "show", first.id, ...config]);
    expect(parent.status, parent.stderr).toBe(0);
    expect(parent.stdout).toContain(
      `Follow-ups\n  ● ${first.id}  Succeeded  ${PR}\n  → ${followUp.id}  Succeeded  follow-up on review comment by alice  ${PR}\n`,
    );
    const child = errand(["runs", "show", followUp.id, ...config, "--json"]);
    expect(JSON.parse(child.stdout).chain).toEqual({
      parent: { id: first.id, attempt: 1, state: "Succeeded", pullRequestUrl: PR },
      self: {
        id: followUp.id,
        attempt: 2,
        state: "Succeeded",
        pullRequestUrl: PR,
        trigger: "review comment by alice",
      },
      children: [],
    });
    const list = errand(["runs", ...config]);
    expect(list.stdout).toMatch(new RegExp(`${followUp.id}\\s+Succeeded\\s+generic:${id} ↳ follow-up`));
    expect(list.stdout).not.toMatch(new RegExp(`${first.id}\\s+Succeeded\\s+generic:${id} ↳`));
  });
});
