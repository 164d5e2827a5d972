import { KubeConfig } from "@kubernetes/client-node";
import { ControllerError, ControllerErrorCode } from "../errors.js";

/** Where the cluster is: the parts of `execution.kubernetes` that choose the connection and namespace. */
export interface KubeConnection {
  kubeconfig: string | undefined;
  context: string | undefined;
  namespace: string | undefined;
}

/**
 * The KubeConfig of `execution.kubernetes`: its `kubeconfig` file, or the
 * client's defaults (the in-cluster service account, then $KUBECONFIG or
 * ~/.kube/config), switched to `context` when set. Throws an InvalidConfig
 * error that names the file or the context.
 */
export function loadKubeConfig(config: KubeConnection): KubeConfig {
  const kubeConfig = new KubeConfig();
  try {
    if (config.kubeconfig === undefined) kubeConfig.loadFromDefault();
    else kubeConfig.loadFromFile(config.kubeconfig);
  } catch (error) {
    const what = config.kubeconfig === undefined ? "the default kubeconfig" : `the kubeconfig ${config.kubeconfig}`;
    throw new ControllerError(
      ControllerErrorCode.InvalidConfig,
      `execution.kubernetes: ${what} could not be read: ${(error as Error).message}`,
      {
        cause: error,
        hint: "set execution.kubernetes.kubeconfig to a readable kubeconfig file, or run the controller in the cluster with a service account",
      },
    );
  }
  if (config.context !== undefined) {
    if (kubeConfig.getContextObject(config.context) === null) {
      const known = kubeConfig.getContexts().map((c) => c.name);
      throw new ControllerError(
        ControllerErrorCode.InvalidConfig,
        `execution.kubernetes.context: the kubeconfig has no context "${config.context}"`,
        {
          hint:
            known.length === 0 ? "the kubeconfig defines no context; check the file" : `use one of ${known.join(", ")}`,
        },
      );
    }
    kubeConfig.setCurrentContext(config.context);
  }
  return kubeConfig;
}

/** The Jobs' namespace: `execution.kubernetes.namespace`, else the context's, else `default`. */
export function jobNamespace(config: KubeConnection | undefined, kubeConfig: KubeConfig): string {
  if (config?.namespace !== undefined) return config.namespace;
  const context = kubeConfig.getContextObject(kubeConfig.getCurrentContext());
  return context?.namespace ?? "default";
}
