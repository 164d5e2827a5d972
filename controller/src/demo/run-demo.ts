import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { clock, formatDuration, painter } from "../cli/format-run.js";
import type { TaskRun, Transition } from "../runs/task-run.js";
import { writeDemoConfig } from "./demo-config.js";
import { type DemoMessage, startDemoTargets } from "./demo-targets.js";
import { waitForControllerLogs } from "./follow.js";
import { createMessageRouter } from "./message-router.js";
import { type RepositoryDemo, startRepositoryDemo } from "./repository-loop.js";
import { type Followed, followTicket } from "./ticket-step.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const packageDir = resolve(here, "../..");
const paint = painter(process.stdout);
const say = (line = "") => process.stdout.write(`${line}\n`);

const WEBHOOK_SECRET = "demo-signing-secret-not-for-production";
const CHAT_TOKEN = "xoxb-0000000000-demo-token";
/** `npm start -- --approval`: every ticket waits for approval, and the demo approves it with the CLI. */
const APPROVAL = process.argv.includes("--approval");
const BIN = resolve(packageDir, "bin/errand.cjs");

/** The colour of a state in the timeline: how it went. */
const stateColour = (state: Transition["to"]) =>
  state === "Succeeded"
    ? "green"
    : state === "Running" || state === "Queued"
      ? "cyan"
      : state === "AwaitingApproval"
        ? "yellow"
        : "red";

/** One line of the run's timeline: when, the state it entered (coloured by how it went), and why. */
function printTransition(t: Transition): void {
  say(`${paint("dim", clock(t.at))}  ${paint(stateColour(t.to), t.to.padEnd(10))} ${t.reason}`);
}

/** Prints how the run ended and the commands to look at it again; the demo's exit code. */
function reportRun(run: TaskRun, shown: string): number {
  const r = run.result;
  if (r?.success) {
    say(
      `${paint("green", "✔ run succeeded")}  ${r.pullRequestUrl}  ${[r.costUsd === undefined ? "" : `$${r.costUsd.toFixed(2)}`, r.durationMs === undefined ? "" : formatDuration(r.durationMs)].filter(Boolean).join(", ")}`,
    );
  } else {
    say(`${paint("red", `✘ run ${run.state}`)}  ${r?.failureReason ?? run.reason}`);
  }
  say();
  say(paint("bold", "Inspect it:"));
  say(`  npx --no-install errand runs --config ${shown}`);
  say(`  npx --no-install errand runs show ${run.id} --config ${shown}`);
  say(
    `  npx --no-install errand run --config ${shown}     ${paint("dim", "# the controller on its own; stop it with Ctrl-C")}`,
  );
  return r?.success ? 0 : 1;
}

const CHANNELS = ["chat_a", "webhook_post"] as const;
const show = (m: DemoMessage) => say(`              ${paint("magenta", `${m.target} ▸`)} ${m.text}`);
const bold = (text: string) => paint("bold", text);
const step = { say, bold, show, printTransition, bin: BIN, webhookSecret: WEBHOOK_SECRET };

async function main(): Promise<number> {
  const dir = resolve(".errand-demo");
  mkdirSync(dir, { recursive: true });
  const loop: RepositoryDemo | undefined = APPROVAL ? undefined : await startRepositoryDemo(dir, say);
  say(
    paint(
      "bold",
      loop
        ? "Errand demo: an issue labelled on a local code host, an agent's commits, the pull request, a review, the follow-up"
        : "Errand demo: a signed ticket in, a coding agent run, every chat channel told",
    ),
  );
  const standIns = loop ? "the code host (git and its REST API) and the chat platforms" : "the chat platforms";
  say(
    paint(
      "dim",
      `  no external service, no credentials: the agent is controller/demo/agent.mjs, ${standIns} are local stand-ins`,
    ),
  );
  say();
  const router = createMessageRouter(show);
  const targets = await startDemoTargets(CHAT_TOKEN, (m) => router.deliver(m));
  const config = writeDemoConfig(dir, {
    packageDir,
    ...targets,
    webhookSecret: WEBHOOK_SECRET,
    chatToken: CHAT_TOKEN,
    approval: APPROVAL,
    repository: loop?.config,
  });
  const shown = relative(process.cwd(), config);
  const log = createWriteStream(resolve(dir, "controller.log"), { flags: "a" });
  const child = spawn(process.execPath, [BIN, "run", "--config", config], {
    stdio: ["ignore", "inherit", "pipe"],
  });
  child.stderr.pipe(log);
  const stopChild = () => (child.exitCode === null ? child.kill("SIGTERM") : undefined);
  process.once("SIGINT", stopChild);
  let followed: Followed | undefined;
  try {
    const ports = await waitForControllerLogs(child, 60_000);
    say(
      `${paint("bold", "controller")}  errand run --config ${shown}  ${paint("dim", `(webhook :${ports.webhook}, ops :${ports.ops}, log ${relative(process.cwd(), resolve(dir, "controller.log"))})`)}`,
    );
    const dbPath = resolve(dir, ".errand/errand.db");
    followed = loop
      ? await loop.follow({
          webhookPort: ports.webhook,
          dbPath,
          channels: CHANNELS,
          router,
          printTransition,
          printMessage: show,
          say,
          bold,
        })
      : await followTicket({ webhookPort: ports.webhook, dbPath, config, router, channels: CHANNELS, ...step });
    if (followed === undefined) return 1;
    await followed.approving;
    // The controller tells the channels about the end before it exits.
    stopChild();
    await new Promise((r) => child.once("exit", r));
    await followed.timeline.close();
    say();
    loop?.printBranch(say, bold);
    return reportRun(followed.run, shown);
  } catch (error) {
    stopChild();
    process.stderr.write(
      `demo failed: ${error instanceof Error ? error.message : String(error)}\n  the controller's log: ${resolve(dir, "controller.log")}\n`,
    );
    return 1;
  } finally {
    await followed?.timeline.close();
    await targets.close();
    await loop?.close();
    log.end();
  }
}

process.exitCode = await main();
