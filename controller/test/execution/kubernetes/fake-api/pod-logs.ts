import type { ServerResponse } from "node:http";
import { badRequest, type Raw } from "./status.js";

interface Line {
  /** Nanoseconds since the epoch. */
  at: bigint;
  text: string;
}

/** RFC 3339 with nanoseconds, trailing zeros trimmed, as the kubelet writes it. */
function stamp(at: bigint): string {
  const ms = Number(at / 1_000_000n);
  const base = new Date(ms).toISOString().slice(0, 19);
  const nanos = String(at % 1_000_000_000n)
    .padStart(9, "0")
    .replace(/0+$/, "");
  return `${base}${nanos === "" ? "" : `.${nanos}`}Z`;
}

function parseTime(text: string): bigint {
  const match = /^(.*?)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  const seconds = match === null ? Number.NaN : Date.parse(`${match[1]}${match[3]}`);
  if (match === null || Number.isNaN(seconds))
    throw badRequest(`invalid sinceTime ${JSON.stringify(text)}: not RFC 3339`);
  return BigInt(seconds) * 1_000_000n + BigInt((match[2] ?? "").padEnd(9, "0"));
}

/**
 * Container logs, as the kubelet serves them through the API server: lines
 * with their timestamps, `follow` streams that end when the container
 * ends, `sinceTime`, `tailLines` and `timestamps`.
 */
export class PodLogs {
  private readonly lines = new Map<string, Line[]>();
  private readonly ended = new Set<string>();
  private readonly followers = new Map<string, Set<{ res: ServerResponse; timestamps: boolean }>>();
  private clock = BigInt(Date.now()) * 1_000_000n;

  /** Appends lines, all with one timestamp (the kubelet stamps each chunk it reads). */
  append(pod: string, texts: string[]): void {
    // The kubelet's clock: real time, never backwards.
    const real = BigInt(Date.now()) * 1_000_000n + 123n;
    this.clock = real > this.clock ? real : this.clock + 1_000n;
    const list = this.lines.get(pod) ?? [];
    this.lines.set(pod, list);
    for (const text of texts) {
      const line = { at: this.clock, text };
      list.push(line);
      for (const f of this.followers.get(pod) ?? []) f.res.write(render(line, f.timestamps));
    }
  }

  /** The container ended: follow streams end. */
  end(pod: string): void {
    this.ended.add(pod);
    for (const f of this.followers.get(pod) ?? []) f.res.end();
    this.followers.delete(pod);
  }

  /** Every line, without timestamps. */
  text(pod: string): string {
    return (this.lines.get(pod) ?? []).map((l) => `${l.text}\n`).join("");
  }

  /** Cuts the follow streams of one pod. */
  cut(pod: string): void {
    for (const f of this.followers.get(pod) ?? []) f.res.destroy();
    this.followers.delete(pod);
  }

  /** Cuts every follow stream mid-way, as a dropped connection does. */
  dropStreams(): number {
    let count = 0;
    for (const set of this.followers.values()) {
      for (const f of set) {
        f.res.destroy();
        count += 1;
      }
      set.clear();
    }
    return count;
  }

  /** Answers GET .../pods/<name>/log. */
  serve(pod: Raw, query: URLSearchParams, res: ServerResponse): void {
    const name = pod.metadata.name as string;
    const container = query.get("container") ?? pod.spec.containers[0].name;
    const status = (pod.status.containerStatuses ?? []).find((c: Raw) => c.name === container);
    if (status === undefined) throw badRequest(`container ${container} is not valid for pod ${name}`);
    if (status.state?.waiting !== undefined)
      throw badRequest(`container "${container}" in pod "${name}" is waiting to start: ${status.state.waiting.reason}`);
    const since = query.get("sinceTime");
    const sinceAt = since === null ? undefined : parseTime(since);
    const timestamps = query.get("timestamps") === "true";
    let lines = (this.lines.get(name) ?? []).filter((l) => sinceAt === undefined || l.at >= sinceAt);
    const tail = query.get("tailLines");
    if (tail !== null) lines = lines.slice(Math.max(0, lines.length - Number(tail)));
    res.writeHead(200, { "content-type": "text/plain" });
    for (const line of lines) res.write(render(line, timestamps));
    if (query.get("follow") !== "true" || this.ended.has(name)) {
      res.end();
      return;
    }
    const set = this.followers.get(name) ?? new Set();
    this.followers.set(name, set);
    const follower = { res, timestamps };
    set.add(follower);
    res.on("close", () => set.delete(follower));
  }
}

function render(line: Line, timestamps: boolean): string {
  return timestamps ? `${stamp(line.at)} ${line.text}\n` : `${line.text}\n`;
}
