import { existsSync } from "node:fs";
import type { Logger } from "@errand/channel-sdk";
import { ControllerError, ControllerErrorCode } from "../../errors.js";
import { createPollAdapter } from "../../sources/polling/create-poll-adapter.js";
import { openStore } from "../../store/open-store.js";
import type { Store } from "../../store/store.js";
import { painter } from "../format-run.js";
import { loadForCli, reportError } from "../load-for-cli.js";
import type { PollCommandOptions } from "./tickets.js";

/** One ticket of a dry-run poll and what the controller would do with it. */
export interface PollDecision {
  ticket: { source: string; id: string; title: string; url: string };
  decision: "pick_up" | "skip";
  reason: string;
  /** The ticket's latest run, when it has one. */
  run?: { id: string; state: string };
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

/** The body of `errand tickets poll --dry-run`; resolves with the exit code. */
export async function pollDryRun(options: PollCommandOptions): Promise<number> {
  let store: Store | undefined;
  try {
    const { config, secrets } = await loadForCli(options.config, true);
    if (config.ticketing === undefined) {
      throw new ControllerError(
        ControllerErrorCode.InvalidConfig,
        `no ticket source is configured${config.file ? ` in ${config.file}` : ""}`,
        {
          hint: "add a ticketing: section (backend, poll_interval, config); see docs/ticket-sources/",
        },
      );
    }
    const adapter = await createPollAdapter(config.ticketing, secrets);
    const ctx = { signal: new AbortController().signal, logger: quiet };
    await adapter.prepare(ctx);
    const candidates = await adapter.poll(ctx);
    // An installation that never ran has no store yet; opening one would create it, and a dry run writes nothing.
    if (config.store.backend !== "sqlite" || existsSync(config.store.path))
      store = await openStore(config.store, secrets, quiet);
    const decisions: PollDecision[] = [];
    for (const { ticket, skip } of candidates) {
      const [run] =
        store === undefined ? [] : await store.listRuns({ ticket: { source: ticket.source, id: ticket.id }, limit: 1 });
      const about = { source: ticket.source, id: ticket.id, title: ticket.title, url: ticket.externalUrl };
      if (skip !== undefined)
        decisions.push({
          ticket: about,
          decision: "skip",
          reason: skip,
          ...(run ? { run: { id: run.id, state: run.state } } : {}),
        });
      else if (run !== undefined)
        decisions.push({
          ticket: about,
          decision: "skip",
          reason: `already run (${run.id}, ${run.state}); errand runs retry ${run.id} starts it again`,
          run: { id: run.id, state: run.state },
        });
      else decisions.push({ ticket: about, decision: "pick_up", reason: "matches the rules and has no run yet" });
    }
    if (options.json) process.stdout.write(`${JSON.stringify(decisions, null, 2)}\n`);
    else process.stdout.write(formatDecisions(decisions, config.ticketing.backend));
    return 0;
  } catch (error) {
    return reportError(error);
  } finally {
    await store?.close();
  }
}

function formatDecisions(decisions: readonly PollDecision[], backend: string): string {
  const paint = painter(process.stdout);
  if (decisions.length === 0) return `${backend}: the poll returned no tickets\n`;
  const picked = decisions.filter((d) => d.decision === "pick_up").length;
  const lines = decisions.map((d) => {
    const mark = d.decision === "pick_up" ? paint("green", "pick up") : paint("dim", "skip   ");
    return `  ${mark}  ${d.ticket.source}:${d.ticket.id}  ${d.ticket.title}\n           ${paint("dim", d.reason)}`;
  });
  return `${backend}: the next poll would pick up ${picked} of ${decisions.length} ticket(s) (dry run: nothing was written)\n${lines.join("\n")}\n`;
}
