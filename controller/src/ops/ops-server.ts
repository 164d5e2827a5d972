import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import { httpListener } from "./http-listener.js";

/** One part of readiness: `critical` parts fail `/readyz`, the others only add detail. */
export interface ReadinessCheck {
  name: string;
  critical: boolean;
  check(): Promise<ReadinessResult> | ReadinessResult;
}

/** One part's state: `detail` is a sentence or, for parts with several members (channels), one entry each. */
export interface ReadinessResult {
  ok: boolean;
  detail: string | Record<string, unknown>;
}

/** Options of {@link createOpsServer}. */
export interface OpsServerOptions {
  host: string;
  port: number;
  registry: Registry;
  checks: readonly ReadinessCheck[];
  /** Paths served besides the ops endpoints (the console's `/console/...`): `handle` answers true when it took the request. */
  extra?: { handle(req: IncomingMessage, res: ServerResponse): boolean } | undefined;
}

/** The controller's operations endpoints: `/healthz`, `/readyz`, `/metrics`. */
export interface OpsServer {
  start(): Promise<AddressInfo>;
  /** Marks the controller as stopping: `/readyz` answers 503 from now on. */
  draining(): void;
  stop(): Promise<void>;
  readonly address: AddressInfo | undefined;
}

/**
 * Liveness says the process answers; readiness says it can take work (store
 * reachable, intake listening, loop started) and lists non-critical parts
 * (channels) without failing on them, so one broken chat room never takes a
 * controller out of its Service.
 */
export function createOpsServer(options: OpsServerOptions): OpsServer {
  let stopping = false;
  const readiness = async () => {
    const parts = await Promise.all(
      options.checks.map(async (c) => {
        try {
          return { name: c.name, critical: c.critical, ...(await c.check()) };
        } catch (error) {
          return {
            name: c.name,
            critical: c.critical,
            ok: false,
            detail: error instanceof Error ? error.message : String(error),
          };
        }
      }),
    );
    const ready = !stopping && parts.every((p) => p.ok || !p.critical);
    return { ready, stopping, checks: parts };
  };
  const server: Server = createServer((req, res) => {
    if (options.extra?.handle(req, res)) return;
    const path = (req.url ?? "/").split("?")[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      send(405, "text/plain; charset=utf-8", "method not allowed\n");
      return;
    }
    if (path === "/healthz") {
      send(200, "text/plain; charset=utf-8", "ok");
    } else if (path === "/readyz") {
      void readiness().then((r) => send(r.ready ? 200 : 503, "application/json", `${JSON.stringify(r)}\n`));
    } else if (path === "/metrics") {
      options.registry.metrics().then(
        (text) => send(200, options.registry.contentType, text),
        (error: unknown) =>
          send(
            500,
            "text/plain; charset=utf-8",
            `metrics failed: ${error instanceof Error ? error.message : String(error)}\n`,
          ),
      );
    } else {
      send(404, "text/plain; charset=utf-8", "not found: try /healthz, /readyz or /metrics\n");
    }
  });
  const listener = httpListener(server, options.host, options.port);
  return {
    get address() {
      return listener.address;
    },
    start: () => listener.start(),
    draining() {
      stopping = true;
    },
    stop: () => listener.stop(),
  };
}
