import { createHmac } from "node:crypto";
import { relative } from "node:path";
import type { TaskRun, Transition } from "../runs/task-run.js";
import { approveAsOperator } from "./approve-step.js";
import type { DemoMessage } from "./demo-targets.js";
import type { MessageRouter } from "./message-router.js";
import { createTimeline, type Timeline } from "./timeline.js";

/** A run the demo followed to its end. */
export interface Followed {
  run: TaskRun;
  timeline: Timeline;
  /** The approval the demo gave (with --approval), settled before the controller stops. */
  approving?: Promise<void> | undefined;
}

/** What the one-ticket step needs from the demo. */
export interface TicketStepContext {
  webhookPort: number;
  /** The controller's SQLite store. */
  dbPath: string;
  /** The demo's copy of the configuration (for `errand runs approve`). */
  config: string;
  router: MessageRouter;
  channels: readonly DemoMessage["target"][];
  /** The generic source's HMAC secret. */
  webhookSecret: string;
  /** controller/bin/errand.cjs. */
  bin: string;
  say(line?: string): void;
  bold(text: string): string;
  show(m: DemoMessage): void;
  printTransition(t: Transition): void;
}

/** A generic ticket with an id of its own (the store keeps earlier demos' tickets). */
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

/** Posts the ticket signed as the generic source checks it, and prints what the webhook answered. */
async function postTicket(c: TicketStepContext, body: string, id: string): Promise<Response> {
  const signature = `sha256=${createHmac("sha256", c.webhookSecret).update(body).digest("hex")}`;
  const response = await fetch(`http://127.0.0.1:${c.webhookPort}/webhooks/generic`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-webhook-signature": signature },
    body,
  });
  c.say(
    `${c.bold("ticket")}      POST /webhooks/generic  ${id} "Fix the flaky login test"  → ${response.status} ${response.status === 200 ? "(stored)" : await response.text()}`,
  );
  return response;
}

/** Today's step without a repository: a signed generic ticket, its run (approved with the CLI under --approval). */
export async function followTicket(c: TicketStepContext): Promise<Followed | undefined> {
  const { say } = c;
  const { body, id } = signedTicket();
  let approving: Promise<void> | undefined;
  const timeline = await createTimeline({
    dbPath: c.dbPath,
    ticket: { source: "generic", id },
    channels: c.channels,
    printTransition(t) {
      c.printTransition(t);
      if (t.to !== "AwaitingApproval") return;
      const shown = relative(process.cwd(), c.config);
      approving = approveAsOperator({ bin: c.bin, config: c.config, shown, runId: t.runId, say }).catch(
        (error: unknown) => {
          say(`approval failed: ${error instanceof Error ? error.message : String(error)}; stop the demo with Ctrl-C`);
        },
      );
    },
    printMessage: c.show,
  });
  c.router.use(timeline);
  const response = await postTicket(c, body, id);
  if (response.status !== 200) {
    await timeline.close();
    return undefined;
  }
  say();
  const run = await timeline.follow();
  return { run, timeline, approving };
}
