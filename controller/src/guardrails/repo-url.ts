/**
 * Reads a ticket's `repo_url` the way git and the WHATWG URL parser both read
 * it, or refuses it. Anything the two could read differently (a `?`, `#` or
 * `\` that hides the real host before an `@`, dot segments, percent-encoding,
 * non-ASCII host names, IPv4 shorthands) is refused with the reason, so the
 * host and path matched against `guardrails.allowed_repos` are the ones git
 * contacts. The corpus in controller/test/guardrails/repo-url-corpus.test.ts
 * runs `git ls-remote` on each spelling to show it.
 */

/** A repository URL that git and `URL` read alike. */
export interface ParsedRepoUrl {
  readonly scheme: "https" | "http" | "ssh";
  /** Lower-cased host name or `[IPv6]` literal, as `URL` gives it. */
  readonly host: string;
  /** Undefined for the scheme's default port (443, 80, 22). */
  readonly port: string | undefined;
  /** `owner/repo` (or deeper), case as written, without a trailing `.git` or slash. */
  readonly path: string;
  /** The URL to clone: exactly the one whose host and path were matched (scp-like addresses in their `ssh://` form). */
  readonly cloneUrl: string;
}

/** Stable codes of the ways a `repo_url` is refused. */
export type RepoUrlProblemCode =
  | "repo_url_empty"
  | "repo_url_characters"
  | "repo_url_query_or_fragment"
  | "repo_url_backslash"
  | "repo_url_scheme"
  | "repo_url_userinfo"
  | "repo_url_host"
  | "repo_url_port"
  | "repo_url_percent_encoding"
  | "repo_url_path"
  | "repo_url_dot_segment"
  | "repo_url_ambiguous";

/** {@link parseRepoUrl}'s answer: the parts, or why the value is refused (in words that say how to fix it). */
export type RepoUrlResult = { ok: true; repo: ParsedRepoUrl } | { ok: false; code: RepoUrlProblemCode; reason: string };

const DEFAULT_PORTS = { https: "443", http: "80", ssh: "22" } as const;
type Scheme = keyof typeof DEFAULT_PORTS;
const LABEL = "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?";
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])$`, "i");
const USERINFO = /^[A-Za-z0-9._~+](?:[A-Za-z0-9._~+-]|%[0-9A-Fa-f]{2})*(?::(?:[A-Za-z0-9._~+-]|%[0-9A-Fa-f]{2})*)?$/;
const SEGMENT = /^[A-Za-z0-9._-]+$/;
const EXAMPLE = "write it as https://host/owner/repo, ssh://git@host/owner/repo or git@host:owner/repo";

type Problem = { ok: false; code: RepoUrlProblemCode; reason: string };
const problem = (code: RepoUrlProblemCode, reason: string): Problem => ({ ok: false, code, reason });

/** The first character git, curl and `URL` could each treat differently, anywhere in the value. */
function characterProblem(value: string): Problem | undefined {
  const odd = /[^\x21-\x7e]/.exec(value);
  if (odd) {
    const code = odd[0].codePointAt(0) ?? 0;
    const what =
      code > 0x7f
        ? `the non-ASCII character ${JSON.stringify(odd[0])}`
        : `a space or control character (U+${code.toString(16).toUpperCase().padStart(4, "0")})`;
    const fix = code > 0x7f ? "write an internationalised host name in its punycode form (xn--…)" : "remove it";
    return problem("repo_url_characters", `contains ${what} at position ${odd.index + 1}; ${fix}`);
  }
  if (value.includes("\\"))
    return problem(
      "repo_url_backslash",
      "contains a backslash, which URL parsers read as / and git as part of the user name or host; remove it",
    );
  if (/[?#]/.test(value))
    return problem(
      "repo_url_query_or_fragment",
      "contains ? or #: a repository URL has no query or fragment, and before an @ they hide the host git contacts; remove them",
    );
  return undefined;
}

/** `user@host:owner/repo` (git's scp-like address) as `ssh://user@host/owner/repo`; a value without `://` or that colon is refused. */
function toUrlForm(value: string): string | Problem {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(value)) return value;
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(value))
    return problem("repo_url_scheme", `uses git's transport::address form; ${EXAMPLE}`);
  const colon = value.indexOf(":");
  const slash = value.indexOf("/");
  if (colon === -1 || (slash !== -1 && slash < colon))
    return problem("repo_url_scheme", `names no scheme (git would read it as a local path); ${EXAMPLE}`);
  const authority = value.slice(0, colon);
  if (Object.hasOwn(DEFAULT_PORTS, authority.toLowerCase()))
    return problem(
      "repo_url_scheme",
      `lacks the // after ${authority}: (git would contact a host named ${authority}); ${EXAMPLE}`,
    );
  return `ssh://${authority}/${value.slice(colon + 1).replace(/^\//, "")}`;
}

