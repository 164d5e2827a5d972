import type { V1Container, V1EnvVar, V1PodSpec, V1VolumeMount } from "@kubernetes/client-node";
import { CHECKOUT_CONTAINER, CHECKOUT_PATHS, CHECKOUT_SCRIPT, CREDENTIAL_KEY } from "./checkout-script.js";
import { CONTAINER_PATHS } from "./container-paths.js";

/** The checkout of one run's pod. */
export interface PodCheckout {
  /** The repository's clone URL, without any credential. */
  url: string;
  branch: string;
  /** True for a follow-up: the branch is its pull request's, and the checkout fails when it is gone. */
  existing?: boolean;
  depth: number;
  userName: string;
  userEmail: string;
  /** The run's credential Secret (checkout-secret.ts). */
  secretName: string;
}

/** Owner read only: the kubelet adds group read for the pod's fsGroup, which is how the non-root user reads it. */
const OWNER_READ = 0o400;
const VOLUME = "git-credential";

/**
 * Adds the checkout to an engine pod: the run's credential Secret as a
 * read-only volume, an init container that clones into the workspace
 * before the engine starts (the engine's own image, user and limits: an
 * agent that commits has git already), and to the engine container the
 * same volume and the branch, for the wrapper's push. A failed clone ends
 * the pod: init containers of a `restartPolicy: Never` pod are not retried.
 */
export function addCheckout(spec: V1PodSpec, checkout: PodCheckout): void {
  const engine = spec.containers[0];
  if (engine === undefined) return;
  spec.volumes = [
    ...(spec.volumes ?? []),
    {
      name: VOLUME,
      secret: {
        secretName: checkout.secretName,
        defaultMode: OWNER_READ,
        items: [{ key: CREDENTIAL_KEY, path: CREDENTIAL_KEY }],
      },
    },
  ];
  const mount: V1VolumeMount = { name: VOLUME, mountPath: CHECKOUT_PATHS.credentialDir, readOnly: true };
  engine.volumeMounts = [...(engine.volumeMounts ?? []), mount];
  engine.env = [
    ...(engine.env ?? []).filter((v) => !v.name.startsWith("ERRAND_GIT_")),
    { name: "ERRAND_GIT_BRANCH", value: checkout.branch },
  ];
  spec.initContainers = [checkoutContainer(engine, checkout, mount)];
}

function checkoutContainer(engine: V1Container, checkout: PodCheckout, mount: V1VolumeMount): V1Container {
  const env: V1EnvVar[] = [
    { name: "HOME", value: CONTAINER_PATHS.home },
    { name: "ERRAND_WORKSPACE", value: CONTAINER_PATHS.workspace },
    { name: "ERRAND_GIT_URL", value: checkout.url },
    { name: "ERRAND_GIT_BRANCH", value: checkout.branch },
    { name: "ERRAND_GIT_DEPTH", value: String(checkout.depth) },
    { name: "ERRAND_GIT_USER_NAME", value: checkout.userName },
    { name: "ERRAND_GIT_USER_EMAIL", value: checkout.userEmail },
    { name: "ERRAND_GIT_CREDENTIAL_FILE", value: CHECKOUT_PATHS.credentialFile },
    ...(checkout.existing ? [{ name: "ERRAND_GIT_EXISTING", value: "1" }] : []),
  ];
  const keep = new Set<string>([CONTAINER_PATHS.workspace, CONTAINER_PATHS.home]);
  const container: V1Container = {
    name: CHECKOUT_CONTAINER,
    image: engine.image,
    command: ["/bin/sh", "-c", CHECKOUT_SCRIPT, "errand-checkout", CONTAINER_PATHS.terminationMessage],
    workingDir: CONTAINER_PATHS.workspace,
    env,
    resources: structuredClone(engine.resources),
    securityContext: structuredClone(engine.securityContext),
    terminationMessagePath: CONTAINER_PATHS.terminationMessage,
    terminationMessagePolicy: "FallbackToLogsOnError",
    volumeMounts: [
      ...(engine.volumeMounts ?? []).filter((m) => keep.has(m.mountPath)).map((m) => ({ ...m })),
      { ...mount },
    ],
  };
  if (engine.imagePullPolicy !== undefined) container.imagePullPolicy = engine.imagePullPolicy;
  return container;
}
