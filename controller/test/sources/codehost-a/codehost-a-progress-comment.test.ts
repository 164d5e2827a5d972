import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createLogger } from "@errand/channel-sdk/host";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../../test/support/temp-dir.js";
import { loadControllerConfig } from "../../../src/config/load-controller-config.js";
import { type Controller, createController } from "../../../src/controller.js";
import { resolveSecrets } from "../../../src/secrets/resolve-secrets.js";
import { createHarness, eventually, SECRET_ENV, WEBHOOK_SECRET } from "../../controller/harness.js";
import { type GitServer, startGitServer } from "../../helpers/git-server.js";
import { ManualClock } from "../../helpers/manual-clock.js";
import { hostASignature } from "../../helpers/sign.js";
import { finishedRun } from "./controller-setup.js";
import type { FakeCodehostA } from "./fake-codehost-a.js";
import { fake } from "./setup.js";

const HOOK_SECRET = "codehost-a-progress-secret";
const PR = "https://codehost-a.test/acme/shop/pull/7";

const started: Controller[] = [];
const gitServers: GitServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
  await Promise.all(gitServers.splice(0).map((g) => g.close()));
});

/**
 * An engine that reports 30 steps at once (one of them carrying a secret
 * the controller knows), then waits for the file `go` before it succeeds.
 */
function engineScript(dir: string): string {
  const script = join(dir, "chatty.sh");
  writeFileSync(
    script,
    `#!/bin/sh
i=1
while [ $i -le 30 ]; do echo "::progress:: step $i"; i=$((i+1)); done
echo "::progress:: step 31 with ${WEBHOOK_SECRET} and @errand"
touch "${join(dir, "emitted")}"
while [ ! -e "${join(dir, "go")}" ]; do sleep 0.05; done
printf '{"success":true,"summary":"Fixed it.","pull_request_url":"${PR}","cost_usd":0.12,"duration_ms":65000}' > "$ERRAND_RESULT_FILE"
`,
    { mode: 0o755 },
  );
  return script;
}

/** What {@link start} started: the controller, the engine's folder, the webhook's port, the repository to name. */
interface Started {
  c: Controller;
  dir: string;
  port: number;
  /** The issue's repository, served over HTTP by git: the controller clones it for the run. */
  repoUrl: string;
  git: GitServer;
}

/**
 * A webhook-only controller with `repositories.codehost_a` on the fake, its
 * progress comments on `clock`: the controller's own comment observer, and a
 * real checkout of the issue's repository for the run.
 */
async function start(f: FakeCodehostA, clock: ManualClock): Promise<Started> {
  const git = await startGitServer((password) => password === f.token);
  gitServers.push(git);
  git.createRepository("acme/shop.git", { "README.md": "# shop\n" });
  const dir = tempDir("errand-progress-");
  const h = createHarness({
    engine: ["/bin/sh", engineScript(dir)],
    extra: `repositories:\n  codehost_a:\n    token_secret: codehost-a-token\n    api_base_url: ${f.url}\n    bot_login: errand-bot\n`,
  });
  const env = { ...SECRET_ENV, ERRAND_SECRET_CODEHOST_A_TOKEN: f.token };
  const { config } = await loadControllerConfig(h.configFile, { env });
  config.webhook.secrets = { ...config.webhook.secrets, codehost_a: HOOK_SECRET };
  const secrets = resolveSecrets(config, { env });
  const logger = createLogger({ level: "warn", write: () => {}, secrets: Object.values(secrets) });
  const c = await createController({ config, secrets, logger, progressCommentClock: clock });
  await c.start();
  started.push(c);
  const port = (c.sources[0] as { server?: { address?: { port: number } } }).server?.address?.port ?? 0;
  return { c, dir, port, repoUrl: `${git.url}/acme/shop.git`, git };
}

