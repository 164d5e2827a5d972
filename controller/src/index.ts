/**
 * @errand/controller: the Errand controller. Tickets come in (the webhook
 * intake, or polling a code host or tracker), are stored durably, run by a
 * coding agent per ticket, guarded, and told to every notification channel.
 *
 * Most users run the `errand` command. This entry point is for embedding:
 * load the config and its secrets, then {@link createController}. The
 * seams that keep it changeable are its extension points: {@link Store},
 * {@link ExecutionBackend}, {@link Engine}, {@link TicketSource} and
 * {@link RunObserver}. The list is short on purpose (api/controller.api.md
 * records it); everything else is internal and may change in any release.
 * @packageDocumentation
 */

export { ConfigError, type ConfigProblem } from "./config/config-error.js";
export type {
  ChannelEntryConfig,
  ConsoleConfig,
  ControllerConfig,
  EngineConfig,
  ExecutionConfig,
  GuardrailsConfig,
  NotificationsConfig,
  OpsConfig,
  SecretsConfig,
  StoreConfig,
  TicketingConfig,
} from "./config/controller-config.js";
export { controllerConfigJsonSchema } from "./config/controller-config-json-schema.js";
export { DEFAULT_CONFIG_FILE, findConfigFile } from "./config/find-config-file.js";
export { type LoadControllerConfigOptions, loadControllerConfig } from "./config/load-controller-config.js";
export {
  type LoadedControllerConfig,
  type ParseContext,
  parseControllerConfig,
} from "./config/parse-controller-config.js";
export type { PathProblem, ProblemLocator } from "./config/path-problem.js";
export type { GenericAuthMode, SecretSourceId, SourceId, TicketField } from "./config/webhook-config.js";
export type { ConsoleServer } from "./console/console-server.js";
export { type Controller, type ControllerOptions, createController } from "./controller.js";
export {
  ENGINE_KINDS,
  type Engine,
  type EngineEvent,
  type EngineExit,
  type EngineInput,
  type EngineInvocation,
  type EngineKind,
  type EngineLimits,
  type OutputParser,
} from "./engines/engine.js";
export {
  ConflictError,
  ControllerError,
  ControllerErrorCode,
  type ControllerErrorOptions,
  NotFoundError,
  StoreError,
} from "./errors.js";
export type {
  ExecutionBackend,
  RecoveryPlan,
  RunHandle,
  RunHooks,
  RunOutcome,
  RunSpec,
  StopReason,
} from "./execution/execution-backend.js";
export type { KubernetesExecutionConfig } from "./execution/kubernetes/kubernetes-config.js";
export type { SourceHealth, TicketSink, TicketSource } from "./intake/ticket-source.js";
export type { KubernetesSecretLayout } from "./kube/secret-location.js";
export type { Reconciler } from "./loop/reconciler.js";
export type { FailureInfo } from "./notify/channel-health.js";
export type {
  ChannelSourceInfo,
  ChannelStatus,
  CheckResult,
  Notifier,
  NotifierHealth,
} from "./notify/notifier-types.js";
export type { ChannelState } from "./notify/supervised-channel.js";
export type { OpsServer, ReadinessCheck, ReadinessResult } from "./ops/ops-server.js";
export type { CheckoutOutcome } from "./repositories/checkout-outcome.js";
export type { ApprovalDecision, Approvals, DecideOutcome } from "./runs/approvals-port.js";
export type { FollowUpComment, FollowUpContext, FollowUpPullRequest } from "./runs/follow-up.js";
export type { RunEvent, RunObserver } from "./runs/run-event.js";
export {
  type Actor,
  RUN_STATES,
  type RunState,
  type RunWithTicket,
  type TaskRun,
  type TicketKey,
  type Transition,
} from "./runs/task-run.js";
export { type ResolvedSecrets, resolveSecrets } from "./secrets/resolve-secrets.js";
export { type MissingSecret, SecretNotFoundError } from "./secrets/secret-not-found-error.js";
export { createSecretStore, type SecretStore, type SecretStoreOptions } from "./secrets/secret-store.js";
export type { PollAdapter, PollBackend, PollCandidate, PollContext } from "./sources/polling/poll-adapter.js";
export type { ThrottleClock } from "./sources/progress-comment/comment-throttle.js";
export type { CodehostATicketingConfig } from "./sources/ticketing-schema.js";
export type { ApprovalMessageRef, ApprovalMessageTake, ApprovalMessageUpdate } from "./store/approval-message.js";
export type {
  AcceptOptions,
  AcceptOutcome,
  DeliveryClaim,
  DeliveryOutcome,
  DeliveryTickets,
  FollowUpRequest,
  HandledDelivery,
  Leadership,
  LeadOptions,
  PullRequestRuns,
  RunCounts,
  RunCursor,
  RunFilter,
  Store,
  TransitionRequest,
} from "./store/store.js";
export type { GenericConfig } from "./vendors/generic/generic-schema.js";
export type { WebhookConfig, WebhookTimeouts } from "./webhook/webhook-schema.js";
