import { hostname, userInfo } from "node:os";
import { Command } from "commander";
import type { ApprovalDecision } from "../../runs/approvals-port.js";
import type { Actor } from "../../runs/task-run.js";
import { type Common, json, parseRunId, print, withCommonOptions } from "./runs-options.js";
import { quiet, withStore } from "./with-store.js";

type DecideOptions = Common & { reason?: string };

/** The person at this shell, as the run's timeline records them: the OS user on this host. */
export function cliActor(): Actor {
  let name: string;
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry (some containers): the uid still says who.
    name = `uid ${process.getuid?.() ?? "unknown"}`;
  }
  return { kind: "cli", name, from: hostname() };
}

/** `errand runs approve <id>` and `errand runs reject <id>`. */
export function createDecideCommand(decision: ApprovalDecision): Command {
  const approve = decision === "approve";
  return withCommonOptions(new Command(decision))
    .description(
      approve
        ? "approve a run awaiting approval: it is queued and starts when a slot is free"
        : "reject a run awaiting approval: it is Refused with the reason",
    )
    .argument("<run-id>", "the run's id", parseRunId)
    .option("-r, --reason <text>", "why, stored in the run's timeline")
    .action(async (id: string, options: DecideOptions) => {
      process.exitCode = await withStore(options, async (store, { config }) => {
        const { createApprovals } = await import("../../approvals/approvals.js");
        const approvals = createApprovals({ store, approvers: config.guardrails.approvers, logger: quiet });
        const outcome = await approvals.decide(id, decision, cliActor(), options.reason);
        if (options.json) json(outcome);
        if (outcome.kind === "decided") {
          if (!options.json) print(approve ? `${id} approved: queued\n` : `${id} rejected: Refused\n`);
          return 0;
        }
        if (!options.json) process.stderr.write(`errand: cannot ${decision} ${id}: ${outcome.message}\n`);
        return 1;
      });
    });
}