async function label({ port, repoUrl }: Started, f: FakeCodehostA, issue: number): Promise<number> {
  const body = JSON.stringify({
    action: "labeled",
    label: { name: "errand" },
    issue: { number: issue, title: "Fix checkout", body: "It breaks.", html_url: `${f.repo.htmlUrl}/issues/${issue}` },
    repository: { full_name: f.repo.fullName, html_url: repoUrl },
    sender: { login: "octocat" },
  });
  const response = await fetch(`http://127.0.0.1:${port}/webhooks/codehost-a`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-hub-signature-256": hostASignature(HOOK_SECRET, body),
    },
    body,
  });
  return response.status;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the progress comment on code host A", () => {
  it("one comment per run: created at the start, edited at most once per 10 s with the latest text, ending with the outcome and the pull request link", async () => {
    const f = await fake();
    const issue = f.repo.add({ title: "Fix checkout" });
    const clock = new ManualClock();
    const at = await start(f, clock);
    const { c, dir } = at;
    const writes = (method: string) => f.requests.filter((r) => r.method === method && r.path.includes("/comments"));
    const body = () => issue.comments[0]?.body ?? "";
    expect(await label(at, f, issue.number)).toBe(200);
    await eventually("the comment", () => (writes("POST").length === 1 ? true : undefined));
    expect(body()).toContain("**Errand is working on this**");
    await eventually("the steps", () => (existsSync(join(dir, "emitted")) ? true : undefined));
    // Each 10 s of the clock allows one edit at most, whatever the engine reports meanwhile.
    let windows = 0;
    while (!body().includes("step 31")) {
      const before = writes("PATCH").length;
      await sleep(100);
      expect(writes("PATCH").length - before).toBe(0);
      clock.advance(10_000);
      windows++;
      await sleep(100);
      expect(writes("PATCH").length - before).toBeLessThanOrEqual(1);
      expect(windows).toBeLessThan(40);
    }
    expect(writes("PATCH").length).toBeLessThan(31);
    expect(body()).not.toContain(WEBHOOK_SECRET);
    expect(body()).not.toMatch(/@errand/);
    const edits = writes("PATCH").length;
    writeFileSync(join(dir, "go"), "");
    const run = await finishedRun(c.store, issue.number);
    expect(run.state).toBe("Succeeded");
    expect(at.git.requests.some((r) => r.service === "git-upload-pack" && r.status === 200)).toBe(true);
    // The final edit waits for its turn, then comes once.
    await sleep(200);
    expect(writes("PATCH")).toHaveLength(edits);
    clock.advance(10_000);
    await eventually("the final edit", () => (body().includes("**Errand finished: Succeeded**") ? true : undefined));
    expect(body()).toContain(`Pull request: ${PR}`);
    expect(body()).toContain(`run \`${run.id}\``);
    expect(body()).toContain("(in 1 min 5 s, cost $0.12)");
    expect(body()).not.toContain(WEBHOOK_SECRET);
    clock.advance(60_000);
    await sleep(100);
    expect(writes("POST")).toHaveLength(1);
    expect(writes("PATCH")).toHaveLength(edits + 1);
    expect(issue.comments).toHaveLength(1);
  });

  it("a comment the host refuses never fails the run: it is counted, and the outcome still gets its comment", async () => {
    const f = await fake();
    const issue = f.repo.add({ title: "Fix checkout" });
    const at = await start(f, new ManualClock());
    const { c, dir } = at;
    f.inject({ kind: "error", status: 403 }, { match: /^POST .*\/comments$/ });
    expect(await label(at, f, issue.number)).toBe(200);
    writeFileSync(join(dir, "go"), "");
    const run = await finishedRun(c.store, issue.number);
    expect(run.state).toBe("Succeeded");
    await eventually("the outcome's comment", () => (issue.comments.length === 1 ? true : undefined));
    expect(issue.comments[0]?.body).toContain(`Pull request: ${PR}`);
    const failed = await c.registry.getSingleMetric("errand_progress_comment_errors_total")?.get();
    expect(failed?.values).toEqual([{ labels: { target: "codehost_a", step: "create" }, value: 1 }]);
  });
});
