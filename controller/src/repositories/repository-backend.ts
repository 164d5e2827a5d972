import { rmSync } from "node:fs";
import type { Logger } from "@errand/channel-sdk";
import type { ExecutionBackend, RunHandle, RunHooks, RunOutcome, RunSpec } from "../execution/execution-backend.js";
import { scrubResult } from "../execution/output-scrubber.js";
import { newRunBranch, type RunBranch } from "./branch-name.js";
import { createCheckoutWorkspace, credentialsDirOf } from "./checkout-workspace.js";
import { finishPodRun } from "./finish-pod-run.js";
import type { RepositoriesConfig } from "./repositories-schema.js";
import type { RepositoryAccess } from "./repository-access.js";

/** What {@link repositoryBackend} needs. */
export interface RepositoryBackendOptions {
  config: RepositoriesConfig;
  /** The credential of `repositories.codehost_a` (undefined when it is unset: runs start as before). */
  access: RepositoryAccess | undefined;
  /** `execution.local.workspace_dir`: the credentials folders go under its `.errand/`. */
  workspaceDir: string;
  /** The resolved secrets (the credential's). */
  secrets: Readonly<Record<string, string>>;
  /** `engines.<name>.repository_token_env` by engine name. */
  tokenEnv: (engine: string) => readonly string[];
  /**
   * The branch of a run that continues an earlier one (a follow-up on
   * review: `{ branch, existing: true }`); undefined, or unset, for a new
   * branch named by `repositories.checkout.branch_template`.
   */
  branchOf?: (spec: RunSpec) => RunBranch | undefined;
  logger: Logger;
}

/**
 * The backend with repository access: on the local backend, when
 * `repositories.codehost_a` is set, each run's workspace is a checkout of its
 * ticket's repository, and a successful run ends with a push and a pull
 * request (see checkout-workspace.ts). On the Kubernetes backend the pod
 * clones and pushes, and the run ends here with the same pull request
 * ({@link podRunsBackend}). Unset, or on another backend, runs are started
 * as before. Every installation token made (an App's change every hour) is
 * masked in the run's progress and result here, as the static secrets are by
 * the scrubbing backend around it.
 */
export function repositoryBackend(backend: ExecutionBackend, options: RepositoryBackendOptions): ExecutionBackend {
  const access = options.access;
  if (access !== undefined && backend.name === "kubernetes") return podRunsBackend(backend, options, access);
  if (access === undefined || backend.name !== "local") return backend;
  const config = { ...options.config, codehostA: access.config };
  const { token, scrub } = access;
  return {
    ...backend,
    async start(spec, hooks) {
      const workspace = createCheckoutWorkspace({
        config,
        token,
        ticket: spec.ticket,
        runId: spec.run.id,
        branch:
          options.branchOf?.(spec)
          ?? newRunBranch(config.checkout.branch_template, {
            ticketId: spec.ticket.id,
            title: spec.ticket.title,
            runId: spec.run.id,
          }),
        credentialsDir: credentialsDirOf(options.workspaceDir, spec.run.id),
        tokenEnv: options.tokenEnv(spec.engine.name),
        secretValues: () => [
          ...Object.values(options.secrets),
          ...access.tokens(),
          ...(spec.apiKey ? [spec.apiKey] : []),
        ],
      });
      return maskHandle(await backend.start({ ...spec, workspace }, maskHooks(hooks, scrub)), scrub);
    },
    async recover(run, hooks, spec) {
      // The controller that made the credentials folder is gone, and with it the checkout's state: its token goes.
      rmSync(credentialsDirOf(options.workspaceDir, run.id), { recursive: true, force: true });
      const plan = await backend.recover(run, hooks, spec);
      if (plan.action !== "reattach" || run.branch === undefined) return plan;
      return { action: "reattach", handle: unpushed(plan.handle) };
    },
  };
}

/**
 * The Kubernetes backend's runs, whose pods clone and push: a successful
 * run's pushed branch gets its pull request when the run ends, also for a
 * run re-attached after a restart (its pod pushed without the controller).
 */
function podRunsBackend(
  backend: ExecutionBackend,
  options: RepositoryBackendOptions,
  access: RepositoryAccess,
): ExecutionBackend {
  const { scrub } = access;
  const finishOf =
    (spec: RunSpec) =>
    (outcome: RunOutcome): Promise<RunOutcome> =>
      finishPodRun(outcome, {
        config: { codehostA: access.config },
        token: access.token,
        ticket: spec.ticket,
        runId: spec.run.id,
        workspace: backend.workspaceOf?.(spec.run),
        secretValues: () => [
          ...Object.values(options.secrets),
          ...access.tokens(),
          ...(spec.apiKey ? [spec.apiKey] : []),
        ],
        logger: options.logger,
      });
  return {
    ...backend,
    async start(spec, hooks) {
      return maskHandle(await backend.start(spec, maskHooks(hooks, scrub)), scrub, finishOf(spec));
    },
    async recover(run, hooks, spec) {
      const plan = await backend.recover(run, maskHooks(hooks, scrub), spec);
      if (plan.action !== "reattach") return plan;
      return { action: "reattach", handle: maskHandle(plan.handle, scrub, finishOf(spec)) };
    },
  };
}

function maskHooks(hooks: RunHooks, scrub: (text: string) => string): RunHooks {
  return {
    onEvent: (event) => hooks.onEvent(event.kind === "progress" ? { ...event, text: scrub(event.text) } : event),
  };
}

/**
 * A run of a checkout that ended while the controller was down: nothing
 * pushed its commits, so it does not count as done; `errand runs retry`
 * starts it again.
 */
function unpushed(handle: RunHandle): RunHandle {
  const done = handle.done.then((outcome): RunOutcome => {
    if (outcome.detached || !outcome.result.success) return outcome;
    const failureReason =
      "the controller restarted after the agent finished: its commits were not pushed and no pull request was opened; retry the run";
    return { ...outcome, result: { ...outcome.result, success: false, failureReason } };
  });
  return { ...handle, done };
}

/** `handle` with its progress and result masked, its outcome first through `finish` (which must not reject). */
function maskHandle(
  handle: RunHandle,
  scrub: (text: string) => string,
  finish: (outcome: RunOutcome) => RunOutcome | Promise<RunOutcome> = (outcome) => outcome,
): RunHandle {
  const done = handle.done
    .then(finish)
    .then(
      (outcome): RunOutcome =>
        outcome.detached ? outcome : { ...outcome, result: scrubResult(outcome.result, scrub) },
    );
  const masked: RunHandle = {
    attachment: handle.attachment,
    logRef: handle.logRef,
    ...(handle.branch === undefined ? {} : { branch: handle.branch }),
    done,
    stop: (reason) => handle.stop(reason),
  };
  if (handle.detach !== undefined) masked.detach = () => handle.detach?.();
  return masked;
}
