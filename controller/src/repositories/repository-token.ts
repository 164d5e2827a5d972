/**
 * A credential for code host A, as the controller consumes it: a token
 * string, fetched fresh for each use (a GitHub App's installation token
 * expires and is refreshed). Tokens never go in a URL, a command line, a
 * log line, the store, a metric or a chat message.
 */
export interface RepositoryToken {
  token(): Promise<string>;
}
