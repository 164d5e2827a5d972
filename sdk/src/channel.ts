import { isStandardSchema } from "./config-schema.js";
import { InvalidArgumentError } from "./errors.js";
import type { TaskResult, Ticket, TokenUsage } from "./gen/errand/v1/common.js";
import type { Logger } from "./logger.js";
import type { StandardSchemaV1 } from "./standard-schema.js";
import { SUPPORTED_INTERFACE_VERSIONS } from "./version.js";

export type { TaskResult, Ticket, TokenUsage };

/** The channel's `config` object, as written in `notifications.channels[].config`. */
export type ChannelConfig = Record<string, unknown>;

/** Secrets resolved by the host, keyed by secret name. */
export type ChannelSecrets = Readonly<Record<string, string>>;

/** What a handler may return: the target's id for the delivered message. */
export interface NotifyResult {
  deliveryId?: string;
}

/** Everything a handler gets besides the notification itself. */
export interface NotifyContext<State = unknown, Config = ChannelConfig> {
  /** Aborted when the call's deadline passes, the host cancels, or the plugin shuts down. */
  signal: AbortSignal;
  /** Correlates the notifications of one task run. */
  taskRunId: string;
  /** The channel's config object: the `configSchema`'s output when the channel has one. */
  config: Config;
  /** Resolved secrets, by name. Never log them. */
  secrets: ChannelSecrets;
  /** What `init` returned. */
  state: State;
  /** Structured logger (stderr, secrets masked). */
  logger: Logger;
}

/** Context of NotifyStart: adds the engine in use. */
export interface StartContext<State = unknown, Config = ChannelConfig> extends NotifyContext<State, Config> {
  /** Name of the engine the agent runs on. */
  engine: string;
}

/** What `init` receives besides config and secrets. */
export interface InitContext {
  logger: Logger;
}

type HandlerResult = void | NotifyResult | Promise<void | NotifyResult>;

/**
 * A channel as its author writes it: a name, a version, an optional config
 * schema and three handlers. Pass it to `defineChannel` to validate it,
 * then to `serve()` to run it as a plugin process, or to `loadChannel()` to
 * run it in-process.
 */
export interface ChannelDefinition<State = undefined, Config = ChannelConfig> {
  /** Unique channel name: lowercase letters, digits, `_` and `-`, starting with a letter. */
  name: string;
  /** The plugin's own version (usually its package version). */
  version: string;
  /** Interface versions the channel supports; default `[1]`. */
  interfaceVersions?: readonly number[];
  /**
   * Schema of the channel's `config`, in the Standard Schema v1 form that
   * zod 4, valibot and arktype implement. Checked before `init`; `init` and
   * the handlers receive its output (which may be transformed). A config it
   * refuses fails the channel's start with one `InvalidConfigError` listing
   * every issue with its path. Secrets are not part of it: check them in `init`.
   */
  configSchema?: StandardSchemaV1<unknown, Config>;
  /**
   * Checks the secrets and builds per-instance state (an API client, a
   * throttle) from the config, validated by `configSchema` when given.
   * Throw `InvalidConfigError` with a hint on a bad config or secret. Runs
   * once per channel instance, at handshake.
   */
  init?(config: Config, secrets: ChannelSecrets, ctx: InitContext): State | Promise<State>;
  /** Free-form message tied to a ticket. */
  notify(message: string, ticket: Ticket, ctx: NotifyContext<State, Config>): HandlerResult;
  /** The agent has begun work on `ticket`. */
  notifyStart(ticket: Ticket, ctx: StartContext<State, Config>): HandlerResult;
  /** The agent has finished; `result.success` tells how. */
  notifyComplete(ticket: Ticket, result: TaskResult, ctx: NotifyContext<State, Config>): HandlerResult;
  /** Releases what `init` acquired; called on shutdown. */
  close?(state: State): void | Promise<void>;
}

