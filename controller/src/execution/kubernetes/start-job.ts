import type { Logger } from "@errand/channel-sdk";
import type { V1Job } from "@kubernetes/client-node";
import { apiHint, apiProblem } from "../../kube/kube-api.js";
import { EngineStartError } from "../engine-start-error.js";
import type { RunHandle, RunHooks, RunSpec } from "../execution-backend.js";
import { type KubernetesAttachment, logRefOf, toRecord } from "./attachment.js";
import { createCheckoutSecret } from "./checkout-secret.js";
import { checkoutToken } from "./checkout-token.js";
import { deleteJob } from "./delete-job.js";
import { buildInputConfigMap } from "./job-manifest.js";
import { attachJobRun } from "./job-run.js";
import { type PreparedJob, prepareJob } from "./prepare-job.js";
import type { RunContext } from "./run-context.js";
import { belongsToRun } from "./run-labels.js";

/**
 * Starts a run: creates its Job, then the ConfigMap with its prompt and
 * ticket and, for a checkout, the Secret with its repository credential,
 * both owned by the Job (the pod waits for them to mount them).
 * A Job of the same name that carries this run's id is one an earlier
 * start made before the controller died: it is adopted, not made twice.
 * Resolves once the Job exists (the run is then Running).
 */
export async function startJobRun(context: RunContext, spec: RunSpec, hooks: RunHooks): Promise<RunHandle> {
  const prepared = prepareJob(context, spec);
  const { jobName } = prepared;
  const token = await checkoutToken(context, prepared, spec);
  const logger = context.logger.child({ runId: spec.run.id, job: jobName });
  const job = await createJob(context, prepared, spec, logger);
  const uid = job.metadata?.uid;
  if (uid === undefined)
    throw startError(spec, `the API server returned Job ${jobName} without a uid`, "check the API server");
  await createInput(context, prepared, uid, spec, logger);
  if (token !== undefined && prepared.checkout !== undefined) {
    const secret = prepared.checkout.secretName;
    await createCheckoutSecret(context, job, uid, secret, token).catch(async (error: unknown) => {
      await deleteJob(context, jobName, uid, logger);
      throw error;
    });
  }
  const attachment: KubernetesAttachment = { namespace: context.namespace, jobName, uid };
  logger.info("started the run's Job", { namespace: context.namespace, image: spec.engine.image });
  const run = attachJobRun(context, {
    runId: spec.run.id,
    jobName,
    uid,
    parser: prepared.parser,
    hooks,
    startedAt: context.now(),
    quietBefore: undefined,
  });
  return {
    attachment: toRecord(attachment),
    logRef: logRefOf(attachment),
    // Recorded with the run (TaskRun.branch), as a local checkout's is.
    ...(prepared.checkout === undefined ? {} : { branch: prepared.checkout.branch }),
    done: run.done,
    stop: run.stop,
    detach: run.detach,
  };
}

async function createJob(context: RunContext, prepared: PreparedJob, spec: RunSpec, logger: Logger): Promise<V1Job> {
  const { namespace } = context;
  try {
    return await context.clients.batch.createNamespacedJob({ namespace, body: prepared.job });
  } catch (error) {
    const problem = apiProblem(error);
    if (problem.status !== 409)
      throw startError(
        spec,
        `creating Job ${namespace}/${prepared.jobName} failed: ${problem.message}`,
        apiHint(problem, "create", "jobs", namespace),
        error,
      );
  }
  let existing: V1Job;
  try {
    existing = await context.clients.batch.readNamespacedJob({ name: prepared.jobName, namespace });
  } catch (error) {
    const problem = apiProblem(error);
    throw startError(
      spec,
      `Job ${namespace}/${prepared.jobName} exists but could not be read: ${problem.message}`,
      apiHint(problem, "get", "jobs", namespace),
      error,
    );
  }
  if (!belongsToRun(existing, spec.run.id)) {
    throw startError(
      spec,
      `a Job named ${prepared.jobName} already exists in namespace ${namespace} and is not this run's`,
      `delete it (kubectl delete job -n ${namespace} ${prepared.jobName}) and retry the run`,
    );
  }
  logger.warn(
    "the run's Job already existed (made by a start the controller did not record); following it instead of making another",
  );
  return existing;
}

async function createInput(
  context: RunContext,
  prepared: PreparedJob,
  uid: string,
  spec: RunSpec,
  logger: Logger,
): Promise<void> {
  const { namespace } = context;
  const body = buildInputConfigMap(prepared.job, uid, prepared.configMapName, prepared.files);
  try {
    await context.clients.core.createNamespacedConfigMap({ namespace, body });
  } catch (error) {
    const problem = apiProblem(error);
    // Made by the earlier start of this same run.
    if (problem.status === 409) return;
    await deleteJob(context, prepared.jobName, uid, logger);
    throw startError(
      spec,
      `creating ConfigMap ${namespace}/${prepared.configMapName} failed: ${problem.message}`,
      apiHint(problem, "create", "configmaps", namespace),
      error,
    );
  }
}

function startError(spec: RunSpec, what: string, hint: string, cause?: unknown): EngineStartError {
  return new EngineStartError(`engine "${spec.engine.name}" could not be started: ${what}`, {
    hint,
    ...(cause === undefined ? {} : { cause }),
  });
}
