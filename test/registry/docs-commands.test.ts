import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatApi, startChatApi } from "./chat-api.js";
import { type BlockPlan, inTurn, pairBlocks, runBlock, runsConformance, shellBlocks } from "./doc-blocks.js";
import { handOver } from "./hand-over.js";
import { REPO } from "./publish-packages.mjs";
import { workflowSteps } from "./scaffold-workflow.js";
import { announceTicketThroughController } from "./ticket-through-controller.js";
import { startUserSession, type UserSession } from "./user-session.js";

// Every shell block of README.md, docs/author-guide.md, docs/publishing.md,
// cli/README.md and the scaffold's README, run exactly as written, in order,
// in temporary folders, against the test registry (Errand's packages
// published to it, everything else from registry.npmjs.org through it). A
// block that is not run says why here; a new or changed block fails the
// first test until it is given a plan. The blocks that install
// @errand/controller are left out with ERRAND_E2E_REGISTRY=0.
//
// The whole path through a registry is checked here too, once, on what the
// docs' blocks make (one session, one publish of every package):
// - a scaffold from `npx create-channel` (interactive with every default: the
//   webhook template; with flags: bot-api) builds, passes its unit tests, the
//   conformance checks (the JUnit report: every check passed) and lint ("ready
//   to publish"), depends on the published SDK by a caret range, publishes,
//   and installs by name: the author's guide, cli/README.md, the scaffold's README;
// - the packed tarball, installed in a fresh folder, passes the conformance
//   checks through its installed bin, its manifest naming the channel: the
//   author's guide's `npm pack` block;
// - the scaffold's own GitHub workflow: each step run as written, on the
//   webhook scaffold cli/README.md makes;
// - the controller and the plugin installed by name in an empty folder
//   (the author's guide), then `errand run` with the plugin in errand.yaml: a
//   signed ticket's run is announced through the plugin, and the controller
//   stops cleanly on SIGTERM (ticket-through-controller.ts).
// npm run registry:local is run as written by registry-local.test.ts.
const slow = process.env.ERRAND_E2E_REGISTRY !== "0";
const read = (path: string) => readFile(join(REPO, path), "utf8");

let root: string;
let session: UserSession;
let chat: ChatApi;
const dir = (...parts: string[]) => join(root, ...parts);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "docs-commands-"));
  session = await startUserSession(root, slow ? undefined : ["sdk", "cli", "cli/create-channel"]);
  for (const d of ["guide", "guide-interactive", "cli-dev", "cli-create", "scaffold-consumer"]) await mkdir(dir(d));
  // A chat service's web API, for the config.json the docs tell the reader to write.
  chat = await startChatApi();
}, 240_000);
afterAll(async () => {
  await chat?.close();
  await session?.close();
  await rm(root, { recursive: true, force: true });
}, 120_000);

/** The files a reader writes before a block, as the text before it says. */
async function writeSendFiles(folder: string, channelId: string) {
  await writeFile(
    join(folder, "config.json"),
    JSON.stringify({ channel_id: channelId, token_secret: "docs-bot-token", api_base_url: chat.url }),
  );
  await writeFile(join(folder, "secrets.json"), JSON.stringify({ "docs-bot-token": "xoxb-docs-test" }));
}

const guideServer = handOver("docs/author-guide.md's errand-server (the controller and the plugin installed)");
const webhookScaffold = handOver("cli/README.md's interactive scaffold (cli-create/team-alerts)");

interface Plan extends BlockPlan {
  /** The folder the block runs in. */
  cwd?: () => string;
  /** Runs on a terminal, Enter pressed at every question. */
  terminal?: boolean;
  before?: () => Promise<void>;
  after?: (output: string) => Promise<void> | void;
  /** Not run with ERRAND_E2E_REGISTRY=0, for this reason. */
  slowReason?: string;
  /** Runs after the document's other blocks (it needs what a later block does, such as a publish). */
  last?: boolean;
}

