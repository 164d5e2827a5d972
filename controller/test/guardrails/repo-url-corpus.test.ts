import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRepoPattern, type RepoPattern } from "../../src/guardrails/repo-pattern.js";
import { parseRepoUrl, type RepoUrlProblemCode } from "../../src/guardrails/repo-url.js";
import { type GitContact, type GitHosts, startGitHosts } from "./helpers/git-hosts.js";

/** allowed_repos of the corpus: one repository on github.com, and evil.example serves a copy of it. */
const ALLOWED = "github.com/acme/widgets";
type Verdict = "allowed" | "not allowed" | RepoUrlProblemCode;

/**
 * Spellings of a repo_url, the matcher's verdict, and what `git ls-remote`
 * really contacted (`http host[:port]/path`, `ssh host[:port]/path`, or
 * nothing). A refused spelling's column shows why it is refused: git reads
 * it otherwise than `URL` does, or normalises what a server may not.
 */
const CORPUS: ReadonlyArray<readonly [input: string, verdict: Verdict, git: string]> = [
  // ?@, #@ and \@: what hides the host before an @
  ["https://evil.example?@github.com/acme/widgets", "repo_url_query_or_fragment", "http evil.example/"],
  ["https://evil.example#@github.com/acme/widgets", "repo_url_query_or_fragment", "http evil.example/"],
  ["https://github.com?@evil.example/acme/widgets", "repo_url_query_or_fragment", "http github.com/"],
  ["https://github.com#@evil.example/acme/widgets", "repo_url_query_or_fragment", "http github.com/"],
  ["ssh://evil.example?@github.com/acme/widgets", "repo_url_query_or_fragment", "ssh github.com/acme/widgets"],
  ["https://evil.example\\@github.com/acme/widgets", "repo_url_backslash", "http github.com/acme/widgets"],
  ["https://github.com\\@evil.example/acme/widgets", "repo_url_backslash", "http evil.example/acme/widgets"],
  ["ssh://evil.example\\@github.com/acme/widgets", "repo_url_backslash", "ssh github.com/acme/widgets"],
  ["git@evil.example\\@github.com:acme/widgets", "repo_url_backslash", "ssh github.com/acme/widgets"],
  ["https://a@b@github.com/acme/widgets", "repo_url_userinfo", "nothing"],
  ["https://github.com@evil.example/acme/widgets", "not allowed", "http evil.example/acme/widgets"],
  ["https://github.com:443@evil.example/acme/widgets", "not allowed", "http evil.example/acme/widgets"],
  ["https://evil.example%5c@github.com/acme/widgets", "allowed", "http github.com/acme/widgets"],
  ["https://evil.example%2f@github.com/acme/widgets", "allowed", "http github.com/acme/widgets"],
  ["https://evil.example%3f@github.com/acme/widgets", "allowed", "http github.com/acme/widgets"],
  ["https://user:tok@github.com/acme/widgets", "allowed", "http github.com/acme/widgets"],
  ["https://github.com/acme/widgets@evil.example", "repo_url_path", "http github.com/acme/widgets@evil.example"],
  // dot segments
  ["https://github.com/acme/../acme/widgets", "repo_url_dot_segment", "http github.com/acme/widgets"],
  ["https://github.com/acme/./widgets", "repo_url_dot_segment", "http github.com/acme/widgets"],
  ["https://github.com/x/../../evil/widgets", "repo_url_dot_segment", "http github.com/evil/widgets"],
  ["https://github.com/acme/widgets/..", "repo_url_dot_segment", "http github.com/acme"],
  // percent-encoding: git sends it as is, URL decodes %2e, a server may decode the rest
  [
    "https://github.com/acme/%2e%2e/acme/widgets",
    "repo_url_percent_encoding",
    "http github.com/acme/%2e%2e/acme/widgets",
  ],
  ["https://github.com/acme%2Fwidgets", "repo_url_percent_encoding", "http github.com/acme%2Fwidgets"],
  ["https://github.com/%61cme/widgets", "repo_url_percent_encoding", "http github.com/%61cme/widgets"],
  ["https://git%68ub.com/acme/widgets", "repo_url_percent_encoding", "http github.com/acme/widgets"],
  // IDN, punycode and other host spellings
  ["https://gіthub.com/acme/widgets", "repo_url_characters", "nothing"],
  ["https://ｇｉｔｈｕｂ.com/acme/widgets", "repo_url_characters", "nothing"],
  ["https://xn--gthub-n2e.com/acme/widgets", "not allowed", "http xn--gthub-n2e.com/acme/widgets"],
  ["https://github.com./acme/widgets", "repo_url_host", "http github.com./acme/widgets"],
  ["https://0x7f.1/acme/widgets", "repo_url_ambiguous", "http 127.0.0.1/acme/widgets"],
  ["https://2130706433/acme/widgets", "repo_url_ambiguous", "http 127.0.0.1/acme/widgets"],
  ["https://[::1]/acme/widgets", "not allowed", "http [::1]/acme/widgets"],
  ["https://github.com\t/acme/widgets", "repo_url_characters", "nothing"],
  // ports
  ["https://github.com:443/acme/widgets", "allowed", "http github.com:443/acme/widgets"],
  ["http://github.com:80/acme/widgets", "allowed", "http github.com/acme/widgets"],
  ["https://github.com:8443/acme/widgets", "not allowed", "http github.com:8443/acme/widgets"],
  ["https://github.com:0443/acme/widgets", "repo_url_port", "http github.com:443/acme/widgets"],
  ["https://github.com:/acme/widgets", "repo_url_port", "http github.com/acme/widgets"],
  // scp-like addresses, ssh and other schemes
  ["git@github.com:acme/widgets.git", "allowed", "ssh github.com/acme/widgets.git"],
  ["github.com:acme/widgets", "allowed", "ssh github.com/acme/widgets"],
  ["git@evil.example:acme/widgets", "not allowed", "ssh evil.example/acme/widgets"],
  ["ssh://git@github.com/acme/widgets.git", "allowed", "ssh github.com/acme/widgets.git"],
  ["ssh://git@github.com:22/acme/widgets", "allowed", "ssh github.com:22/acme/widgets"],
  ["ssh://git@github.com:2222/acme/widgets", "not allowed", "ssh github.com:2222/acme/widgets"],
  ["https:github.com/acme/widgets", "repo_url_scheme", "ssh https/github.com/acme/widgets"],
  ["git+ssh://git@github.com/acme/widgets", "repo_url_scheme", "ssh github.com/acme/widgets"],
  ["HTTPS://github.com/acme/widgets", "repo_url_scheme", "nothing"],
  ["file:///srv/acme/widgets", "repo_url_scheme", "nothing"],
  // trailing .git and slashes, case
  ["https://github.com/acme/widgets", "allowed", "http github.com/acme/widgets"],
  ["https://github.com/acme/widgets/", "allowed", "http github.com/acme/widgets"],
  ["https://github.com/acme/widgets.git/", "allowed", "http github.com/acme/widgets.git"],
  ["https://github.com/acme/widgets.git.git", "not allowed", "http github.com/acme/widgets.git.git"],
  ["https://github.com/acme/widgets//", "repo_url_path", "http github.com/acme/widgets/"],
  ["https://github.com//acme/widgets", "repo_url_path", "http github.com//acme/widgets"],
  ["https://github.com", "repo_url_path", "http github.com/"],
  ["https://GITHUB.COM/acme/widgets", "allowed", "http GITHUB.COM/acme/widgets"],
  ["https://github.com/Acme/Widgets", "allowed", "http github.com/Acme/Widgets"],
];

