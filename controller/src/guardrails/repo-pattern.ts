/**
 * Repository matching for `guardrails.allowed_repos`. Both the ticket's
 * `repo_url` and each pattern are reduced to `host/path` (scheme, `www.`,
 * credentials, a trailing `.git` and slashes dropped; the host lower-cased,
 * the path kept as written because code hosts treat it case-insensitively
 * but a pattern author may not). A pattern without a host (`acme/widgets`)
 * matches that path on any host. `*` matches within one path segment, `**`
 * across segments.
 */
export interface RepoPattern {
  readonly source: string;
  matches(repoUrl: string): boolean;
}

/** `https://user@GitHub.com/acme/widgets.git/` → `github.com/acme/widgets`; undefined when there is no path. */
export function normalizeRepo(value: string): string | undefined {
  let rest = value.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  // scp-like git@host:owner/repo
  else if (/^[^/@\s]+@[^/:\s]+:/.test(rest)) rest = rest.replace(/^[^@]+@([^:]+):/, "$1/");
  rest = rest
    .replace(/^[^/@]*@/, "")
    .replace(/[?#].*$/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/i, "")
    .replace(/\/+$/, "");
  if (rest === "") return undefined;
  const slash = rest.indexOf("/");
  if (slash === -1) return undefined;
  const host = rest
    .slice(0, slash)
    .toLowerCase()
    .replace(/^www\./, "");
  return `${host}/${rest.slice(slash + 1)}`;
}

function looksLikeHost(segment: string): boolean {
  return segment.includes(".") || segment.includes(":") || segment === "localhost";
}

function toRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "i");
}

/** Compiles one `allowed_repos` entry; returns a problem text for an entry that can never match. */
export function compileRepoPattern(source: string): RepoPattern | string {
  const trimmed = source.trim();
  if (trimmed === "") return "is empty";
  if (trimmed === "*" || trimmed === "**") return { source, matches: () => true };
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  const firstSegment = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split("/")[0] ?? "";
  const withHost = hasScheme || looksLikeHost(firstSegment);
  const normal = withHost ? normalizeRepo(hasScheme ? trimmed : `https://${trimmed}`) : trimmed.replace(/^\/+|\/+$/g, "").replace(/\.git$/i, "");
  if (normal === undefined || normal === "") return "names no repository (write owner/repo, host/owner/repo or a URL)";
  const regexp = toRegExp(normal);
  return {
    source,
    matches(repoUrl) {
      const repo = normalizeRepo(repoUrl);
      if (repo === undefined) return false;
      if (withHost) return regexp.test(repo);
      return regexp.test(repo.slice(repo.indexOf("/") + 1));
    },
  };
}
