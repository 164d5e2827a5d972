/**
 * @errand/controller: the Errand controller. Tickets come in (the webhook
 * intake, later polling), are stored durably, run by a coding agent per
 * ticket, guarded, and told to every notification channel.
 *
 * The seams that keep it changeable: {@link Store}, {@link ExecutionBackend},
 * {@link Engine}, {@link TicketSource} and {@link RunObserver}.
 * @packageDocumentation
 */
export * from "./config/index.js";
export * from "./webhook/index.js";
export * from "./logging/index.js";

export { createController, type Controller, type ControllerOptions } from "./controller.js";
export { ControllerError, ControllerErrorCode, ConflictError, NotFoundError, StoreError, type ControllerErrorOptions } from "./errors.js";
export { resolveSecrets, type ResolvedSecrets } from "./secrets/resolve-secrets.js";
export { createSecretStore, type SecretStore, type SecretStoreOptions } from "./secrets/secret-store.js";
export { SecretNotFoundError } from "./secrets/secret-not-found-error.js";
export { RUN_STATES, TERMINAL_STATES, ALLOWED_TRANSITIONS, isTerminal, type RunState, type TaskRun, type Transition, type TicketKey, type RunWithTicket } from "./runs/task-run.js";
export type { RunEvent, RunObserver } from "./runs/run-event.js";
export type { Store, AcceptOutcome, DeliveryClaim, TransitionRequest, RunFilter, RunCounts } from "./store/store.js";
export { createSqliteStore, type SqliteStoreOptions } from "./store/sqlite/sqlite-store.js";
export { ENGINE_KINDS, type Engine, type EngineKind, type EngineEvent, type EngineExit, type EngineInput, type EngineInvocation, type OutputParser } from "./engines/engine.js";
export { createEngine } from "./engines/create-engine.js";
export { buildPrompt, checkPromptTemplate } from "./engines/prompt.js";
export type { ExecutionBackend, RunSpec, RunHooks, RunHandle, RunOutcome, RecoveryPlan, StopReason } from "./execution/execution-backend.js";
export { createLocalBackend } from "./execution/local-backend.js";
export { createBackend } from "./execution/create-backend.js";
export { createKubernetesBackend, type KubernetesBackendOptions } from "./execution/kubernetes/kubernetes-backend.js";
export type { KubernetesExecutionConfig } from "./execution/kubernetes/kubernetes-config.js";
export { createPostgresStore } from "./store/postgres/postgres-store.js";
export { createPollingSource, type PollingSource } from "./sources/polling/polling-source.js";
export type { PollAdapter, PollCandidate, PollContext, PollBackend } from "./sources/polling/poll-adapter.js";
export type { TicketSource, TicketSink, SourceHealth } from "./sources/ticket-source.js";
export { createNotifier } from "./notify/create-notifier.js";
export type { Notifier, NotifierOptions, ChannelStatus, NotifierHealth } from "./notify/notifier-types.js";
