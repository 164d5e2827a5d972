import { EngineStartError } from "../engine-start-error.js";
import type { RunSpec } from "../execution-backend.js";
import type { PreparedJob } from "./prepare-job.js";
import type { KubernetesRepositories, RunContext } from "./run-context.js";

/** Shorter values would match ordinary words; no real token is that short. */
const MIN_TOKEN_LENGTH = 8;

/**
 * The repository credential for a run with a checkout (a fresh one: an
 * installation token may have been refreshed since the last run), checked
 * to be nowhere in what is written to the cluster besides its Secret.
 * Undefined for a run without a checkout.
 */
export async function checkoutToken(
  context: RunContext,
  prepared: PreparedJob,
  spec: RunSpec,
): Promise<string | undefined> {
  const repositories = context.repositories;
  if (prepared.checkout === undefined || repositories === undefined) return undefined;
  let token: string;
  try {
    token = await repositories.token.token();
  } catch (error) {
    throw new EngineStartError(
      `run ${spec.run.id} was not started: no credential for ${prepared.checkout.url} could be had: ${(error as Error).message}`,
      {
        hint: "check repositories.codehost_a.token_secret, or the app's app_id, private_key_secret and installation_id",
        cause: error,
      },
    );
  }
  if (token.trim() === "") {
    throw new EngineStartError(`run ${spec.run.id} was not started: the repository credential is empty`, {
      hint: "put the token in the secret repositories.codehost_a.token_secret names",
    });
  }
  const inJob = token.length >= MIN_TOKEN_LENGTH && JSON.stringify(prepared.job).includes(token);
  const inFiles = token.length >= MIN_TOKEN_LENGTH && Object.values(prepared.files).some((t) => t.includes(token));
  if (inJob || inFiles) {
    throw new EngineStartError(
      `run ${spec.run.id} was not started: the repository credential appears in ${inJob ? "the Job manifest" : "the prompt or ticket"}, which would be stored in the cluster in clear`,
      { hint: "remove the token from engines.<name>.env, args and prompt; the backend passes it from its own Secret" },
    );
  }
  return token;
}

/** `repositories` whose every token is handed to `onToken` first (to mask it in logs). */
export function maskingTokens(
  repositories: KubernetesRepositories,
  onToken: (token: string) => void,
): KubernetesRepositories {
  return {
    checkout: repositories.checkout,
    token: {
      async token() {
        const token = await repositories.token.token();
        onToken(token);
        return token;
      },
    },
  };
}
