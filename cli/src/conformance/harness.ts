import { type Sink, startSink } from "@errand/channel-sdk/testing";
import { unaryCall, type TaskResult, type Ticket } from "@errand/channel-sdk/protocol";
import { CheckFailure, type CheckEnvironment } from "./check.js";
import { withSinkUrl } from "./config.js";
import { type Relay, startRelay } from "./relay.js";
import { describeCallError, PluginSession } from "./session.js";

/** Per-call target of the interface. */
export const CALL_TARGET_MS = 5000;

/** A plugin started and handshaken for a check, with its sink when there is a config. */
export interface OpenChannel {
  session: PluginSession;
  sink: Sink | undefined;
  relay: Relay | undefined;
  name: string;
  version: string;
}

/** The result of one timed notification call. */
export interface TimedCall {
  ok: boolean;
  code: number | undefined;
  text: string;
  ms: number;
  endedAt: number;
}

/** Starts a sink (answering the config's success answer) and a relay in front of it. */
export async function startTarget(env: CheckEnvironment, defer: (f: () => unknown) => void) {
  const answer = env.conformance?.sink ?? { status: 200, json: { ok: true } };
  const sink = await startSink({ behaviour: { status: answer.status, json: answer.json, headers: answer.headers } });
  defer(() => sink.close());
  const relay = await startRelay(sink.port);
  defer(() => relay.close());
  return { sink, relay };
}

/**
 * Spawns the plugin, reads its handshake line and completes the Handshake
 * with the conformance config (its `{{sink_url}}` pointing at a fresh sink).
 */
export async function openChannel(env: CheckEnvironment, defer: (f: () => unknown) => void): Promise<OpenChannel> {
  let sink: Sink | undefined;
  let relay: Relay | undefined;
  let config: Record<string, unknown> = {};
  let secrets: Record<string, string> = {};
  let extraEnv: Record<string, string> = {};
  if (env.conformance) {
    ({ sink, relay } = await startTarget(env, defer));
    config = withSinkUrl(env.conformance.config, relay.url);
    secrets = withSinkUrl(env.conformance.secrets, relay.url);
    extraEnv = withSinkUrl(env.conformance.env, relay.url);
  }
  const session = PluginSession.spawn(env.target, { env: extraEnv });
  defer(() => session.kill());
  try {
    await session.handshakeLine(env.startTimeoutMs);
  } catch (error) {
    throw new CheckFailure({
      expected: "the plugin starts and prints its handshake line",
      actual: `${(error as Error).message}${tail(session)}`,
      fix: "see startup.handshake-line",
    });
  }
  try {
    const response = await session.handshake(config, secrets);
    return { session, sink, relay, name: response.name, version: response.version };
  } catch (error) {
    throw new CheckFailure({
      expected: "Handshake for interface version 1 with the conformance config succeeds",
      actual: `Handshake failed with ${describeCallError(error).text}${tail(session)}`,
      fix: env.conformance
        ? `check that ${env.conformance.source} gives every config field and secret the channel needs`
        : "the channel needs config: add errand-conformance.json (docs/conformance.md) or pass --config",
    });
  }
}

/** Formats the plugin's stderr tail for a failure message. */
export function tail(session: PluginSession): string {
  const text = session.stderrTail();
  return text ? `\nplugin stderr (last lines):\n${text}` : "";
}

/** One notification the harness can send. */
export type Call =
  | { kind: "notify"; message: string; ticket: Ticket }
  | { kind: "notifyStart"; ticket: Ticket; engine?: string }
  | { kind: "notifyComplete"; ticket: Ticket; result: TaskResult };

/** Sends one notification with a deadline and reports how it went; never throws. */
export async function timedCall(open: OpenChannel, call: Call, timeoutMs = CALL_TARGET_MS): Promise<TimedCall> {
  const started = Date.now();
  const client = open.session.clients.channel;
  const taskRunId = "conformance-run-1";
  try {
    if (call.kind === "notify") {
      await unaryCall(client, "notify", { message: call.message, ticket: call.ticket, taskRunId }, { timeoutMs });
    } else if (call.kind === "notifyStart") {
      await unaryCall(client, "notifyStart", { ticket: call.ticket, taskRunId, engine: call.engine ?? "claude-code" }, { timeoutMs });
    } else {
      await unaryCall(client, "notifyComplete", { ticket: call.ticket, result: call.result, taskRunId }, { timeoutMs });
    }
    const endedAt = Date.now();
    return { ok: true, code: 0, text: "OK", ms: endedAt - started, endedAt };
  } catch (error) {
    const endedAt = Date.now();
    const { code, text } = describeCallError(error);
    return { ok: false, code, text, ms: endedAt - started, endedAt };
  }
}

/** Fails the check unless `result` is OK within the call target. */
export function expectOk(open: OpenChannel, what: string, result: TimedCall, fix: string): void {
  if (result.ok && result.ms <= CALL_TARGET_MS) return;
  throw new CheckFailure({
    expected: `${what} answers OK within ${CALL_TARGET_MS} ms`,
    actual: `${what} answered ${result.text} after ${result.ms} ms${tail(open.session)}`,
    fix,
  });
}

/** Waits `ms`. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
