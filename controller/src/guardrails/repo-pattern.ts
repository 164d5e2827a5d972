import type { ParsedRepoUrl } from "./repo-url.js";

/**
 * Repository matching for `guardrails.allowed_repos`. An entry is a URL
 * (`https://github.com/acme/app`), `host/owner/repo`, `owner/repo` (any host)
 * or git's scp-like `git@host:owner/repo`. It is compared with a `repo_url`
 * that {@link parseRepoUrl} accepted, host and path apart: the host exactly
 * (lower-cased) and the port exactly (a scheme's default port counts as none);
 * the path without a trailing `.git` or slash, ignoring ASCII case, as GitHub,
 * GitLab and Bitbucket do. `*` matches within one path segment (or host
 * label run), `**` across segments, `?` one character.
 */
export interface RepoPattern {
  readonly source: string;
  matches(repo: ParsedRepoUrl): boolean;
}

const SCHEME_PORTS: Record<string, string> = { https: "443", http: "80", ssh: "22" };
const HOST_GLOB = /^(?:[a-z0-9*?-]+(?:\.[a-z0-9*?-]+)*|\[[0-9a-f:.]+\])$/;
const SEGMENT_GLOB = /^[A-Za-z0-9._*?-]+$/;

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

function looksLikeHost(segment: string): boolean {
  return segment.includes(".") || segment.includes(":") || segment.startsWith("[") || segment === "localhost";
}

interface PatternParts {
  host: string | undefined;
  port: string | undefined;
  path: string;
}

/** Splits an entry into host, port and path glob; a string is the problem with it. */
function splitPattern(entry: string): PatternParts | string {
  let rest = entry;
  let defaultPort: string | undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(rest);
  if (scheme) {
    defaultPort = SCHEME_PORTS[(scheme[1] as string).toLowerCase()];
    if (defaultPort === undefined)
      return `uses the scheme ${scheme[1]}, which repo_url may not (write https://, http://, ssh:// or no scheme)`;
    rest = rest.slice(scheme[0].length).replace(/^[^/@]*@/, "");
  } else if (/^[^/@]+@[^/:]+:/.test(rest)) {
    defaultPort = SCHEME_PORTS.ssh;
    rest = rest.replace(/^[^@]+@([^:]+):/, "$1/");
  }
  const withHost = scheme !== null || defaultPort !== undefined || looksLikeHost(rest.split("/")[0] ?? "");
  const slash = rest.indexOf("/");
  const authority = withHost ? (slash === -1 ? rest : rest.slice(0, slash)) : undefined;
  const path = (withHost ? (slash === -1 ? "" : rest.slice(slash)) : rest)
    .replace(/^\/+|\/+$/g, "")
    .replace(/\.git$/i, "");
  const portMatch = authority === undefined ? null : /:([0-9]+)$/.exec(authority);
  const host = authority?.slice(0, portMatch?.index).toLowerCase();
  const port = portMatch?.[1] === defaultPort ? undefined : portMatch?.[1];
  return { host, port, path };
}

/** Compiles one `allowed_repos` entry; returns a problem text for an entry that can never match. */
export function compileRepoPattern(source: string): RepoPattern | string {
  const trimmed = source.trim();
  if (trimmed === "") return "is empty";
  if (trimmed === "*" || trimmed === "**") return { source, matches: () => true };
  const parts = splitPattern(trimmed);
  if (typeof parts === "string") return parts;
  const { host, port, path } = parts;
  if (path === "") return "names no repository (write owner/repo, host/owner/repo or a URL)";
  if (host !== undefined && !HOST_GLOB.test(host))
    return `has the host ${JSON.stringify(host)}, which no accepted repo_url has (letters, digits, - and . only)`;
  const odd = path.split("/").find((s) => s === "." || s === ".." || !SEGMENT_GLOB.test(s));
  if (odd !== undefined)
    return `has the path segment ${JSON.stringify(odd)}, which no accepted repo_url has (letters, digits, . _ - and the globs * ** ?)`;
  const hostRegExp = host === undefined ? undefined : toRegExp(host);
  const pathRegExp = toRegExp(path);
  return {
    source,
    matches(repo) {
      if (hostRegExp !== undefined && (!hostRegExp.test(repo.host) || port !== repo.port)) return false;
      return pathRegExp.test(repo.path);
    },
  };
}
