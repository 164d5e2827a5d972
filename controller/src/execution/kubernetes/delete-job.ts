import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@errand/channel-sdk";
import { apiProblem } from "../../kube/kube-api.js";
import type { RunContext } from "./run-context.js";

const ATTEMPTS = 4;

/**
 * Deletes a run's Job with foreground propagation: the garbage collector
 * deletes its pod (and the input ConfigMap it owns) before the Job, so a
 * Job that is gone has nothing left running. The uid precondition keeps a
 * Job made again under the same name safe. Failed calls are tried again a
 * few times. Resolves to false when the Job was already gone (404, or
 * another Job holds the name: 409); never rejects.
 */
export async function deleteJob(context: RunContext, jobName: string, uid: string, logger: Logger): Promise<boolean> {
  let delay = context.retryMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await context.clients.batch.deleteNamespacedJob({
        name: jobName,
        namespace: context.namespace,
        propagationPolicy: "Foreground",
        body: { propagationPolicy: "Foreground", preconditions: { uid } },
      });
      return true;
    } catch (error) {
      const problem = apiProblem(error);
      if (problem.status === 404 || problem.status === 409) return false;
      if (attempt >= ATTEMPTS) {
        logger.error("could not delete the run's Job; it stops at its activeDeadlineSeconds", {
          job: jobName,
          error: problem.message,
        });
        return true;
      }
      logger.warn("deleting the run's Job failed; trying again", {
        job: jobName,
        error: problem.message,
        retry_ms: delay,
      });
      await sleep(delay);
      delay *= 2;
    }
  }
}
