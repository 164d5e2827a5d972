/**
 * A code host credential, as clone, push and the REST calls consume it: a
 * token secret's value, or a fresh GitHub App installation token. Callers
 * ask for it each time they need it (an installation token expires), and
 * never put it in a URL, a command line, a log line or the store.
 */
export interface RepositoryToken {
  token(): Promise<string>;
}
