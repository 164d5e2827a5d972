import { ConfigError, type ConfigProblem } from "../../config/config-error.js";
import type { CodehostAClient } from "./codehost-a-client.js";
import { isRequestError } from "./codehost-a-error.js";
import type { CodehostATicketingConfig } from "./codehost-a-schema.js";

const KEY = "ticketing.config";
const LISTED = 30;

/** What `prepare` learnt about the repository. */
export interface RepositoryFacts {
  /** The repository's web address, as the webhook's `repository.html_url` carries it (the tickets' repo_url). */
  htmlUrl: string;
  /** `owner/repo` as the code host spells it. */
  fullName: string;
}

/**
 * Checks the configuration against the repository once, at start: the
 * repository exists and has issues, and every label the rules name exists
 * there with exactly that spelling (the code host matches labels without
 * regard to case; the rules do not, so a near miss is a mistake to fix).
 * Throws a ConfigError (ERR_INVALID_CONFIG) naming each key, with the names
 * that do exist.
 */
export async function checkRepository(
  client: CodehostAClient,
  config: CodehostATicketingConfig,
  signal: AbortSignal,
): Promise<RepositoryFacts> {
  const { owner, repo } = config;
  const problems: ConfigProblem[] = ruleProblems(config);
  let facts: RepositoryFacts;
  try {
    const { data } = await client.rest.repos.get({ owner, repo, request: { signal } });
    facts = { htmlUrl: data.html_url, fullName: data.full_name };
    if (data.has_issues === false)
      problems.push({
        key: `${KEY}.repo`,
        message: `${data.full_name} has issues turned off`,
        fix: "turn on Issues in the repository's settings (General → Features), or name another repository",
      });
  } catch (error) {
    // A refused token is the operator's to fix, like a wrong name: a start-up error, not an outage to wait out.
    if (isRequestError(error) && error.status === 401)
      throw new ConfigError([...problems, refusedToken(config, error.message)], undefined, { cause: error });
    if (!isRequestError(error) || error.status !== 404) throw error;
    throw new ConfigError([...problems, await missingRepository(client, owner, repo, signal)]);
  }
  const existing = await client.paginate(client.rest.issues.listLabelsForRepo, {
    owner,
    repo,
    per_page: 100,
    request: { signal },
  });
  const names = existing.map((l) => l.name);
  const have = new Set(names);
  const wanted: Array<[string, string]> = [
    ...config.labels.map((l, i): [string, string] => [`${KEY}.labels[${i}]`, l]),
    ...config.exclude_labels.map((l, i): [string, string] => [`${KEY}.exclude_labels[${i}]`, l]),
    [`${KEY}.in_progress_label`, config.in_progress_label],
    [`${KEY}.failed_label`, config.failed_label],
  ];
  for (const [key, name] of wanted) {
    if (have.has(name)) continue;
    const near = names.find((n) => n.toLowerCase() === name.toLowerCase());
    problems.push({
      key,
      message: `label "${name}" does not exist in ${facts.fullName}${near === undefined ? "" : ` (did you mean "${near}"? names are case-sensitive here)`}; its labels: ${listed(names)}`,
      fix: `write the label's exact name, or create it (Issues → Labels → New label, or gh label create "${name}" -R ${facts.fullName})`,
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return facts;
}

/** Rules that could never pick anything up, or would pick up everything. */
function ruleProblems(config: CodehostATicketingConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (config.labels.length === 0) {
    problems.push({
      key: `${KEY}.labels`,
      message: "is empty: every open issue of the repository would start a run",
      fix: "list at least one trigger label, e.g. labels: [agent]",
    });
  }
  config.labels.forEach((label, i) => {
    const clash = config.exclude_labels.includes(label)
      ? "exclude_labels"
      : label === config.in_progress_label
        ? "in_progress_label"
        : label === config.failed_label
          ? "failed_label"
          : undefined;
    if (clash !== undefined)
      problems.push({
        key: `${KEY}.labels[${i}]`,
        message: `"${label}" is also ${clash}, so no issue could ever be picked up`,
        fix: `use different labels for labels and ${clash}`,
      });
  });
  if (config.in_progress_label === config.failed_label) {
    problems.push({
      key: `${KEY}.failed_label`,
      message: `is the same as in_progress_label ("${config.failed_label}")`,
      fix: "use two labels: the in-progress label is removed when a run ends, the failed label stays",
    });
  }
  return problems;
}

function refusedToken(config: CodehostATicketingConfig, detail: string): ConfigProblem {
  return {
    key: `${KEY}.token_secret`,
    message: `code host A refused the token in the secret "${config.token_secret}" (401 ${detail.replace(/ - https?:\/\/\S+$/, "")})`,
    fix: "put a valid token in that secret: it may be mistyped, expired or revoked",
  };
}

/** The problem for a repository the code host does not show: a wrong owner, or a wrong name (with the owner's repositories). */
async function missingRepository(
  client: CodehostAClient,
  owner: string,
  repo: string,
  signal: AbortSignal,
): Promise<ConfigProblem> {
  try {
    const { data } = await client.rest.repos.listForUser({
      username: owner,
      per_page: 100,
      sort: "full_name",
      request: { signal },
    });
    return {
      key: `${KEY}.repo`,
      message: `${owner} has no repository "${repo}" that the token can see; its public repositories: ${listed(data.map((r) => r.name))}`,
      fix: "write the repository's name as in its address, and give the token access to it (a fine-grained token lists the repositories it may use)",
    };
  } catch (error) {
    if (!isRequestError(error) || error.status !== 404) throw error;
    return {
      key: `${KEY}.owner`,
      message: `code host A has no user or organisation "${owner}"`,
      fix: "write the owner as in the repository's address (https://github.com/OWNER/REPO)",
    };
  }
}

function listed(names: readonly string[]): string {
  if (names.length === 0) return "(none)";
  const shown = names
    .slice(0, LISTED)
    .map((n) => `"${n}"`)
    .join(", ");
  return names.length > LISTED ? `${shown} and ${names.length - LISTED} more` : shown;
}
