/**
 * @errand/controller: the Errand controller. Tickets come in (the webhook
 * intake, or polling a code host or tracker), are stored durably, run by a coding agent per
 * ticket, guarded, and told to every notification channel.
 *
 * The seams that keep it changeable: {@link Store}, {@link ExecutionBackend},
 * {@link Engine}, {@link TicketSource} and {@link RunObserver}.
 * @packageDocumentation
 */
export * from "./config/index.js";
export { type Controller, type ControllerOptions, createController } from "./controller.js";
export { createEngine } from "./engines/create-engine.js";
export { ENGINE_KINDS, type Engine, type EngineEvent, type EngineExit, type EngineInput, type EngineInvocation, type EngineKind, type EngineLimits, type OutputParser } from "./engines/engine.js";
export { buildPrompt, checkPromptTemplate } from "./engines/prompt.js";
export { ConflictError, ControllerError, ControllerErrorCode, type ControllerErrorOptions, NotFoundError, StoreError } from "./errors.js";
export { createBackend } from "./execution/create-backend.js";
export type { ExecutionBackend, RecoveryPlan, RunHandle, RunHooks, RunOutcome, RunSpec, StopReason } from "./execution/execution-backend.js";
export { createKubernetesBackend, type KubernetesBackendOptions } from "./execution/kubernetes/kubernetes-backend.js";
export type { KubernetesExecutionConfig } from "./execution/kubernetes/kubernetes-config.js";
export { createLocalBackend } from "./execution/local-backend.js";
export type { SourceHealth, TicketSink, TicketSource } from "./intake/ticket-source.js";
export * from "./logging/index.js";
export { createNotifier } from "./notify/create-notifier.js";
export type { ChannelStatus, Notifier, NotifierHealth, NotifierOptions } from "./notify/notifier-types.js";
export type { RunEvent, RunObserver } from "./runs/run-event.js";
export { ALLOWED_TRANSITIONS, isTerminal, RUN_STATES, type RunState, type RunWithTicket, type TaskRun, TERMINAL_STATES, type TicketKey, type Transition } from "./runs/task-run.js";
export { type ResolvedSecrets, resolveSecrets } from "./secrets/resolve-secrets.js";
export { SecretNotFoundError } from "./secrets/secret-not-found-error.js";
export { createSecretStore, type SecretStore, type SecretStoreOptions } from "./secrets/secret-store.js";
export type { PollAdapter, PollBackend, PollCandidate, PollContext } from "./sources/polling/poll-adapter.js";
export { createPollingSource, type PollingSource } from "./sources/polling/polling-source.js";
export { createPostgresStore } from "./store/postgres/postgres-store.js";
export { createSqliteStore, type SqliteStoreOptions } from "./store/sqlite/sqlite-store.js";
export type { AcceptOutcome, DeliveryClaim, HandledDelivery, RunCounts, RunFilter, Store, TransitionRequest } from "./store/store.js";
export * from "./webhook/index.js";
