import { endInitContainers, initContainerStatuses } from "./init-containers.js";
import type { ObjectStore } from "./object-store.js";
import type { PodLogs } from "./pod-logs.js";
import { KINDS, type Raw } from "./status.js";
import { validateManifest } from "./validate.js";

const now = (): string => new Date().toISOString();
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const condition = (type: string, reason?: string, message?: string): Raw => ({
  type,
  status: "True",
  lastProbeTime: now(),
  lastTransitionTime: now(),
  ...(reason ? { reason, message } : {}),
});

/** How the engine container ends in a simulation. */
export interface ContainerEnd {
  exitCode: number;
  reason?: string;
  /** The termination message (what the wrapper wrote, or the runtime's). */
  message?: string;
}

/**
 * The controllers and kubelet the fake stands in for: the Job controller
 * (one pod per Job, its status and conditions) and the kubelet (container
 * states, the termination message, the environment from Secrets). Tests
 * drive the pod's life; Job deletion is in job-deletion.ts, the API
 * server side in api-routes.ts.
 */
export class Workloads {
  /** Manifests a controller of the fake refused (a Job whose template makes no valid pod). */
  readonly problems: string[] = [];

  constructor(
    private readonly store: ObjectStore,
    private readonly logs: PodLogs,
  ) {}

  /** Defaults the API server applies to a new Job. */
  defaultJob(job: Raw): void {
    const spec = job.spec;
    spec.completions ??= 1;
    spec.parallelism ??= 1;
    spec.backoffLimit ??= 6;
    spec.suspend ??= false;
    spec.completionMode ??= "NonIndexed";
    spec.template.metadata ??= {};
  }

  /** The Job controller's labels and selector, set once the uid is known. */
  jobCreated(job: Raw): void {
    const { namespace, name, uid } = job.metadata;
    this.store.update(KINDS.jobs, namespace, name, (j) => {
      const own = {
        "batch.kubernetes.io/controller-uid": uid,
        "controller-uid": uid,
        "batch.kubernetes.io/job-name": name,
        "job-name": name,
      };
      j.spec.selector = { matchLabels: { "batch.kubernetes.io/controller-uid": uid } };
      j.spec.template.metadata.labels = { ...j.spec.template.metadata.labels, ...own };
      j.status = {};
    });
    if (job.spec.suspend !== true) setImmediate(() => this.createPod(namespace, name));
  }