/** Checks `[userinfo@]host[:port]`; returns its parts. */
function readAuthority(authority: string): { host: string; port: string | undefined } | Problem {
  const at = authority.lastIndexOf("@");
  const userinfo = at === -1 ? undefined : authority.slice(0, at);
  if (userinfo !== undefined && !USERINFO.test(userinfo)) {
    return problem(
      "repo_url_userinfo",
      `has the user part ${JSON.stringify(userinfo)}, which may hold only one @ and letters, digits, . _ ~ + - : and %XX; remove the credentials (give them to git another way)`,
    );
  }
  const hostPort = authority.slice(at + 1);
  const portMatch = /:([^:\]]*)$/.exec(hostPort);
  const host = portMatch ? hostPort.slice(0, portMatch.index) : hostPort;
  if (host.includes("%"))
    return problem("repo_url_percent_encoding", `has a percent-encoded host (${host}); write the host name as is`);
  if (!HOST.test(host))
    return problem(
      "repo_url_host",
      `has the host ${JSON.stringify(host)}, which is not a host name (letters, digits and - between dots, no trailing dot) or an [IPv6] address`,
    );
  const port = portMatch?.[1];
  if (port !== undefined && !(/^[1-9][0-9]{0,4}$/.test(port) && Number(port) <= 65_535)) {
    return problem(
      "repo_url_port",
      `has the port ${JSON.stringify(port)}; write a number from 1 to 65535 without leading zeros, or no port`,
    );
  }
  return { host, port };
}

/** Checks `/owner/repo[.git][/]`; returns `owner/repo`. */
function readPath(rawPath: string): string | Problem {
  const segments = rawPath.slice(1).split("/");
  if (segments.length > 1 && segments.at(-1) === "") segments.pop();
  for (const segment of segments) {
    if (segment === "")
      return problem(
        "repo_url_path",
        `has an empty path segment (${rawPath === "/" ? "no repository path" : "//"}); ${EXAMPLE}`,
      );
    if (segment === "." || segment === "..")
      return problem(
        "repo_url_dot_segment",
        `has the path segment ${JSON.stringify(segment)}, which changes the repository the URL names; write the path without . and .. segments`,
      );
    if (segment.includes("%"))
      return problem(
        "repo_url_percent_encoding",
        `has percent-encoding in its path (${segment}), which servers may decode to / or ..; write the path as is`,
      );
    if (!SEGMENT.test(segment))
      return problem(
        "repo_url_path",
        `has the path segment ${JSON.stringify(segment)}; repository paths hold only letters, digits, . _ and -`,
      );
  }
  const path = segments.join("/").replace(/\.git$/i, "");
  if (path === "" || path.endsWith("/"))
    return problem("repo_url_path", `names no repository after the host; ${EXAMPLE}`);
  return path;
}

/**
 * Parses a ticket's `repo_url`: `https://`, `http://` or `ssh://` URLs, and
 * git's scp-like `user@host:owner/repo` (read as `ssh://user@host/owner/repo`).
 * Anything else, or anything git and `URL` could read differently, is refused.
 */
export function parseRepoUrl(value: string): RepoUrlResult {
  if (value === "") return problem("repo_url_empty", "is empty; the ticket names no repository");
  const odd = characterProblem(value);
  if (odd) return odd;
  const urlForm = toUrlForm(value);
  if (typeof urlForm !== "string") return urlForm;
  const scheme = /^([^:]*):\/\//.exec(urlForm)?.[1] ?? "";
  if (!Object.hasOwn(DEFAULT_PORTS, scheme)) {
    return problem(
      "repo_url_scheme",
      `uses the scheme ${JSON.stringify(scheme)}; only https, http and ssh are allowed, written in lower case; ${EXAMPLE}`,
    );
  }
  const rest = urlForm.slice(scheme.length + 3);
  const slash = rest.indexOf("/");
  const authority = readAuthority(slash === -1 ? rest : rest.slice(0, slash));
  if ("ok" in authority) return authority;
  const path = readPath(slash === -1 ? "/" : rest.slice(slash));
  if (typeof path !== "string") return path;
  return crossCheck(urlForm, scheme as Scheme, authority, slash === -1 ? "/" : rest.slice(slash), path);
}

/** Parses with `URL` and refuses any value it reads otherwise than the checks above did (IPv4 shorthands such as 0x7f.1, for one). */
function crossCheck(
  urlForm: string,
  scheme: Scheme,
  authority: { host: string; port: string | undefined },
  rawPath: string,
  path: string,
): RepoUrlResult {
  let url: URL;
  try {
    url = new URL(urlForm);
  } catch {
    return problem("repo_url_ambiguous", `is not a URL that the WHATWG URL parser reads; ${EXAMPLE}`);
  }
  const port = authority.port === DEFAULT_PORTS[scheme] ? undefined : authority.port;
  const urlPort = url.port === "" || url.port === DEFAULT_PORTS[scheme] ? undefined : url.port;
  if (url.hostname !== authority.host.toLowerCase() || urlPort !== port || url.pathname !== rawPath) {
    return problem(
      "repo_url_ambiguous",
      `is read by URL parsers as host ${url.host}, path ${url.pathname}, which git may read otherwise; write the host and path plainly`,
    );
  }
  return { ok: true, repo: { scheme, host: url.hostname, port, path, cloneUrl: url.href } };
}
