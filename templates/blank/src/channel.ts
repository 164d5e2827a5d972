import { createRequire } from "node:module";
import { defineChannel } from "@errand/channel-sdk";
import { z } from "zod";

const pkg = createRequire(import.meta.url)("../package.json") as { version: string };

interface State {
  prefix: string;
}

/**
 * `notifications.channels[].config`, checked by the SDK before init (any
 * Standard Schema works: zod, valibot, arktype). Every problem is reported
 * at once, with its path; init gets the schema's output.
 */
const configSchema = z.strictObject({
  prefix: z.string({ error: 'must be a string: set prefix: "[errand]" or leave it out' }).default("[errand]"),
});

/**
 * The {{name}} channel. A starting point: each handler logs the
 * notification (to stderr; stdout belongs to the protocol). Replace the
 * bodies with calls to your target, passing ctx.signal so a call stops at
 * its deadline; createHttpClient, createThrottle and retry from
 * @errand/channel-sdk do the hard parts.
 */
export const channel = defineChannel({
  name: "{{name}}",
  version: pkg.version,
  configSchema,
  init(config): State {
    return { prefix: config.prefix };
  },
  notify(message, ticket, ctx) {
    ctx.logger.info(`${ctx.state.prefix} ${message}`, { ticket: ticket.id, taskRunId: ctx.taskRunId });
  },
  notifyStart(ticket, ctx) {
    ctx.logger.info(`${ctx.state.prefix} started ${ticket.title}`, { ticket: ticket.id, engine: ctx.engine });
  },
  notifyComplete(ticket, result, ctx) {
    const outcome = result.success ? `completed ${ticket.title}` : `failed on ${ticket.title}: ${result.failureReason}`;
    ctx.logger.info(`${ctx.state.prefix} ${outcome}`, {
      ticket: ticket.id,
      pullRequestUrl: result.pullRequestUrl || undefined,
    });
  },
});
