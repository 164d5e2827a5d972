import { ControllerError } from "../errors.js";
import type { TaskRun } from "../runs/task-run.js";
import type { ExecutionBackend, RecoveryPlan, RunHandle, RunHooks, RunOutcome, RunSpec } from "./execution-backend.js";
import { createScrub, type Scrub, scrubResult } from "./output-scrubber.js";

/**
 * The one door through which engine output enters the controller, whatever
 * the engine and the backend: progress lines, the result (summary, failure
 * reason, pull request URL), a recovery's reason, a start error and the log
 * tail read back all pass {@link createScrub} before the loop stores them,
 * sends them to channels or prints them. `secrets` are every secret value the
 * controller resolved (engine API keys, channel and ticket-source tokens,
 * webhook signing secrets, the store URL); each run's own API key is added.
 */
export function scrubbingBackend(backend: ExecutionBackend, secrets: readonly string[]): ExecutionBackend {
  const withKey = (apiKey: string | undefined) =>
    apiKey === undefined || apiKey === "" ? secrets : [...secrets, apiKey];
  const scrubFor = (run: TaskRun, apiKey: string | undefined): Scrub =>
    createScrub(withKey(apiKey), backend.workspaceOf?.(run));
  const scrubbed: ExecutionBackend = {
    name: backend.name,
    async start(spec: RunSpec, hooks: RunHooks): Promise<RunHandle> {
      const scrub = scrubFor(spec.run, spec.apiKey);
      try {
        return scrubHandle(await backend.start(spec, scrubHooks(hooks, scrub)), scrub);
      } catch (error) {
        // Secrets only: a start error names the folder or file to fix, which a relative path would hide.
        throw scrubError(error, createScrub(withKey(spec.apiKey), undefined));
      }
    },
    async recover(run, hooks, spec): Promise<RecoveryPlan> {
      const scrub = scrubFor(run, spec.apiKey);
      const plan = await backend.recover(run, scrubHooks(hooks, scrub), spec);
      return plan.action === "reattach"
        ? { action: "reattach", handle: scrubHandle(plan.handle, scrub) }
        : { ...plan, reason: scrub(plan.reason) };
    },
    async readLog(run, maxBytes) {
      const log = await backend.readLog(run, maxBytes);
      return log === undefined ? undefined : createScrub(secrets, backend.workspaceOf?.(run))(log);
    },
    close: () => backend.close(),
  };
  if (backend.detachesOnShutdown !== undefined)
    Object.assign(scrubbed, { detachesOnShutdown: backend.detachesOnShutdown });
  if (backend.warm !== undefined) scrubbed.warm = () => backend.warm?.();
  if (backend.workspaceOf !== undefined) scrubbed.workspaceOf = (run) => backend.workspaceOf?.(run);
  return scrubbed;
}

function scrubHooks(hooks: RunHooks, scrub: Scrub): RunHooks {
  return {
    onEvent: (event) => hooks.onEvent(event.kind === "progress" ? { ...event, text: scrub(event.text) } : event),
  };
}

function scrubHandle(handle: RunHandle, scrub: Scrub): RunHandle {
  const done = handle.done.then(
    (outcome): RunOutcome => (outcome.detached ? outcome : { ...outcome, result: scrubResult(outcome.result, scrub) }),
  );
  const scrubbed: RunHandle = {
    attachment: handle.attachment,
    logRef: handle.logRef,
    done,
    stop: (reason) => handle.stop(reason),
  };
  if (handle.branch !== undefined) Object.assign(scrubbed, { branch: handle.branch });
  if (handle.detach !== undefined) scrubbed.detach = () => handle.detach?.();
  return scrubbed;
}

/** A start error keeps its code, name and hint, with secrets masked (the loop stores its message as the run's reason). */
function scrubError(error: unknown, scrub: Scrub): unknown {
  if (!(error instanceof ControllerError)) return error;
  const message = scrub(error.message);
  const hint = error.hint === undefined ? undefined : scrub(error.hint);
  if (message === error.message && hint === error.hint) return error;
  const copy = new ControllerError(error.code, message, { cause: error, ...(hint === undefined ? {} : { hint }) });
  Object.defineProperty(copy, "name", { value: error.name });
  return copy;
}
