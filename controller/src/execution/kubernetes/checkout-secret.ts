import type { Logger } from "@errand/channel-sdk";
import type { V1Job, V1Secret } from "@kubernetes/client-node";
import { apiHint, apiProblem } from "../../kube/kube-api.js";
import { branchName } from "../../repositories/branch-name.js";
import { EngineStartError } from "../engine-start-error.js";
import type { RunSpec } from "../execution-backend.js";
import type { PodCheckout } from "./checkout-pod.js";
import { CREDENTIAL_KEY } from "./checkout-script.js";
import type { KubernetesRepositories, RunContext } from "./run-context.js";

/** The Secret holding a run's repository credential. */
export function checkoutSecretName(jobName: string): string {
  return `${jobName}-git`;
}

/**
 * The run's checkout, when repositories are configured and the ticket names
 * its repository (a ticket without one gets an empty workspace, as before).
 * A follow-up on review works on its pull request's branch; another run on
 * a new branch named by `repositories.checkout.branch_template`.
 * Throws an EngineStartError for a repository URL git cannot clone over HTTPS.
 */
export function checkoutFor(
  repositories: KubernetesRepositories | undefined,
  spec: RunSpec,
  jobName: string,
): PodCheckout | undefined {
  const repoUrl = spec.ticket.repoUrl.trim();
  if (repositories === undefined || repoUrl === "") return undefined;
  const { checkout } = repositories;
  const followUp = spec.run.followUp?.pullRequest.branch;
  return {
    url: cloneUrl(repoUrl, spec),
    ...(followUp === undefined ? {} : { existing: true }),
    branch:
      followUp
      ?? branchName(checkout.branch_template, {
        ticketId: spec.ticket.id,
        title: spec.ticket.title,
        runId: spec.run.id,
      }),
    depth: checkout.depth,
    userName: checkout.git_user_name,
    userEmail: checkout.git_user_email,
    secretName: checkoutSecretName(jobName),
  };
}

/** The clone URL of a repository's web URL (`https://host/owner/name` → `…/name.git`), with no user or password in it. */
function cloneUrl(repoUrl: string, spec: RunSpec): string {
  let url: URL;
  try {
    url = new URL(repoUrl);
  } catch {
    url = new URL("invalid:");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new EngineStartError(
      `run ${spec.run.id} was not started: the ticket's repository URL ${JSON.stringify(repoUrl)} is not an http(s) URL, so it cannot be cloned`,
      { hint: "check the ticket source: code host A tickets carry the repository's html_url" },
    );
  }
  url.username = "";
  url.password = "";
  url.search = "";
  url.hash = "";
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = path.endsWith(".git") ? path : `${path}.git`;
  return url.toString();
}

/**
 * Creates the run's credential Secret, owned by its Job so that the garbage
 * collector removes it with the Job at the latest; the run's end deletes it
 * before that ({@link deleteCheckoutSecret}). One made by an earlier start
 * of the same run is replaced: the token in it may have expired.
 */
export async function createCheckoutSecret(
  context: RunContext,
  job: V1Job,
  uid: string,
  name: string,
  token: string,
): Promise<void> {
  const { namespace } = context;
  const metadata = job.metadata ?? {};
  const body: V1Secret = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: {
      name,
      namespace,
      labels: { ...metadata.labels },
      annotations: { ...metadata.annotations },
      ownerReferences: [{ apiVersion: "batch/v1", kind: "Job", name: metadata.name ?? "", uid }],
    },
    type: "Opaque",
    immutable: true,
    data: { [CREDENTIAL_KEY]: Buffer.from(token, "utf8").toString("base64") },
  };
  const create = () => context.clients.core.createNamespacedSecret({ namespace, body });
  try {
    await create().catch(async (error: unknown) => {
      if (apiProblem(error).status !== 409) throw error;
      await context.clients.core.deleteNamespacedSecret({ name, namespace });
      await create();
    });
  } catch (error) {
    const problem = apiProblem(error);
    throw new EngineStartError(`the credential Secret ${namespace}/${name} could not be created: ${problem.message}`, {
      hint: apiHint(problem, "create", "secrets", namespace),
      cause: error,
    });
  }
}

/** Deletes the run's credential Secret once the run ended; already gone is fine. Never rejects. */
export async function deleteCheckoutSecret(context: RunContext, name: string, logger: Logger): Promise<void> {
  try {
    await context.clients.core.deleteNamespacedSecret({ name, namespace: context.namespace });
  } catch (error) {
    const problem = apiProblem(error);
    if (problem.status === 404) return;
    logger.warn("could not delete the run's credential Secret; the garbage collector removes it with the Job", {
      secret: name,
      error: problem.message,
    });
  }
}
