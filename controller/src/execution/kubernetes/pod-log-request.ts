import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";

/** A non-200 answer to a log request: its status and the Status body. */
export class LogRequestError extends Error {
  override readonly name = "LogRequestError";
  constructor(
    readonly statusCode: number,
    readonly body: string,
  ) {
    super(`HTTP ${statusCode}`);
  }
}

/** What to read of a container's log. */
export interface LogQuery {
  follow: boolean;
  sinceTime: string | undefined;
}

/**
 * Opens `GET /api/v1/namespaces/<ns>/pods/<pod>/log` with the KubeConfig's
 * credentials, TLS settings and proxy (applyToHTTPSOptions), and resolves
 * with the answer's body stream. Not through the client's Log helper: it
 * pipes into a stream of ours and drops the body's errors, so a follow cut
 * by the network would never end; with the answer in hand, a cut shows as
 * `close` before `end`. Rejects with a LogRequestError for a non-200 answer.
 */
export async function requestPodLog(
  kubeConfig: KubeConfig,
  namespace: string,
  pod: string,
  container: string,
  query: LogQuery,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const server = kubeConfig.getCurrentCluster()?.server;
  if (server === undefined) throw new Error("the kubeconfig has no current cluster");
  const url = new URL(
    `${server.replace(/\/$/, "")}/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`,
  );
  url.searchParams.set("container", container);
  url.searchParams.set("timestamps", "true");
  if (query.follow) url.searchParams.set("follow", "true");
  if (query.sinceTime !== undefined) url.searchParams.set("sinceTime", query.sinceTime);
  const options: https.RequestOptions = { method: "GET", headers: { accept: "text/plain, */*" } };
  await kubeConfig.applyToHTTPSOptions(options);
  const client = url.protocol === "https:" ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = client.request(url, { ...options, signal }, (response) => {
      if (response.statusCode === 200) {
        resolve(response);
        return;
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        reject(new LogRequestError(response.statusCode ?? 0, Buffer.concat(chunks).toString("utf8"))),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}
