import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BlockPlan, pairBlocks, runBlock, shellBlocks } from "./doc-blocks.js";
import { REPO } from "./publish-packages.mjs";
import { startUserSession, type UserSession } from "./user-session.js";

// Every shell block of README.md, docs/author-guide.md, docs/publishing.md,
// cli/README.md and the scaffold's README, run exactly as written, in order,
// in temporary folders, against the test registry (Errand's packages
// published to it, everything else from registry.npmjs.org through it). A
// block that is not run says why here; a new or changed block fails the
// first test until it is given a plan. The blocks that install
// @errand/controller are left out with ERRAND_E2E_REGISTRY=0, as the registry
// e2e is.
const slow = process.env.ERRAND_E2E_REGISTRY !== "0";
const read = (path: string) => readFile(join(REPO, path), "utf8");

let root: string;
let session: UserSession;
let chat: Server;
const posted: string[] = [];
const dir = (...parts: string[]) => join(root, ...parts);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "docs-commands-"));
  session = await startUserSession(root, slow ? undefined : ["sdk", "cli", "cli/create-channel"]);
  for (const d of ["guide", "guide-interactive", "cli-dev", "cli-create", "scaffold-consumer"]) await mkdir(dir(d));
  // A chat service's web API, for the config.json the docs tell the reader to write.
  chat = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      posted.push(body);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ ok: true, ts: "1700000000.000100" }));
    });
  });
  await new Promise<void>((resolve) => chat.listen(0, "127.0.0.1", resolve));
}, 240_000);
afterAll(async () => {
  chat?.close();
  await session?.close();
  await rm(root, { recursive: true, force: true });
}, 120_000);

async function waitUntil(what: string, ms: number, done: () => boolean) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The files a reader writes before a block, as the text before it says. */
async function writeSendFiles(folder: string, channelId: string) {
  const api = `http://127.0.0.1:${(chat.address() as AddressInfo).port}/api`;
  await writeFile(
    join(folder, "config.json"),
    JSON.stringify({ channel_id: channelId, token_secret: "docs-bot-token", api_base_url: api }),
  );
  await writeFile(join(folder, "secrets.json"), JSON.stringify({ "docs-bot-token": "xoxb-docs-test" }));
}

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

// The conformance checks are timed (5 s a call, a declared rate): blocks that
// run them take turns, so that one document's checks never share the machine
// with another's.
let timedTurn: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const run = timedTurn.then(work);
  timedTurn = run.catch(() => undefined);
  return run;
}
const runsConformance = (block: string) => /channel test|npm run conformance/.test(block);

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
// see inTurn), and the suite runs one file at a time on two cores. The scaffold's README needs the scaffold
// cli/README.md makes, so those two run in turn, in one test.
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
    await runPlanned("docs/author-guide.md", [
      {
        match: "npx create-channel team-alerts\n",
        cwd: () => dir("guide-interactive"),
        terminal: true,
        after: async () =>
          expect(existsSync(dir("guide-interactive/team-alerts/node_modules/.bin/channel"))).toBe(true),
      },
      { match: "--template bot-api --name team_alerts", cwd: () => dir("guide") },
      { match: "cd team-alerts\nnpm run build", cwd: () => dir("guide") },
      {
        match: "--junit reports/channel.xml",
        cwd: () => dir("guide/team-alerts"),
        after: () => expect(existsSync(dir("guide/team-alerts/reports/channel.xml"))).toBe(true),
      },
      {
        match: "channel send start --config config.json",
        cwd: () => dir("guide/team-alerts"),
        before: () => writeSendFiles(dir("guide/team-alerts"), "C0GUIDE"),
        after: () => expect(posted.filter((p) => p.includes("C0GUIDE")).length).toBeGreaterThanOrEqual(2),
      },
      { match: "npx --no-install channel lint   # what would break", cwd: () => dir("guide/team-alerts") },
      { match: "npm pack\nmkdir ../try-team-alerts", cwd: () => dir("guide/team-alerts") },
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
  }, 900_000);

  it("cli/README.md, then the README of the scaffold it makes (the bot-api channel ops-alerts)", async () => {
    await runPlanned("cli/README.md", [
      {
        match: "npm install -D @errand/cli",
        cwd: () => dir("cli-dev"),
        before: async () =>
          writeFile(dir("cli-dev/package.json"), JSON.stringify({ name: "errand-channel-mine", version: "0.0.0" })),
        after: () => expect(existsSync(dir("cli-dev/node_modules/.bin/channel"))).toBe(true),
      },
      { match: "npx create-channel team-alerts   ", cwd: () => dir("cli-create"), terminal: true },
    ]);
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

  it("docs/publishing.md", async () => {
    await runPlanned("docs/publishing.md", [
      {
        match: "changeset version",
        skip: "a release: rewrites every package's version and changelog in place and publishes to registry.npmjs.org; test/registry/packages.test.ts runs changeset version on a copy",
      },
      { match: "npm run registry:local", skip: "runs until stopped; the next test runs it as written" },
    ]);
  });

  it("docs/publishing.md: npm run registry:local serves the clone's packages until Ctrl-C", async () => {
    const block = shellBlocks(await read("docs/publishing.md")).find((b) => b.includes("npm run registry:local"))!;
    // Its own port, and no second build: the suite builds first (npm test).
    const child = spawn("bash", ["-e", "-c", block], {
      cwd: REPO,
      env: { ...session.env, ERRAND_REGISTRY_PORT: "0", ERRAND_REGISTRY_BUILD: "0" },
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once("exit", (code, signal) => resolve([code, signal])),
    );
    const deadline = Date.now() + 180_000;
    while (!output.includes("stop it with Ctrl-C") && child.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(output).toContain("create-channel@");
    const npmrc = /export NPM_CONFIG_USERCONFIG=(\S+)/.exec(output)?.[1];
    expect(npmrc, output).toBeDefined();
    const view = await session.sh("npm view @errand/cli version", root, {
      env: { ...session.env, NPM_CONFIG_USERCONFIG: npmrc! },
    });
    expect(view.stdout).toBe(JSON.parse(await read("cli/package.json")).version);
    // Ctrl-C at a terminal: SIGINT to the foreground process group. npm's
    // script shell (sh) dies of it and npm passes that on, so the command ends
    // as an interrupted one (130 in the person's shell); what must hold is
    // that the registry stops and its npm config goes with it.
    process.kill(-child.pid!, "SIGINT");
    const [code, signal] = await exited;
    expect(signal === "SIGINT" || code === 130 || code === 0, `exit ${code}, signal ${signal}`).toBe(true);
    await waitUntil("registry:local to remove its npm config", 20_000, () => !existsSync(npmrc!));
    const port = new URL(/^\s*registry=(\S+)$/m.exec(output)![1]!).port;
    await expect(fetch(`http://127.0.0.1:${port}/-/ping`)).rejects.toThrow();
  }, 240_000);
});
