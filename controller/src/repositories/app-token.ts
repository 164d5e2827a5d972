import { createPrivateKey } from "node:crypto";
import { createAppAuth } from "@octokit/auth-app";
import { request } from "@octokit/request";
import { RepositoryError } from "./repository-error.js";
import type { RepositoryToken } from "./repository-token.js";

/** Options of {@link createAppToken}. */
export interface AppTokenOptions {
  appId: number;
  /** The App's private key (PEM), from the secret store. */
  privateKey: string;
  installationId: number;
  /** `repositories.codehost_a.api_base_url`. */
  baseUrl: string;
  /** Called with every new installation token (to mask it and to give it to git). */
  onToken?: (token: string) => void;
  /** Clock, ms; default Date.now. */
  now?: () => number;
}

/** A token with less left than this is replaced: a clone or push may take minutes. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

const KEY = "repositories.codehost_a.app";

/**
 * Installation tokens of a GitHub App, made with `@octokit/auth-app`. Its
 * cache keeps a token for 59 minutes and never reads `expires_at`, so this
 * reads it: a token with less than {@link REFRESH_MARGIN_MS} left is asked
 * for again with `refresh: true`. The private key is checked at once, so a
 * bad one fails the start, not the first run.
 */
export function createAppToken(options: AppTokenOptions): RepositoryToken {
  checkPrivateKey(options.privateKey);
  const now = options.now ?? Date.now;
  const auth = createAppAuth({
    appId: options.appId,
    privateKey: options.privateKey,
    installationId: options.installationId,
    request: request.defaults({ baseUrl: options.baseUrl.replace(/\/+$/, "") }),
  });
  let last: string | undefined;
  const ask = async (refresh: boolean) => {
    try {
      return await auth({ type: "installation", refresh });
    } catch (error) {
      throw tokenError(error, options);
    }
  };
  return {
    async token() {
      let answer = await ask(false);
      if (Date.parse(answer.expiresAt) - now() < REFRESH_MARGIN_MS) answer = await ask(true);
      if (answer.token !== last) {
        last = answer.token;
        options.onToken?.(answer.token);
      }
      return answer.token;
    },
  };
}

function checkPrivateKey(pem: string): void {
  try {
    createPrivateKey(pem);
  } catch (error) {
    throw new RepositoryError(
      "private_key_invalid",
      `the GitHub App's private key is not a PEM private key (${(error as Error).message})`,
      {
        cause: error,
        hint: `put the .pem file the App's settings page generated, whole, in the secret named by ${KEY}.private_key_secret`,
      },
    );
  }
}

function tokenError(error: unknown, options: AppTokenOptions): RepositoryError {
  const status = (error as { status?: unknown }).status;
  const where = `POST ${options.baseUrl}/app/installations/${options.installationId}/access_tokens`;
  if (status === 401)
    return new RepositoryError("app_unauthorized", `code host A refused the App's JWT (401) at ${where}`, {
      cause: error,
      hint: `check ${KEY}.app_id and that ${KEY}.private_key_secret holds a current key of that App`,
    });
  if (status === 404)
    return new RepositoryError(
      "installation_not_found",
      `code host A knows no installation ${options.installationId} of App ${options.appId} (404) at ${where}`,
      { cause: error, hint: `check ${KEY}.installation_id (the number at the end of the installation's settings URL)` },
    );
  const what = typeof status === "number" ? `answered ${status}` : `failed: ${(error as Error).message}`;
  return new RepositoryError("token_request_failed", `the installation token request ${what} at ${where}`, {
    cause: error,
    hint: `check ${KEY} and repositories.codehost_a.api_base_url, and that the code host is reachable`,
  });
}
