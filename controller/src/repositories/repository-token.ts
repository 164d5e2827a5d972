/** A credential for code host A's repositories: a token secret's value, or a GitHub App's installation token. */
export interface RepositoryToken {
  /** A token valid for the next request; never logged, stored or put in a URL or a command line. */
  token(): Promise<string>;
}
