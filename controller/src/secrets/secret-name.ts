import { looksLikeToken } from "./looks-like-token.js";

/** What a secret name may look like: `chat-a-token`, `CHAT_A_TOKEN`, `tracker.token` (a Kubernetes Secret key also fits). */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$/;

/** Why a value in a `*_secret` key cannot be used as a secret name. */
export interface SecretNameProblem {
  message: string;
  fix: string;
}

/**
 * Checks a value written in a `*_secret` key. Such a key names a secret;
 * a value that looks like the secret itself (a token, a URL) is refused, so
 * that a credential pasted into errand.yaml never reaches a log or a repository.
 * Returns undefined for a usable name.
 */
export function secretNameProblem(value: string): SecretNameProblem | undefined {
  const token = looksLikeToken(value);
  if (token !== undefined) {
    return {
      message: `looks like ${token}, not like the name of a secret`,
      fix: "put the value in a secret (for example the environment variable ERRAND_SECRET_MY_TOKEN, or the file <secrets.dir>/my-token) and write its name here (my-token); then revoke the value written here, it is exposed",
    };
  }
  if (!SECRET_NAME_PATTERN.test(value)) {
    return {
      message: `${JSON.stringify(value)} is not a secret name`,
      fix: "use letters, digits, '.', '_' and '-' (starting with a letter or digit, at most 253 characters), e.g. chat-a-token",
    };
  }
  return undefined;
}
