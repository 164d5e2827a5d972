import { defineChannel, InvalidConfigError } from "@errand/channel-sdk";
import { createRequire } from "node:module";

const pkg = createRequire(import.meta.url)("../package.json") as { version: string };

interface State {
  prefix: string;
}

/**
 * The {{name}} channel. A starting point: each handler logs the
 * notification (to stderr; stdout belongs to the protocol). Replace the
 * bodies with calls to your target, passing ctx.signal so a call stops at
 * its deadline; createHttpClient, createThrottle and retry from
 * @errand/channel-sdk do the hard parts.
 */
export const channel = defineChannel<State>({
  name: "{{name}}",
  version: pkg.version,
  init(config) {
    const prefix = config.prefix ?? "[errand]";
    if (typeof prefix !== "string") {
      throw new InvalidConfigError("config.prefix must be a string", { hint: 'set prefix: "[errand]" or leave it out' });
    }
    return { prefix };
  },
  notify(message, ticket, ctx) {
    ctx.logger.info(`${ctx.state.prefix} ${message}`, { ticket: ticket.id, taskRunId: ctx.taskRunId });
  },
  notifyStart(ticket, ctx) {
    ctx.logger.info(`${ctx.state.prefix} started ${ticket.title}`, { ticket: ticket.id, engine: ctx.engine });
  },
  notifyComplete(ticket, result, ctx) {
    const outcome = result.success ? `completed ${ticket.title}` : `failed on ${ticket.title}: ${result.failureReason}`;
    ctx.logger.info(`${ctx.state.prefix} ${outcome}`, { ticket: ticket.id, pullRequestUrl: result.pullRequestUrl || undefined });
  },
});
