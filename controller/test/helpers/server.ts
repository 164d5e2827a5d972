import type { Ticket } from "@errand/channel-sdk";
import { afterEach } from "vitest";
import { parseWebhookConfig } from "../../src/config/index.js";
import {
  type ApprovalCallback,
  type ApprovalHandler,
  createWebhookServer,
  type TicketHandler,
  type WebhookServer,
  type WebhookServerOptions,
} from "../../src/webhook/index.js";

/** A server under test and what its handlers received. */
export interface TestServer {
  base: string;
  port: number;
  server: WebhookServer;
  tickets: Ticket[];
  approvals: ApprovalCallback[];
  deliveries: Array<{ source: string; deliveryId: string | undefined; ids: string[] }>;
}

/** Options of {@link startServer}. */
export interface StartOptions extends Partial<Omit<WebhookServerOptions, "config">> {
  /** Runs in the recording ticket handler, which records after it and resolves with its result. */
  onTickets?: TicketHandler;
  /** Set false to run without an approval handler. */
  withApprovals?: boolean;
}

const running: WebhookServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

/**
 * Starts a real server on 127.0.0.1 with a random port from a `webhook`
 * section written as in YAML; stopped after each test.
 */
export async function startServer(webhook: Record<string, unknown>, options: StartOptions = {}): Promise<TestServer> {
  const { config } = parseWebhookConfig(
    { webhook: { host: "127.0.0.1", port: 0, ...webhook } },
    { env: process.env, baseDir: process.cwd() },
  );
  const tickets: Ticket[] = [];
  const approvals: ApprovalCallback[] = [];
  const deliveries: TestServer["deliveries"] = [];
  const onTickets: TicketHandler = async (batch, ctx) => {
    const result = options.onTickets ? await options.onTickets(batch, ctx) : undefined;
    tickets.push(...batch);
    deliveries.push({ source: ctx.source, deliveryId: ctx.deliveryId, ids: batch.map((t) => t.id) });
    return result;
  };
  const onApprovals: ApprovalHandler = (batch) => {
    approvals.push(...batch);
  };
  const { withApprovals, ...rest } = options;
  const server = createWebhookServer({
    ...rest,
    config,
    onTickets,
    ...(withApprovals === false ? {} : { onApprovals: options.onApprovals ?? onApprovals }),
  });
  running.push(server);
  const address = await server.start();
  return { base: `http://127.0.0.1:${address.port}`, port: address.port, server, tickets, approvals, deliveries };
}

/** The server's `errand_webhook_requests_total` for one outcome, summed over sources. */
export async function requestCount(t: TestServer, outcome: string): Promise<number> {
  const metrics = await t.server.registry.getMetricsAsJSON();
  const requests = metrics.find((m) => m.name === "errand_webhook_requests_total");
  return (requests?.values ?? []).filter((v) => v.labels.outcome === outcome).reduce((sum, v) => sum + v.value, 0);
}
