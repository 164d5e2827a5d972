import type { ObjectStore } from "./object-store.js";
import { KINDS, type Raw, StatusError } from "./status.js";
import type { Workloads } from "./workloads.js";

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * DELETE of a Job, with the garbage collector's part: `Orphan` (the
 * default of batch/v1 Jobs) keeps the pods and drops their owner
 * reference, `Background` deletes the Job and then its dependents,
 * `Foreground` marks the Job (deletionTimestamp, the foregroundDeletion
 * finalizer), deletes its dependents (pods terminate with SIGTERM), then
 * the Job. A uid precondition that does not match is a 409. Answers as the
 * API server does: the object while it is being deleted, a Success Status
 * once it is gone.
 */
export function deleteJob(
  store: ObjectStore,
  workloads: Workloads,
  namespace: string,
  name: string,
  policy: string,
  preconditionUid: string | undefined,
): Raw {
  const job = store.get(KINDS.jobs, namespace, name);
  if (preconditionUid !== undefined && preconditionUid !== job.metadata.uid) {
    throw new StatusError(
      409,
      "Conflict",
      `Operation cannot be fulfilled on jobs.batch "${name}": Precondition failed: UID in precondition: ${preconditionUid}, UID in object meta: ${job.metadata.uid}`,
      {
        name,
        group: "batch",
        kind: "jobs",
      },
    );
  }
  if (job.metadata.deletionTimestamp !== undefined) return job;
  const uid = job.metadata.uid;
  if (policy === "Foreground") {
    const marked = store.update(KINDS.jobs, namespace, name, (j) => {
      j.metadata.deletionTimestamp = new Date().toISOString();
      j.metadata.finalizers = ["foregroundDeletion"];
    });
    void collect(store, workloads, namespace, uid).then(() => store.remove(KINDS.jobs, namespace, name));
    return marked;
  }
  const removed = store.remove(KINDS.jobs, namespace, name);
  if (policy === "Background") void collect(store, workloads, namespace, uid);
  else orphan(store, namespace, uid);
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: { name, group: "batch", kind: "jobs", uid: removed.metadata.uid },
  };
}

function dependents(
  store: ObjectStore,
  namespace: string,
  uid: string,
): Array<{ resource: "pods" | "configmaps" | "secrets"; object: Raw }> {
  const owned = (o: Raw) => o.metadata.ownerReferences?.some((r: Raw) => r.uid === uid) === true;
  return [
    ...store
      .list("pods", namespace, null)
      .filter(owned)
      .map((object) => ({ resource: "pods" as const, object })),
    ...store
      .list("configmaps", namespace, null)
      .filter(owned)
      .map((object) => ({ resource: "configmaps" as const, object })),
    ...store
      .list("secrets", namespace, null)
      .filter(owned)
      .map((object) => ({ resource: "secrets" as const, object })),
  ];
}

async function collect(store: ObjectStore, workloads: Workloads, namespace: string, uid: string): Promise<void> {
  await tick();
  for (const { resource, object } of dependents(store, namespace, uid)) {
    if (resource === "pods") await workloads.terminatePod(namespace, object.metadata.name);
    else store.remove(KINDS[resource], namespace, object.metadata.name);
  }
  await tick();
}

function orphan(store: ObjectStore, namespace: string, uid: string): void {
  for (const { resource, object } of dependents(store, namespace, uid)) {
    store.update(KINDS[resource], namespace, object.metadata.name, (o) => {
      o.metadata.ownerReferences = o.metadata.ownerReferences.filter((r: Raw) => r.uid !== uid);
    });
  }
}
