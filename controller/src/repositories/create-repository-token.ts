import { createAppToken } from "./app-token.js";
import type { CodehostARepositoriesConfig } from "./repositories-schema.js";
import { createStaticToken, type RepositoryToken } from "./repository-token.js";

/**
 * The credential `repositories.codehost_a` names, from the resolved secrets
 * (the names are in the controller's secret references, so a missing one
 * stops the start with the others). `onToken` sees every token value, for
 * masking.
 */
export function createRepositoryToken(
  config: CodehostARepositoriesConfig,
  secrets: Readonly<Record<string, string>>,
  onToken?: (token: string) => void,
): RepositoryToken {
  if (config.app !== undefined) {
    return createAppToken({
      appId: config.app.app_id,
      privateKey: secrets[config.app.private_key_secret] ?? "",
      installationId: config.app.installation_id,
      baseUrl: config.api_base_url,
      ...(onToken === undefined ? {} : { onToken }),
    });
  }
  return createStaticToken(secrets[config.token_secret ?? ""] ?? "");
}