/** Per-call options of a {@link Channel}'s notify operations. */
export interface CallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Correlation id of the task run; default empty. */
  taskRunId?: string;
  /**
   * Deadline of the call in milliseconds; default 5000 (the interface's
   * target). Above 0 and at most 2^31-1, else the call rejects with
   * InvalidArgumentError.
   */
  timeoutMs?: number;
}

/** Options of {@link Channel.notifyStart}. */
export interface StartCallOptions extends CallOptions {
  /** Engine name in use. */
  engine?: string;
}

/**
 * A ready channel, as the controller uses it. An in-process channel
 * (`loadChannel`) and a plugin process (`connectChannel`) have this same shape.
 */
export interface Channel {
  /** The channel's unique name, from its handshake. */
  readonly name: string;
  /** The plugin's own version. */
  readonly version: string;
  /** The negotiated interface version. */
  readonly interfaceVersion: number;
  notify(message: string, ticket: Ticket, options?: CallOptions): Promise<NotifyResult>;
  notifyStart(ticket: Ticket, options?: StartCallOptions): Promise<NotifyResult>;
  notifyComplete(ticket: Ticket, result: TaskResult, options?: CallOptions): Promise<NotifyResult>;
  /** Stops the channel; further calls fail. Safe to call twice. */
  close(): Promise<void>;
}

const NAME_PATTERN = /^[a-z][a-z0-9_-]{0,62}$/;
const SEMVER_PATTERN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Returns a message describing why `name` is not a valid channel name, or undefined. */
export function checkChannelName(name: unknown): string | undefined {
  if (typeof name !== "string" || name.length === 0) return "the channel name is missing";
  if (!NAME_PATTERN.test(name)) {
    return `channel name ${JSON.stringify(name)} is invalid: use 1-63 lowercase letters, digits, "_" or "-", starting with a letter (for example "chat_a" or "team-alerts")`;
  }
  return undefined;
}

/**
 * Validates a channel definition and returns it unchanged, typed. Throws
 * {@link InvalidArgumentError} naming the field to fix.
 */
export function defineChannel<State = undefined, Config = ChannelConfig>(
  definition: ChannelDefinition<State, Config>,
): ChannelDefinition<State, Config> {
  const problems: string[] = [];
  const nameProblem = checkChannelName(definition?.name);
  if (nameProblem) problems.push(nameProblem);
  if (typeof definition?.version !== "string" || !SEMVER_PATTERN.test(definition.version)) {
    problems.push(`version ${JSON.stringify(definition?.version)} is not a semantic version such as "1.0.0"`);
  }
  for (const handler of ["notify", "notifyStart", "notifyComplete"] as const) {
    if (typeof definition?.[handler] !== "function") problems.push(`${handler} must be a function`);
  }
  for (const optional of ["init", "close"] as const) {
    const value = definition?.[optional];
    if (value !== undefined && typeof value !== "function") problems.push(`${optional} must be a function when given`);
  }
  if (definition?.configSchema !== undefined && !isStandardSchema(definition.configSchema)) {
    problems.push("configSchema must be a Standard Schema v1 (a zod 4, valibot or arktype schema, say) when given");
  }
  const versions = definition?.interfaceVersions ?? SUPPORTED_INTERFACE_VERSIONS;
  if (!Array.isArray(versions) || versions.length === 0 || !versions.every((v) => Number.isInteger(v) && v > 0)) {
    problems.push("interfaceVersions must be a non-empty list of positive integers, such as [1]");
  }
  if (problems.length > 0) {
    throw new InvalidArgumentError(`defineChannel: ${problems.join("; ")}`);
  }
  return definition;
}

/** The interface versions a definition supports, highest first. */
export function interfaceVersionsOf(definition: ChannelDefinition<unknown, unknown>): number[] {
  return [...(definition.interfaceVersions ?? SUPPORTED_INTERFACE_VERSIONS)].sort((a, b) => b - a);
}