  private createPod(namespace: string, jobName: string): void {
    const job = this.store.find("jobs", namespace, jobName);
    if (job === undefined || job.metadata.deletionTimestamp !== undefined) return;
    const template = job.spec.template;
    const pod: Raw = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: `${jobName}-${Math.random().toString(36).slice(2, 7).padEnd(5, "x")}`,
        namespace,
        labels: { ...template.metadata.labels },
        annotations: { ...template.metadata.annotations },
        ownerReferences: [
          {
            apiVersion: "batch/v1",
            kind: "Job",
            name: jobName,
            uid: job.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: structuredClone(template.spec),
      status: {
        phase: "Pending",
        conditions: [condition("PodScheduled")],
        containerStatuses: template.spec.containers.map((c: Raw) => ({
          name: c.name,
          image: c.image,
          imageID: "",
          ready: false,
          restartCount: 0,
          started: false,
          state: { waiting: { reason: "ContainerCreating" } },
        })),
        ...initContainerStatuses(template.spec),
      },
    };
    try {
      validateManifest(KINDS.pods, pod, namespace);
    } catch (error) {
      this.problems.push(`the Job ${jobName} makes an invalid pod: ${(error as Error).message}`);
      return;
    }
    this.store.create(KINDS.pods, namespace, pod);
    this.updateJob(namespace, jobName, (s) => Object.assign(s, { active: 1, ready: 0, startTime: now() }));
  }

  /** The Job's pod (the newest), or throws. */
  podOf(namespace: string, jobName: string): Raw {
    const pods = this.store
      .list("pods", namespace, null)
      .filter((p) => p.metadata.ownerReferences?.some((r: Raw) => r.name === jobName && r.kind === "Job"));
    const pod = pods.at(-1);
    if (pod === undefined) throw new Error(`the fake has no pod of Job ${jobName}`);
    return pod;
  }

  /**
   * The kubelet starts the container: its ConfigMap volumes must exist, and
   * its Secret references resolve (else it waits with
   * CreateContainerConfigError, as the kubelet does). Returns the
   * container's environment as the process would see it.
   */
  startPod(namespace: string, jobName: string): Record<string, string> | undefined {
    const pod = this.podOf(namespace, jobName);
    for (const volume of pod.spec.volumes ?? []) {
      if (
        volume.configMap !== undefined
        && this.store.find("configmaps", namespace, volume.configMap.name) === undefined
      ) {
        throw new Error(`configmap "${volume.configMap.name}" not found: the kubelet cannot mount it yet`);
      }
      if (volume.secret !== undefined && this.store.find("secrets", namespace, volume.secret.secretName) === undefined)
        throw new Error(`secret "${volume.secret.secretName}" not found: the kubelet cannot mount it yet`);
    }
    endInitContainers(this.store, namespace, pod.metadata.name, { exitCode: 0, reason: "Completed" });
    const env: Record<string, string> = {};
    for (const entry of pod.spec.containers[0].env ?? []) {
      const ref = entry.valueFrom?.secretKeyRef;
      if (ref === undefined) {
        env[entry.name] = entry.value ?? "";
        continue;
      }
      const secret = this.store.find("secrets", namespace, ref.name);
      const problem =
        secret === undefined
          ? `secret "${ref.name}" not found`
          : secret.data?.[ref.key] === undefined
            ? `couldn't find key ${ref.key} in Secret ${namespace}/${ref.name}`
            : undefined;
      if (problem !== undefined) {
        this.setContainer(
          namespace,
          pod.metadata.name,
          { waiting: { reason: "CreateContainerConfigError", message: problem } },
          "Pending",
        );
        return undefined;
      }
      env[entry.name] = Buffer.from(secret.data[ref.key], "base64").toString("utf8");
    }
    this.setContainer(namespace, pod.metadata.name, { running: { startedAt: now() } }, "Running");
    this.updateJob(namespace, jobName, (s) => Object.assign(s, { ready: 1 }));
    return env;
  }

  /** The container waits with this reason (an image pull that failed, say). */
  waitPod(namespace: string, jobName: string, reason: string, message: string): void {
    this.setContainer(
      namespace,
      this.podOf(namespace, jobName).metadata.name,
      { waiting: { reason, message } },
      "Pending",
    );
  }

  /** The engine container ends; the Job completes or fails (backoffLimit 0). */
  finishPod(namespace: string, jobName: string, end: ContainerEnd): void {
    const pod = this.podOf(namespace, jobName);
    const started = pod.status.containerStatuses[0].state.running?.startedAt ?? now();
    const terminated = {
      exitCode: end.exitCode,
      reason: end.reason ?? (end.exitCode === 0 ? "Completed" : "Error"),
      ...(end.message === undefined ? {} : { message: end.message }),
      startedAt: started,
      finishedAt: now(),
    };
    this.setContainer(namespace, pod.metadata.name, { terminated }, end.exitCode === 0 ? "Succeeded" : "Failed");
    this.logs.end(pod.metadata.name);
    if (end.exitCode === 0) {
      this.updateJob(namespace, jobName, (s) =>
        Object.assign(s, {
          active: 0,
          ready: 0,
          succeeded: 1,
          completionTime: now(),
          conditions: [
            condition("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods"),
            condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods"),
          ],
        }),
      );
    } else {
      this.failJob(namespace, jobName, "BackoffLimitExceeded", "Job has reached the specified backoff limit");
    }
  }

  /**
   * The init containers end with `end` before the engine container starts.
   * One that fails ends the pod (restartPolicy Never): the engine container
   * never starts and the Job fails.
   */
  failInit(namespace: string, jobName: string, end: ContainerEnd): void {
    const name = this.podOf(namespace, jobName).metadata.name;
    endInitContainers(this.store, namespace, name, end);
    this.store.update(KINDS.pods, namespace, name, (p) => {
      p.status.phase = "Failed";
    });
    this.logs.end(name);
    this.failJob(namespace, jobName, "BackoffLimitExceeded", "Job has reached the specified backoff limit");
  }

  /** activeDeadlineSeconds passed: the Job controller deletes the pod (SIGTERM) and fails the Job. */
  async exceedDeadline(namespace: string, jobName: string): Promise<void> {
    this.updateJob(namespace, jobName, (s) =>
      Object.assign(s, {
        conditions: [condition("FailureTarget", "DeadlineExceeded", "Job was active longer than specified deadline")],
      }),
    );
    await this.terminatePod(namespace, this.podOf(namespace, jobName).metadata.name);
    this.failJob(namespace, jobName, "DeadlineExceeded", "Job was active longer than specified deadline");
  }

  /** The node is lost: the taint manager deletes the pod, whose container never reports an end; the Job fails. */
  async loseNode(namespace: string, jobName: string): Promise<void> {
    const name = this.podOf(namespace, jobName).metadata.name;
    this.store.update(KINDS.pods, namespace, name, (p) => {
      p.metadata.deletionTimestamp = now();
      p.status.conditions.push(
        condition("DisruptionTarget", "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint"),
      );
    });
    await tick();
    this.store.remove(KINDS.pods, namespace, name);
    // The API server's connections to the lost kubelet break.
    this.logs.cut(name);
    this.failJob(namespace, jobName, "BackoffLimitExceeded", "Job has reached the specified backoff limit");
  }

  /** Graceful pod deletion: marked, the running container gets SIGTERM (exit 143), then the pod goes. */
  async terminatePod(namespace: string, name: string): Promise<void> {
    const pod = this.store.update(KINDS.pods, namespace, name, (p) => {
      p.metadata.deletionTimestamp = now();
    });
    await tick();
    const state = pod.status.containerStatuses[0].state;
    if (state.running !== undefined) {
      this.setContainer(
        namespace,
        name,
        { terminated: { exitCode: 143, reason: "Error", startedAt: state.running.startedAt, finishedAt: now() } },
        "Failed",
      );
      this.logs.end(name);
    }
    await tick();
    this.store.remove(KINDS.pods, namespace, name);
  }

  private setContainer(namespace: string, podName: string, state: Raw, phase: string): void {
    this.store.update(KINDS.pods, namespace, podName, (p) => {
      const status = p.status.containerStatuses[0];
      status.state = state;
      status.started = state.running !== undefined;
      status.ready = state.running !== undefined;
      p.status.phase = phase;
    });
  }

  private failJob(namespace: string, jobName: string, reason: string, message: string): void {
    this.updateJob(namespace, jobName, (s) =>
      Object.assign(s, {
        active: 0,
        ready: 0,
        failed: 1,
        conditions: [condition("FailureTarget", reason, message), condition("Failed", reason, message)],
      }),
    );
  }

  private updateJob(namespace: string, jobName: string, change: (status: Raw) => void): void {
    if (this.store.find("jobs", namespace, jobName) === undefined) return;
    this.store.update(KINDS.jobs, namespace, jobName, (j) => {
      j.status ??= {};
      change(j.status);
    });
  }
}
