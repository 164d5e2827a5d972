import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { clock, formatDuration, painter } from "../cli/format-run.js";
import type { TaskRun, Transition } from "../runs/task-run.js";
import { approveAsOperator } from "./approve-step.js";
import { type DemoMessage, startDemoTargets } from "./demo-targets.js";
import { waitForControllerLogs } from "./follow.js";
import { createTimeline, type Timeline } from "./timeline.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const packageDir = resolve(here, "../..");
const paint = painter(process.stdout);
const say = (line = "") => process.stdout.write(`${line}\n`);

const WEBHOOK_SECRET = "demo-signing-secret-not-for-production";
const CHAT_TOKEN = "xoxb-0000000000-demo-token";
/** `npm start -- --approval`: every ticket waits for approval, and the demo approves it with the CLI. */
const APPROVAL = process.argv.includes("--approval");
const BIN = resolve(packageDir, "bin/errand.cjs");

/** Writes the demo's copy of controller/demo/errand.yaml with free ports and the stand-ins' addresses. */
function writeDemoConfig(dir: string, targets: { chatApiUrl: string; hookUrl: string }): string {
  const doc = parseDocument(readFileSync(resolve(packageDir, "demo/errand.yaml"), "utf8"));
  doc.setIn(["webhook", "port"], 0);
  doc.setIn(["ops", "port"], 0);
  doc.setIn(["engines", "demo", "command"], [resolve(packageDir, "demo/agent.mjs")]);
  doc.setIn(["notifications", "channels", 0, "config", "api_base_url"], targets.chatApiUrl);
  doc.setIn(["notifications", "channels", 1, "config", "url"], targets.hookUrl);
  if (APPROVAL) doc.setIn(["guardrails", "require_approval"], { always: true });
  // Secrets by name from a folder laid out as Kubernetes mounts a Secret: one file per secret.
  mkdirSync(resolve(dir, "secrets"), { recursive: true, mode: 0o700 });
  writeFileSync(resolve(dir, "secrets/demo-webhook-secret"), `${WEBHOOK_SECRET}\n`, { mode: 0o600 });
  writeFileSync(resolve(dir, "secrets/demo-chat-token"), `${CHAT_TOKEN}\n`, { mode: 0o600 });
  doc.set("secrets", { dir: "secrets" });
  const file = resolve(dir, "errand.yaml");
  writeFileSync(
    file,
    doc.toString().replace("$schema=../errand.schema.json", `$schema=${resolve(packageDir, "errand.schema.json")}`),
  );
  return file;
}

function signedTicket(): { body: string; id: string } {
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const id = `DEMO-${stamp}`;
  const body = JSON.stringify({
    id,
    title: "Fix the flaky login test",
    description: "The login test fails about one run in ten with a timeout waiting for the session cookie.",
    repo_url: "https://github.com/acme/shop",
    external_url: `https://tracker.example/acme/${id}`,
    labels: ["agent", "bug"],
  });
  return { body, id };
}

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

/** Posts the ticket signed as the generic source checks it, and prints what the webhook answered. */
async function postTicket(port: number, body: string, id: string): Promise<Response> {
  const signature = `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex")}`;
  const response = await fetch(`http://127.0.0.1:${port}/webhooks/generic`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-signature": signature },
    body,
  });
  say(
    `${paint("bold", "ticket")}      POST /webhooks/generic  ${id} "Fix the flaky login test"  → ${response.status} ${response.status === 200 ? "(stored)" : await response.text()}`,
  );
  return response;
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

async function main(): Promise<number> {
  const dir = resolve(".errand-demo");
  mkdirSync(dir, { recursive: true });
  say(paint("bold", "Errand demo: a signed ticket in, a coding agent run, every chat channel told"));
  say(
    paint(
      "dim",
      "  no external service, no credentials: the agent is controller/demo/agent.mjs, the chat platforms are local stand-ins",
    ),
  );
  say();
  const show = (m: DemoMessage) => say(`              ${paint("magenta", `${m.target} ▸`)} ${m.text}`);
  let timeline: Timeline | undefined;
  // Nothing posts before the ticket is in, and the timeline exists by then.
  const targets = await startDemoTargets(CHAT_TOKEN, (m) => (timeline ? timeline.message(m) : show(m)));
  const config = writeDemoConfig(dir, targets);
  const shown = relative(process.cwd(), config);
  const log = createWriteStream(resolve(dir, "controller.log"), { flags: "a" });
  const child = spawn(process.execPath, [BIN, "run", "--config", config], {
    stdio: ["ignore", "inherit", "pipe"],
  });
  child.stderr.pipe(log);
  const stopChild = () => (child.exitCode === null ? child.kill("SIGTERM") : undefined);
  process.once("SIGINT", stopChild);
  try {
    const ports = await waitForControllerLogs(child, 60_000);
    say(
      `${paint("bold", "controller")}  errand run --config ${shown}  ${paint("dim", `(webhook :${ports.webhook}, ops :${ports.ops}, log ${relative(process.cwd(), resolve(dir, "controller.log"))})`)}`,
    );
    const { body, id } = signedTicket();
    let approving: Promise<void> | undefined;
    timeline = await createTimeline({
      dbPath: resolve(dir, ".errand/errand.db"),
      ticket: { source: "generic", id },
      channels: ["chat_a", "webhook_post"],
      printTransition(t) {
        printTransition(t);
        if (t.to !== "AwaitingApproval") return;
        approving = approveAsOperator({ bin: BIN, config, shown, runId: t.runId, say }).catch((error: unknown) => {
          say(`approval failed: ${error instanceof Error ? error.message : String(error)}; stop the demo with Ctrl-C`);
        });
      },
      printMessage: show,
    });
    const response = await postTicket(ports.webhook, body, id);
    if (response.status !== 200) return 1;
    say();
    const run = await timeline.follow();
    await approving;
    // The controller tells the channels about the end before it exits.
    stopChild();
    await new Promise((r) => child.once("exit", r));
    await timeline.close();
    say();
    return reportRun(run, shown);
  } catch (error) {
    stopChild();
    process.stderr.write(
      `demo failed: ${error instanceof Error ? error.message : String(error)}\n  the controller's log: ${resolve(dir, "controller.log")}\n`,
    );
    return 1;
  } finally {
    await timeline?.close();
    await targets.close();
    log.end();
  }
}

process.exitCode = await main();
