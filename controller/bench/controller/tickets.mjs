// Signed generic tickets POSTed to the controller's webhook intake over
// keep-alive connections: a closed-loop burst (saturation) and an open-loop
// stream at a fixed rate (latency), each recording when its 200 arrived.
import { createHmac } from "node:crypto";
import { Agent, request } from "node:http";
import { WEBHOOK_SECRET } from "./installation.mjs";

/** The body of bench ticket `id`, as it is POSTed. */
export function ticketBody(id) {
  return JSON.stringify({
    id,
    title: `Bench ticket ${id}`,
    description: "Make the failing checkout test pass.",
    repo_url: "https://github.com/acme/shop",
    labels: ["bench"],
  });
}

/** A client of one intake; `post` resolves with the status and the time (ms since the epoch) its answer arrived. */
export function createTicketClient(port, sockets) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const post = (id) =>
    new Promise((resolve) => {
      const body = ticketBody(id);
      const signature = `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex")}`;
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/webhooks/generic",
          agent,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            "x-webhook-signature": signature,
          },
        },
        (res) => {
          const at = Date.now();
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, at }));
        },
      );
      req.on("error", (error) => resolve({ status: 0, at: Date.now(), error }));
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}

/** POSTs `total` tickets with `concurrency` in flight; resolves with the count of answers other than 200. */
export async function burst(client, prefix, total, concurrency) {
  let next = 0;
  let bad = 0;
  const worker = async () => {
    while (next < total) {
      const r = await client.post(`${prefix}-${next++}`);
      if (r.status !== 200) bad++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return bad;
}

/**
 * Open loop: ticket i is sent at start + i / rate whatever the earlier ones
 * are doing. Resolves with each ticket's id and the time its 200 arrived.
 */
export async function openLoop(client, prefix, rate, total) {
  const answers = [];
  const pending = [];
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
    for (; sent < due; sent++) {
      const id = `${prefix}-${sent}`;
      pending.push(client.post(id).then((r) => answers.push({ id, ...r })));
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  return { answers, seconds: (performance.now() - start) / 1000 };
}
