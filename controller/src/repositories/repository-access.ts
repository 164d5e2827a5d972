import { createSecretMask } from "@errand/channel-sdk/logger";
import { createRepositoryToken } from "./create-repository-token.js";
import type { CodehostARepositoriesConfig } from "./repositories-schema.js";
import type { RepositoryToken } from "./repository-token.js";

/**
 * The controller's one credential for code host A, shared by the checkout,
 * the pull request, the Kubernetes Job's Secret and the progress comment, and
 * the mask of every token it has handed out (a GitHub App's change every hour).
 */
export interface RepositoryAccess {
  config: CodehostARepositoriesConfig;
  token: RepositoryToken;
  /** Every token value handed out so far. */
  tokens(): readonly string[];
  /** `text` with every token handed out so far masked. */
  scrub(text: string): string;
}

/** The access `repositories.codehost_a` configures; undefined when it is unset. */
export function createRepositoryAccess(
  config: CodehostARepositoriesConfig | undefined,
  secrets: Readonly<Record<string, string>>,
): RepositoryAccess | undefined {
  if (config === undefined) return undefined;
  const seen = new Set<string>();
  let mask = (text: string) => text;
  const token = createRepositoryToken(config, secrets, (value) => {
    if (seen.has(value)) return;
    seen.add(value);
    mask = createSecretMask(seen);
  });
  return {
    config,
    token,
    tokens: () => [...seen],
    scrub: (text) => (seen.size === 0 ? text : mask(text)),
  };
}
