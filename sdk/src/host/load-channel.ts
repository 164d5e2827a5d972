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
import { checkCallOptions, checkSecrets } from "../runtime/call-options.js";
import { ChannelRuntime, type NotificationCall } from "../runtime/channel-runtime.js";
import { checkJsonObject } from "../runtime/json-value.js";
import { deadlineSignal } from "../runtime/run-with-signal.js";
import { SUPPORTED_INTERFACE_VERSIONS } from "../version.js";

/** Options of {@link loadChannel}. */
export interface LoadOptions {
  /** The channel's `config` object: plain JSON data, as a plugin would receive it. */
  config?: ChannelConfig;
  /** Resolved secrets by name (string values); masked in the default logger's output. */
  secrets?: Record<string, string>;
  logger?: Logger;
  /** Interface versions this host accepts; default the SDK's. */
  supportedVersions?: readonly number[];
}

/**
 * Runs a channel definition inside the host process. The result behaves like
 * a plugin connected with `connectChannel`: same version negotiation, same
 * deadlines (5 s by default), same typed errors, so the two are interchangeable.
 * That includes the argument checks: `config` must be plain JSON data and
 * `secrets` strings, as a plugin would receive them, else InvalidArgumentError.
 */
export async function loadChannel<State>(
  definition: ChannelDefinition<State>,
  options: LoadOptions = {},
): Promise<Channel> {
  defineChannel(definition);
  const secrets = checkSecrets(options.secrets, "loadChannel");
  checkJsonObject(options.config ?? {}, "options.config", "loadChannel");
  const hostVersions = options.supportedVersions ?? SUPPORTED_INTERFACE_VERSIONS;
  const ours = interfaceVersionsOf(definition as ChannelDefinition<unknown>);
  const interfaceVersion = ours.find((v) => hostVersions.includes(v));
  if (interfaceVersion === undefined) {
    throw new VersionMismatchError(
      `channel ${definition.name} supports interface versions ${ours.join(", ")}; this host supports ${hostVersions.join(", ")}`,
      { hint: "upgrade the older side so both share an interface version" },
    );
  }
  const logger = (options.logger ?? createLogger({ redact: () => Object.values(secrets) })).child({
    channel: definition.name,
  });
  const runtime = new ChannelRuntime(definition, options.config ?? {}, secrets, logger);
  await runtime.initialize();

  // Options are checked inside the async function, so a bad one rejects rather than throws.
  const run = async (
    kind: NotificationCall["kind"],
    toCall: (o: { taskRunId: string; engine: string }) => NotificationCall,
    o: StartCallOptions | undefined,
  ): Promise<NotifyResult> => {
    const label = `${definition.name}.${kind}`;
    const { signal, taskRunId, engine, timeoutMs } = checkCallOptions(o, label);
    const { controller, dispose } = deadlineSignal(
      timeoutMs,
      () => new DeadlineExceededError(`${label} did not finish within ${timeoutMs} ms`),
      signal,
    );
    try {
      return await runtime.dispatch(toCall({ taskRunId, engine }), controller, label);
    } finally {
      dispose();
    }
  };

  return {
    name: definition.name,
    version: definition.version,
    interfaceVersion,
    notify: (message: string, ticket: Ticket, o?: CallOptions) =>
      run("notify", ({ taskRunId }) => ({ kind: "notify", message, ticket, taskRunId }), o),
    notifyStart: (ticket: Ticket, o?: StartCallOptions) =>
      run("notifyStart", ({ taskRunId, engine }) => ({ kind: "notifyStart", ticket, taskRunId, engine }), o),
    notifyComplete: (ticket: Ticket, result: TaskResult, o?: CallOptions) =>
      run("notifyComplete", ({ taskRunId }) => ({ kind: "notifyComplete", ticket, result, taskRunId }), o),
    close: () => runtime.close(new CancelledError(`channel ${definition.name} is closed`)),
  };
}
