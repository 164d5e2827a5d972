import type { Logger } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { createApprovals } from "../../src/approvals/approvals.js";
import type { Approvals } from "../../src/runs/approvals-port.js";
import type { Store } from "../../src/store/store.js";
import { startConsole } from "./helpers/in-process-console.js";

const TOKEN = "console-approvals-token-0b7e";

/** A logger that keeps its warnings, to check that a refusal is logged. */
function recordingLogger(warnings: Array<{ message: string; fields: unknown }>): Logger {
  const logger: Logger = {
    debug() {},
    info() {},
    warn: (message: string, fields?: unknown) => void warnings.push({ message, fields }),
    error() {},
    child: () => logger,
  } as unknown as Logger;
  return logger;
}

/** The real approvals over the console's own store (created after the approvals are handed to the console). */
function lateApprovals(approvers: string[], logger: Logger): { approvals: Approvals; bind(store: Store): void } {
  let real: Approvals | undefined;
  return {
    approvals: { decide: (...args) => (real as Approvals).decide(...args) },
    bind: (store) => {
      real = createApprovals({ store, approvers, logger });
    },
  };
}

describe("approvals from the console", () => {
  it("refuses a token whose label is not an approver: 403, logged, shown, and the run still waits", async () => {
    const warnings: Array<{ message: string; fields: unknown }> = [];
    const late = lateApprovals(["alice"], recordingLogger(warnings));
    const c = await startConsole(
      { tokenSecret: "t", tokenLabel: "mallory" },
      { token: TOKEN, approvals: late.approvals },
    );
    late.bind(c.store);
    const [held] = await c.store.acceptTickets(
      [
        {
          id: "held",
          title: "held",
          description: "",
          ticketType: "bug_fix",
          repoUrl: "https://codehost.example/acme/app",
          externalUrl: "",
          labels: [],
          source: "generic",
        },
      ],
      "default",
      { needsApproval: () => true },
    );
    const runId = held?.runId as string;
    const response = await fetch(`${c.url}/console/runs/${runId}/approve`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      redirect: "manual",
    });
    expect(response.status).toBe(403);
    const page = await response.text();
    expect(page).toContain("console_not_approver");
    expect(page).toContain("mallory is not an approver");
    expect(warnings).toEqual([
      { message: "approval decision refused", fields: expect.objectContaining({ code: "not_approver" }) },
    ]);
    expect((await c.store.getRun(runId))?.state).toBe("AwaitingApproval");
    expect(await c.store.transitions(runId)).toHaveLength(1);
  });
});
