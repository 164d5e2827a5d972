import { ApiException, BatchV1Api, CoreV1Api, type KubeConfig, Watch } from "@kubernetes/client-node";
import { ControllerError, ControllerErrorCode } from "../errors.js";

/** The API clients the backend uses, made from one KubeConfig. */
export interface KubeClients {
  batch: BatchV1Api;
  core: CoreV1Api;
  watch: Watch;
  /** For requests the clients do not make well (following a pod log). */
  kubeConfig: KubeConfig;
}

/** Makes the clients; throws an InvalidConfig error when the kubeconfig names no cluster to talk to. */
export function makeClients(kubeConfig: KubeConfig): KubeClients {
  if (kubeConfig.getCurrentCluster() === null) {
    throw new ControllerError(
      ControllerErrorCode.InvalidConfig,
      `execution.kubernetes: the kubeconfig's current context (${kubeConfig.getCurrentContext() || "none"}) names no cluster`,
      {
        hint: "set execution.kubernetes.kubeconfig and context to a cluster, or run the controller in the cluster with a service account",
      },
    );
  }
  return {
    batch: kubeConfig.makeApiClient(BatchV1Api),
    core: kubeConfig.makeApiClient(CoreV1Api),
    watch: new Watch(kubeConfig),
    kubeConfig,
  };
}

/** A failed API call, read: its HTTP status and the `Status` body the API server sent. */
export interface ApiProblem {
  /** HTTP status; undefined when no answer came (connection refused, DNS, TLS). */
  status: number | undefined;
  /** The Status `reason` (`NotFound`, `AlreadyExists`, `Forbidden`, `Invalid`, `Expired`, ...). */
  reason: string | undefined;
  /** The Status message, with the causes of an Invalid answer; or the error's own message. */
  message: string;
}

/** Reads an error thrown by @kubernetes/client-node. */
export function apiProblem(error: unknown): ApiProblem {
  if (error instanceof ApiException) {
    const body = statusBody(error.body);
    const causes = (body?.details?.causes ?? []).map(
      (c) => `${c.field ?? "(object)"}: ${c.message ?? c.reason ?? "invalid"}`,
    );
    const message = body?.message ?? `HTTP ${error.code}`;
    return {
      status: error.code,
      reason: body?.reason,
      message:
        causes.length > 0 && !message.includes(causes[0] as string) ? `${message} (${causes.join("; ")})` : message,
    };
  }
  const { statusCode, body } = (error ?? {}) as { statusCode?: unknown; body?: unknown };
  const status = typeof statusCode === "number" ? statusCode : undefined;
  const parsed = status === undefined ? undefined : statusBody(body);
  return {
    status,
    reason: parsed?.reason,
    message: parsed?.message ?? (error instanceof Error ? error.message : String(error)),
  };
}

interface StatusBody {
  message?: string;
  reason?: string;
  details?: { causes?: Array<{ field?: string; message?: string; reason?: string }> };
}

function statusBody(body: unknown): StatusBody | undefined {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body) as unknown;
    } catch {
      return body === "" ? undefined : { message: body };
    }
  }
  return typeof value === "object" && value !== null ? (value as StatusBody) : undefined;
}

/**
 * What to tell the user to check after a failed call, by status: the
 * permissions of the controller's service account, the namespace, the
 * address of the API server.
 */
export function apiHint(problem: ApiProblem, verb: string, resource: string, namespace: string): string {
  if (problem.status === undefined)
    return "check that the Kubernetes API server is reachable (execution.kubernetes.kubeconfig, or the in-cluster service account)";
  if (problem.status === 401)
    return "check the credentials of execution.kubernetes.kubeconfig (or the controller's service account token)";
  if (problem.status === 403)
    return `let the controller's service account ${verb} ${resource} in namespace ${namespace} (docs/kubernetes-backend.md, "RBAC")`;
  if (problem.status === 404 && problem.message.includes("namespace"))
    return `create namespace ${namespace}, or set execution.kubernetes.namespace`;
  if (problem.status === 422)
    return "check the settings under execution.kubernetes and the engine's env and image; the message names the field";
  return "see the message; docs/kubernetes-backend.md lists what the backend needs";
}
