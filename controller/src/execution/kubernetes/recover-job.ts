import { setTimeout as sleep } from "node:timers/promises";
import type { V1Job } from "@kubernetes/client-node";
import { apiProblem } from "../../kube/kube-api.js";
import { jobNameFor } from "../../kube/kubernetes-names.js";
import type { TaskRun } from "../../runs/task-run.js";
import type { RecoveryPlan, RunHooks, RunSpec } from "../execution-backend.js";
import { type KubernetesAttachment, logRefOf, parseAttachment, toRecord } from "./attachment.js";
import { attachJobRun } from "./job-run.js";
import type { RunContext } from "./run-context.js";
import { belongsToRun } from "./run-labels.js";

/** Why every run that cannot be re-attached ends; the rest of the reason says what was found. */
export const RESTART_REASON = "controller restarted while the run was running";
/** Looking the Job up is tried this often (with doubling pauses) before the run is failed. */
const LOOKUPS = 5;

/**
 * The fate of a run a dead controller left Running. A Job outlives its
 * controller, so a run whose Job still exists is re-attached: the watch
 * follows it again and its log is read from the start (progress already
 * told is not told again); a Job that finished meanwhile gives its result
 * at once. A run whose Job is gone, or whose Job name now belongs to
 * another Job, fails with the reason.
 */
export async function recoverJobRun(
  context: RunContext,
  run: TaskRun,
  hooks: RunHooks,
  spec: RunSpec,
): Promise<RecoveryPlan> {
  const attachment = parseAttachment(run.attachment) ?? (await unrecordedJob(context, run));
  if (typeof attachment === "string") return fail(attachment);
  const { namespace, jobName, uid } = attachment;
  const where = `${namespace}/${jobName}`;
  if (namespace !== context.namespace) {
    return fail(
      `${RESTART_REASON}; its Job ${where} is outside execution.kubernetes.namespace (${context.namespace}) and was left alone`,
    );
  }
  let job: V1Job | undefined;
  let delay = context.retryMs;
  for (let attempt = 1; job === undefined; attempt++) {
    try {
      job = await context.clients.batch.readNamespacedJob({ name: jobName, namespace });
    } catch (error) {
      const problem = apiProblem(error);
      if (problem.status === 404) {
        return fail(
          `${RESTART_REASON}; its Job ${where} is gone (deleted, or removed by ttlSecondsAfterFinished after it finished), so its result is lost`,
        );
      }
      if (attempt >= LOOKUPS)
        return fail(`${RESTART_REASON}; its Job ${where} could not be looked up: ${problem.message}`);
      await sleep(delay);
      delay *= 2;
    }
  }
  if (job.metadata?.uid !== uid) {
    return fail(
      `${RESTART_REASON}; the name of its Job ${where} now belongs to another Job (uid ${job.metadata?.uid ?? "none"}), which was left alone`,
    );
  }
  let parser;
  try {
    parser = spec.engine.parser();
  } catch (error) {
    return fail(
      `${RESTART_REASON}; engine "${spec.engine.name}" could not make its output parser: ${(error as Error).message}`,
    );
  }
  context.logger.info("re-attaching to the Job of a run left running", { runId: run.id, job: where });
  const followed = attachJobRun(context, {
    runId: run.id,
    jobName,
    uid,
    parser,
    hooks,
    startedAt: run.startedAt ?? context.now(),
    quietBefore: context.now(),
  });
  return {
    action: "reattach",
    handle: {
      attachment: toRecord(attachment),
      logRef: logRefOf(attachment),
      done: followed.done,
      stop: followed.stop,
      detach: followed.detach,
    },
  };
}

/**
 * The Job of a run whose controller died after recording it Running but before recording its Job: found by the
 * name the run id gives it and the run-id annotation it carries. A reason to fail the run when there is none.
 */
async function unrecordedJob(context: RunContext, run: TaskRun): Promise<KubernetesAttachment | string> {
  const jobName = jobNameFor(run.id);
  let job: V1Job;
  try {
    job = await context.clients.batch.readNamespacedJob({ name: jobName, namespace: context.namespace });
  } catch (error) {
    const problem = apiProblem(error);
    if (problem.status === 404)
      return `${RESTART_REASON}; no Job was recorded for it and none was made (the controller stopped before creating it)`;
    return `${RESTART_REASON}; no Job was recorded for it and ${context.namespace}/${jobName} could not be looked up: ${problem.message}`;
  }
  const uid = job.metadata?.uid;
  if (!belongsToRun(job, run.id) || uid === undefined) {
    return `${RESTART_REASON}; no Job was recorded for it, and ${context.namespace}/${jobName} is not its Job (left alone)`;
  }
  context.logger.info("found the Job of a run whose start was not fully recorded", {
    runId: run.id,
    job: `${context.namespace}/${jobName}`,
  });
  return { namespace: context.namespace, jobName, uid };
}

function fail(reason: string): RecoveryPlan {
  return { action: "fail", reason };
}
