import { hostname } from "node:os";
import type { Ticket } from "@errand/channel-sdk";
import type { TaskRun } from "../runs/task-run.js";

/**
 * Where the operator's web console shows a run:
 * `http://<ops host>:<ops port>/console/runs/<id>`. A wildcard host
 * (0.0.0.0, ::) is replaced by this machine's name, which people can open.
 */
export function consoleRunUrl(host: string, port: number, runId: string): string {
  const name = host === "0.0.0.0" || host === "::" || host === "" ? hostname() : host;
  const shown = name.includes(":") ? `[${name}]` : name;
  return `http://${shown}:${port}/console/runs/${encodeURIComponent(runId)}`;
}

/**
 * The channels' message about a run that waits: what waits, where to decide, and the CLI commands. No console line
 * when `consoleUrl` is undefined (`console.enabled: false`).
 */
export function waitingMessage(run: TaskRun, ticket: Ticket, consoleUrl: string | undefined): string {
  return [
    `Awaiting approval: run ${run.id} for ${ticket.source} ticket ${ticket.id} "${ticket.title}".`,
    ...(consoleUrl === undefined ? [] : [`Approve or reject it in the console: ${consoleUrl}`]),
    `or on the controller's host: errand runs approve ${run.id} (or: errand runs reject ${run.id} --reason "...")`,
  ].join("\n");
}