const describeContact = (c: GitContact | undefined) =>
  c === undefined ? "nothing" : `${c.via} ${c.host}${c.port === undefined ? "" : `:${c.port}`}/${c.path}`;
const DEFAULT_PORTS: Record<string, string> = { http: "80", https: "443", ssh: "22" };

describe("repo_url corpus: the matcher's verdict beside what git ls-remote contacts", () => {
  let hosts: GitHosts;
  let pattern: RepoPattern;
  beforeAll(async () => {
    hosts = await startGitHosts({ "github.com": ["acme/widgets.git"], "evil.example": ["acme/widgets.git"] });
    pattern = compileRepoPattern(ALLOWED) as RepoPattern;
  });
  afterAll(() => hosts.close());

  it("has at least 40 spellings", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CORPUS)("%s → %s; git contacts %s", async (input, verdict, git) => {
    const parsed = parseRepoUrl(input);
    const actual: Verdict = parsed.ok ? (pattern.matches(parsed.repo) ? "allowed" : "not allowed") : parsed.code;
    const { contact, refs } = await hosts.lsRemote(input);
    expect({ verdict: actual, git: describeContact(contact) }).toEqual({ verdict, git });
    if (!parsed.ok) return;
    // An accepted URL names exactly what git contacts: the host, the port (none meaning the scheme's default) and the path.
    const { repo } = parsed;
    expect(contact?.host.toLowerCase()).toBe(repo.host);
    expect(contact?.port === DEFAULT_PORTS[repo.scheme] ? undefined : contact?.port).toBe(repo.port);
    expect(contact?.path.replace(/\/$/, "").replace(/\.git$/, "")).toBe(repo.path);
    // The allowed entries that spell the path as the server does really reach github.com's copy, not evil.example's.
    if (verdict === "allowed" && repo.scheme !== "ssh" && repo.path === "acme/widgets")
      expect(refs).toContain("refs/heads/github-com-acme-widgets-git");
  });
});