async function runPlanned(doc: string, plans: Plan[], blocks?: string[]) {
  const pairs = pairBlocks(doc, blocks ?? shellBlocks(await read(doc)), plans);
  for (const { block, plan } of [...pairs.filter((p) => !p.plan.last), ...pairs.filter((p) => p.plan.last)]) {
    if (plan.skip || (plan.slowReason && !slow)) {
      process.stderr.write(`docs: not run (${doc}): ${block.split("\n")[0]} — ${plan.skip ?? plan.slowReason}\n`);
      continue;
    }
    await plan.before?.();
    const start = () => runBlock(block, plan.cwd!(), session.env, plan.terminal);
    const run = await (runsConformance(block) ? inTurn(start) : start());
    expect(run.code, `${doc}:\n${block}\n---\n${run.output}`).toBe(0);
    await plan.after?.(run.output);
  }
}

// The documents run side by side (one session, one publish): most of their
// time is npm and the timed conformance checks waiting (those take turns,
// see inTurn). The scaffold's README needs the scaffold cli/README.md makes,
// so those two run in turn, in one test; the tests that use what another
// makes (the workflow's scaffold, the guide's errand-server) wait for it
// (hand-over.ts) and run beside the rest.
describe.concurrent("the commands of the docs, as written", () => {
  it("README.md: every block has a plan", async () => {
    await runPlanned("README.md", [
      {
        match: "npm install && npm start",
        skip: "installs, builds and tests this checkout in place (npm test runs this very suite, which .ci/run runs); npm start's program, the built demo, is run by controller/test/demo/run-demo.test.ts",
      },
    ]);
  });

  it("docs/author-guide.md, sections 1 to 5", async () => {
    const guide = runPlanned("docs/author-guide.md", [
      {
        match: "npx create-channel team-alerts\n",
        cwd: () => dir("guide-interactive"),
        terminal: true,
        after: async () =>
          expect(existsSync(dir("guide-interactive/team-alerts/node_modules/.bin/channel"))).toBe(true),
      },
      {
        match: "--template bot-api --name team_alerts",
        cwd: () => dir("guide"),
        // The SDK as published, by a caret range.
        after: async () =>
          expect(
            JSON.parse(await readFile(dir("guide/team-alerts/package.json"), "utf8")).dependencies[
              "@errand/channel-sdk"
            ],
          ).toMatch(/^\^\d+\.\d+\.\d+$/),
      },
      { match: "cd team-alerts\nnpm run build", cwd: () => dir("guide") },
      {
        match: "--junit reports/channel.xml",
        cwd: () => dir("guide/team-alerts"),
        // Every check passed: none failed, none skipped.
        after: async () =>
          expect(await readFile(dir("guide/team-alerts/reports/channel.xml"), "utf8")).toMatch(
            /<testsuites name="channel test" tests="[1-9]\d*" failures="0" skipped="0"/,
          ),
      },
      {
        match: "channel send start --config config.json",
        cwd: () => dir("guide/team-alerts"),
        before: () => writeSendFiles(dir("guide/team-alerts"), "C0GUIDE"),
        after: () => expect(chat.posted.filter((p) => p.includes("C0GUIDE")).length).toBeGreaterThanOrEqual(2),
      },
      {
        match: "npx --no-install channel lint   # what would break",
        cwd: () => dir("guide/team-alerts"),
        after: (out) => expect(out).toContain("ready to publish"),
      },
      {
        match: "npm pack\nmkdir ../try-team-alerts",
        cwd: () => dir("guide/team-alerts"),
        after: async () =>
          expect(
            JSON.parse(
              await readFile(dir("guide/try-team-alerts/node_modules/errand-channel-team-alerts/package.json"), "utf8"),
            ).errand.channel,
          ).toBe("team_alerts"),
      },
      {
        match: "mkdir errand-server",
        cwd: () => dir("guide"),
        slowReason: "installs @errand/controller (left out with ERRAND_E2E_REGISTRY=0)",
        // The YAML block that follows: "Add the channel to errand.yaml".
        after: async () =>
          writeFile(
            dir("guide/errand-server/errand.yaml"),
            /```yaml\n(# errand\.yaml\nnotifications:[\s\S]*?token_secret: team-alerts-bot-token\n)```/.exec(
              await read("docs/author-guide.md"),
            )![1]!,
          ),
      },
      {
        match: "errand config check",
        cwd: () => dir("guide/errand-server"),
        slowReason: "needs the controller installed by the block before",
        after: (out) => expect(out).toMatch(/team_alerts +team_alerts +0\.1\.0 +1 +up +healthy/),
      },
      {
        match: "errand channels check team_alerts",
        skip: "posts for real to the reader's chat service (chat.example.com in the template) with their bot token",
      },
    ]);
    await guideServer.from(guide);
  }, 900_000);

  it.skipIf(!slow)(
    "then the controller the guide installs announces a ticket's run through the plugin installed by name",
    async () => {
      await guideServer.ready;
      expect(session.registry.published().map((p) => p.name)).toContain("errand-channel-team-alerts");
      await announceTicketThroughController({
        server: dir("guide/errand-server"),
        env: session.env,
        chatApi: chat.url,
        posted: chat.posted,
      });
    },
    900_000,
  );

  it("cli/README.md, then the README of the scaffold it makes (the bot-api channel ops-alerts)", async () => {
    const cliReadme = runPlanned("cli/README.md", [
      {
        match: "npm install -D @errand/cli",
        cwd: () => dir("cli-dev"),
        before: async () =>
          writeFile(dir("cli-dev/package.json"), JSON.stringify({ name: "errand-channel-mine", version: "0.0.0" })),
        after: () => expect(existsSync(dir("cli-dev/node_modules/.bin/channel"))).toBe(true),
      },
      { match: "npx create-channel team-alerts   ", cwd: () => dir("cli-create"), terminal: true },
    ]);
    await webhookScaffold.from(cliReadme);
    const scaffold = dir("cli-create/ops-alerts");
    const readme = await readFile(join(scaffold, "README.md"), "utf8");
    await runPlanned(
      "templates/common/README.md",
      [
        { match: "npm install\nnpm run build", cwd: () => scaffold },
        {
          match: "channel send start --config config.json",
          cwd: () => scaffold,
          before: () => writeSendFiles(scaffold, "C0SCAFFOLD"),
        },
        { match: "npx --no-install channel lint", cwd: () => scaffold },
        // "Install the package beside the controller": once it is published, by the Publish block.
        {
          match: "npm install errand-channel-ops-alerts",
          cwd: () => dir("scaffold-consumer"),
          last: true,
          before: () => writeFile(dir("scaffold-consumer/package.json"), "{}"),
        },
      ],
      shellBlocks(readme),
    );
    expect(existsSync(dir("scaffold-consumer/node_modules/.bin/errand-channel-ops-alerts"))).toBe(true);
  }, 900_000);

  it("the scaffold's GitHub workflow, each step as the workflow writes it, on cli/README.md's webhook scaffold", async () => {
    await webhookScaffold.ready;
    const scaffold = dir("cli-create/team-alerts");
    const pkg = JSON.parse(await readFile(join(scaffold, "package.json"), "utf8"));
    expect(pkg.errand.template).toMatch(/^webhook@/);
    const steps = await workflowSteps(scaffold);
    expect(steps.length).toBeGreaterThanOrEqual(5);
    for (const step of steps) {
      const start = () => session.sh(step, scaffold);
      const run = await (runsConformance(step) ? inTurn(start) : start());
      expect(run.exitCode, `${step}\n${run.all}`).toBe(0);
      if (step.includes("channel lint")) expect(run.all).toContain("ready to publish");
    }
  }, 900_000);

  it("docs/publishing.md", async () => {
    await runPlanned("docs/publishing.md", [
      {
        match: "changeset version",
        skip: "a release: rewrites every package's version and changelog in place and publishes to registry.npmjs.org; test/registry/packages.test.ts runs changeset version on a copy",
      },
      { match: "npm run registry:local", skip: "runs until stopped; registry-local.test.ts runs it as written" },
    ]);
  });
});
