/**
 * A code host credential as the controller uses it for clone, push and pull
 * requests. `token()` gives a token valid for at least a few minutes (a
 * GitHub App's is refreshed before it expires); callers ask again for each
 * use rather than keep it.
 */
export interface RepositoryToken {
  token(): Promise<string>;
}

/** A fixed token (`repositories.codehost_a.token_secret`). */
export function createStaticToken(value: string): RepositoryToken {
  return { token: async () => value };
}
