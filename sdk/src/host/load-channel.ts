import {
  type CallOptions,
  type Channel,
  type ChannelConfig,
  type ChannelDefinition,
  defineChannel,
  interfaceVersionsOf,
  type NotifyResult,
  type StartCallOptions,
  type TaskResult,
  type Ticket,
} from "../channel.js";
import { CancelledError, DeadlineExceededError, VersionMismatchError } from "../errors.js";
import { createLogger, type Logger } from "../logger.js";
import { ChannelRuntime, type NotificationCall } from "../runtime/channel-runtime.js";
import { deadlineSignal } from "../runtime/run-with-signal.js";
import { CALL_TARGET_MS, SUPPORTED_INTERFACE_VERSIONS } from "../version.js";

/** Options of {@link loadChannel}. */
export interface LoadOptions {
  config?: ChannelConfig;
  secrets?: Record<string, string>;
  logger?: Logger;
  /** Interface versions this host accepts; default the SDK's. */
  supportedVersions?: readonly number[];
}

/**
 * Runs a channel definition inside the host process. The result behaves like
 * a plugin connected with `connectChannel`: same version negotiation, same
 * deadlines (5 s by default), same typed errors, so the two are interchangeable.
 */
export async function loadChannel<State>(definition: ChannelDefinition<State>, options: LoadOptions = {}): Promise<Channel> {
  defineChannel(definition);
  const hostVersions = options.supportedVersions ?? SUPPORTED_INTERFACE_VERSIONS;
  const ours = interfaceVersionsOf(definition as ChannelDefinition<unknown>);
  const interfaceVersion = ours.find((v) => hostVersions.includes(v));
  if (interfaceVersion === undefined) {
    throw new VersionMismatchError(
      `channel ${definition.name} supports interface versions ${ours.join(", ")}; this host supports ${hostVersions.join(", ")}`,
      { hint: "upgrade the older side so both share an interface version" },
    );
  }
  const secrets = options.secrets ?? {};
  const logger = (options.logger ?? createLogger({ redact: () => Object.values(secrets) })).child({ channel: definition.name });
  const runtime = new ChannelRuntime(definition, options.config ?? {}, secrets, logger);
  await runtime.initialize();

  const run = async (call: NotificationCall, options: CallOptions): Promise<NotifyResult> => {
    const timeoutMs = options.timeoutMs ?? CALL_TARGET_MS;
    const { controller, dispose } = deadlineSignal(
      timeoutMs,
      () => new DeadlineExceededError(`${definition.name}.${call.kind} did not finish within ${timeoutMs} ms`),
      options.signal,
    );
    try {
      return await runtime.dispatch(call, controller);
    } finally {
      dispose();
    }
  };

  return {
    name: definition.name,
    version: definition.version,
    interfaceVersion,
    notify: (message: string, ticket: Ticket, o: CallOptions = {}) =>
      run({ kind: "notify", message, ticket, taskRunId: o.taskRunId ?? "" }, o),
    notifyStart: (ticket: Ticket, o: StartCallOptions = {}) =>
      run({ kind: "notifyStart", ticket, taskRunId: o.taskRunId ?? "", engine: o.engine ?? "" }, o),
    notifyComplete: (ticket: Ticket, result: TaskResult, o: CallOptions = {}) =>
      run({ kind: "notifyComplete", ticket, result, taskRunId: o.taskRunId ?? "" }, o),
    close: () => runtime.close(new CancelledError(`channel ${definition.name} is closed`)),
  };
}
