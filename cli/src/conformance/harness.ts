import {
  CALL_TARGET_MS,
  type HandshakeResponse,
  type PartialNotificationCall,
  sendNotification,
} from "@errand/channel-sdk/protocol";
import { type Sink, startSink } from "@errand/channel-sdk/testing";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { type CheckEnvironment, CheckFailure } from "./check.js";
import { withSinkUrl } from "./config.js";
import { type Relay, startRelay } from "./relay.js";
import { describeCallError, PluginSession } from "./session.js";

/** A plugin started and handshaken for a check, with its sink when there is a config. */
export interface OpenChannel {
  session: PluginSession;
  sink: Sink | undefined;
  relay: Relay | undefined;
  name: string;
  version: string;
  response: HandshakeResponse;
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

/** What the conformance config gives the plugin, its `{{sink_url}}` pointing at this check's own sink. */
export interface PluginInputs {
  sink: Sink | undefined;
  relay: Relay | undefined;
  config: Record<string, unknown>;
  secrets: Record<string, string>;
  env: Record<string, string>;
}

/** Starts the check's sink (when there is a conformance config) and fills the placeholder everywhere. */
export async function pluginInputs(env: CheckEnvironment, defer: (f: () => unknown) => void): Promise<PluginInputs> {
  if (!env.conformance) return { sink: undefined, relay: undefined, config: {}, secrets: {}, env: {} };
  const { sink, relay } = await startTarget(env, defer);
  return {
    sink,
    relay,
    config: withSinkUrl(env.conformance.config, relay.url),
    secrets: withSinkUrl(env.conformance.secrets, relay.url),
    env: withSinkUrl(env.conformance.env, relay.url),
  };
}

/** Spawns the plugin for a check with the config's environment; it is stopped when the check ends. */
export async function startPlugin(
  env: CheckEnvironment,
  defer: (f: () => unknown) => void,
  options: { cookie?: boolean } = {},
): Promise<{ session: PluginSession; inputs: PluginInputs }> {
  const inputs = await pluginInputs(env, defer);
  const session = PluginSession.spawn(env.target, { env: inputs.env, cookie: options.cookie });
  defer(() => session.kill());
  return { session, inputs };
}

/** The fix for a failed Handshake, by what the status says went wrong. */
function handshakeFix(env: CheckEnvironment, code: number | undefined): string {
  if (
    code === GrpcStatus.FAILED_PRECONDITION
    || code === GrpcStatus.INVALID_ARGUMENT
    || code === GrpcStatus.UNAUTHENTICATED
  ) {
    return env.conformance
      ? `check that ${env.conformance.source} gives every config field and secret the channel needs`
      : "the channel needs config: add errand-conformance.json (docs/conformance.md) or pass --config";
  }
  if (code === GrpcStatus.UNIMPLEMENTED)
    return "register the errand.v1.NotificationChannel service on the gRPC server (the SDK's serve() does this)";
  if (code === undefined || code === GrpcStatus.UNAVAILABLE || code === GrpcStatus.DEADLINE_EXCEEDED) {
    return "the plugin must serve gRPC on the address its handshake line names, until it is told to stop; see its stderr for why it does not";
  }
  return "the Handshake's error above says what the channel refused; see its stderr for more";
}

/**
 * Spawns the plugin, reads its handshake line and completes the Handshake
 * with the conformance config (its `{{sink_url}}` pointing at a fresh sink).
 */
export async function openChannel(env: CheckEnvironment, defer: (f: () => unknown) => void): Promise<OpenChannel> {
  const { session, inputs } = await startPlugin(env, defer);
  try {
    await session.handshakeLine(env.startTimeoutMs);
  } catch (error) {
    throw new CheckFailure({
      expected: "the plugin starts and prints its handshake line",
      actual: `${(error as Error).message}${tail(session)}`,
      fix: "see startup.handshake-line",
    });
  }
  let response: HandshakeResponse;
  try {
    response = await session.handshake(inputs.config, inputs.secrets);
  } catch (error) {
    const { code, text } = describeCallError(error);
    throw new CheckFailure({
      expected: "Handshake for interface version 1 with the conformance config succeeds",
      actual: `Handshake failed with ${text}${tail(session)}`,
      fix: handshakeFix(env, code),
    });
  }
  env.observed ??= {};
  env.observed.name ??= response.name;
  env.observed.version ??= response.version;
  return { session, sink: inputs.sink, relay: inputs.relay, name: response.name, version: response.version, response };
}

/** Formats the plugin's stderr tail for a failure message. */
export function tail(session: PluginSession): string {
  const text = session.stderrTail();
  return text ? `\nplugin stderr (last lines):\n${text}` : "";
}

/** The task run every conformance call belongs to. */
const TASK_RUN_ID = "conformance-run-1";
/** The engine NotifyStart names when a check gives none. */
const DEFAULT_ENGINE = "claude-code";

/** Sends one notification (the SDK's call, its run id and engine filled in when left out) with a deadline and reports how it went; never throws. */
export async function timedCall(
  open: OpenChannel,
  call: PartialNotificationCall,
  timeoutMs = CALL_TARGET_MS,
): Promise<TimedCall> {
  const started = Date.now();
  const filled = call.kind === "notifyStart" ? { ...call, engine: call.engine ?? DEFAULT_ENGINE } : call;
  try {
    await sendNotification(
      open.session.clients.channel,
      { ...filled, taskRunId: call.taskRunId ?? TASK_RUN_ID },
      { timeoutMs },
    );
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
