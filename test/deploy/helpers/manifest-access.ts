import { expect } from "vitest";
import type { K8sObject } from "./k8s-schemas.js";

// Loose views of rendered objects for assertions: the checker has already
// held them to the schema, so the tests only navigate them.

/** A container, volume or mount as rendered: navigated freely in assertions. */
// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
export type Loose = Record<string, any>;

/** The pod template's spec of a rendered Deployment. */
export interface Pod {
  serviceAccountName: string;
  terminationGracePeriodSeconds: number;
  securityContext: Record<string, unknown>;
  containers: Loose[];
  volumes: Loose[];
}

/** A rendered Deployment. */
export type DeploymentObject = K8sObject & {
  spec: { replicas: number; strategy: { type: string }; template: { spec: Pod } };
};

/** The only object of `kind` (the assertion fails when there is none or several). */
export function one<T extends K8sObject>(objects: K8sObject[], kind: string): T {
  const found = objects.filter((o) => o.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as T;
}

/** The volume mounted at `path` or at a folder above it (the deepest mount wins, as in the kernel). */
export function mountFor(pod: Pod, path: string): { mount: Loose; volume: Loose } | undefined {
  const mounts = (pod.containers[0]!.volumeMounts as Loose[]).filter(
    (m) => path === m.mountPath || path.startsWith(`${m.mountPath}/`),
  );
  const mount = mounts.sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
  return mount && { mount, volume: pod.volumes.find((v) => v.name === mount.name)! };
}
