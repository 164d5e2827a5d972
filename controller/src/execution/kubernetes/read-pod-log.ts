import { ControllerError, ControllerErrorCode } from "../../errors.js";
import { apiHint, apiProblem, type KubeClients } from "../../kube/kube-api.js";
import type { TaskRun } from "../../runs/task-run.js";
import { parseAttachment } from "./attachment.js";
import { ENGINE_CONTAINER } from "./container-paths.js";
import { readRunPod } from "./run-pod.js";

/** Bytes per line assumed to turn a byte count into the `tailLines` asked for. */
const BYTES_PER_LINE = 16;
const MAX_TAIL_LINES = 100_000;

/**
 * The last `maxBytes` of the run's pod log (from the line after a cut), as
 * `errand runs show` prints it; undefined when the run has no Job recorded
 * or its pod is gone (the Job's TTL removes it with its log). The log is
 * the container's stdout and stderr, merged as Kubernetes keeps them.
 */
export async function readPodLog(
  clients: KubeClients,
  run: TaskRun,
  maxBytes: number,
  mask: (text: string) => string,
): Promise<string | undefined> {
  const attachment = parseAttachment(run.attachment);
  if (attachment === undefined) return undefined;
  const { namespace, uid } = attachment;
  try {
    const pod = await readRunPod(clients, namespace, run.id, uid);
    const name = pod?.metadata?.name;
    if (name === undefined) return undefined;
    const tailLines = Math.min(MAX_TAIL_LINES, Math.max(100, Math.ceil(maxBytes / BYTES_PER_LINE)));
    const text = await clients.core.readNamespacedPodLog({ name, namespace, container: ENGINE_CONTAINER, tailLines });
    return mask(tail(String(text), maxBytes));
  } catch (error) {
    const problem = apiProblem(error);
    if (problem.status === 404) return undefined;
    // The container has not started: there is no log yet.
    if (problem.status === 400) return "";
    throw new ControllerError(
      ControllerErrorCode.Internal,
      `the log of run ${run.id} could not be read from the cluster: ${problem.message}`,
      {
        cause: error,
        hint: apiHint(problem, "get", "pods/log", namespace),
      },
    );
  }
}

function tail(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (!Number.isFinite(maxBytes) || bytes.length <= maxBytes) return text;
  let cut = bytes.subarray(bytes.length - Math.max(0, Math.floor(maxBytes)));
  const newline = cut.indexOf(0x0a);
  if (newline >= 0) cut = cut.subarray(newline + 1);
  return cut.toString("utf8");
}
