import type { Ticket } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { createGuardrails } from "../../src/guardrails/guardrails.js";
import { compileRepoPattern } from "../../src/guardrails/repo-pattern.js";
import { parseRepoUrl } from "../../src/guardrails/repo-url.js";

/** The entry compiled, tried on repo_url values (each must parse). */
const compile = (source: string) => {
  const pattern = compileRepoPattern(source);
  if (typeof pattern === "string") throw new Error(`${source}: ${pattern}`);
  return {
    matches(repoUrl: string): boolean {
      const parsed = parseRepoUrl(repoUrl);
      if (!parsed.ok) throw new Error(`${repoUrl}: ${parsed.reason}`);
      return pattern.matches(parsed.repo);
    },
  };
};

describe("compileRepoPattern (guardrails.allowed_repos)", () => {
  it("matches a repository exactly, whatever form its URL takes", () => {
    const p = compile("github.com/acme/widgets");
    expect(p.matches("https://github.com/acme/widgets")).toBe(true);
    expect(p.matches("git@github.com:acme/widgets.git")).toBe(true);
    expect(p.matches("https://github.com/acme/widgets-old")).toBe(false);
    expect(p.matches("https://gitlab.com/acme/widgets")).toBe(false);
    expect(compile("https://github.com/acme/widgets.git").matches("https://github.com/acme/widgets")).toBe(true);
  });

  it("matches a pattern without a host on any host", () => {
    const p = compile("acme/widgets");
    expect(p.matches("https://github.com/acme/widgets")).toBe(true);
    expect(p.matches("https://git.internal.example/acme/widgets")).toBe(true);
    expect(p.matches("https://github.com/other/widgets")).toBe(false);
  });

  it("lets * match within one path segment and ** across segments", () => {
    const one = compile("github.com/acme/*");
    expect(one.matches("https://github.com/acme/shop")).toBe(true);
    expect(one.matches("https://github.com/acme-labs/shop")).toBe(false);
    expect(one.matches("https://gitlab.com/acme/group/shop")).toBe(false);
    const deep = compile("gitlab.com/acme/**");
    expect(deep.matches("https://gitlab.com/acme/group/sub/shop")).toBe(true);
    expect(compile("gitlab.com/acme/*").matches("https://gitlab.com/acme/group/shop")).toBe(false);
    expect(compile("*").matches("https://anything.example/a/b")).toBe(true);
  });

  it("compares the host exactly (www. is another host) and the port, a scheme's default port counting as none", () => {
    const p = compile("github.com/acme/widgets");
    expect(p.matches("https://www.github.com/acme/widgets")).toBe(false);
    expect(p.matches("https://GitHub.COM:443/acme/widgets")).toBe(true);
    expect(p.matches("ssh://git@github.com:22/acme/widgets")).toBe(true);
    expect(p.matches("https://github.com:8443/acme/widgets")).toBe(false);
    expect(compile("gitlab.example:2222/group/*").matches("ssh://git@gitlab.example:2222/group/app")).toBe(true);
    expect(compile("gitlab.example:2222/group/*").matches("ssh://git@gitlab.example/group/app")).toBe(false);
  });

  it("compares the path ignoring ASCII case, as GitHub, GitLab and Bitbucket do", () => {
    expect(compile("github.com/acme/widgets").matches("https://github.com/Acme/Widgets.git")).toBe(true);
  });

  it("names what is wrong with an entry that can never match", () => {
    expect(compileRepoPattern("  ")).toBe("is empty");
    expect(compileRepoPattern("https://github.com")).toBe(
      "names no repository (write owner/repo, host/owner/repo or a URL)",
    );
    expect(compileRepoPattern("file:///srv/git/app")).toBe(
      "uses the scheme file, which repo_url may not (write https://, http://, ssh:// or no scheme)",
    );
    expect(compileRepoPattern("github.com/acme/../evil")).toBe(
      'has the path segment "..", which no accepted repo_url has (letters, digits, . _ - and the globs * ** ?)',
    );
    expect(compileRepoPattern("git%68ub.com/acme/app")).toBe(
      'has the host "git%68ub.com", which no accepted repo_url has (letters, digits, - and . only)',
    );
  });
});

describe("guardrails.allowed_repos before a run starts", () => {
  const ticket = (repoUrl: string) =>
    ({
      id: "1",
      title: "T",
      description: "",
      ticketType: "issue",
      repoUrl,
      externalUrl: "",
      labels: [],
      source: "generic",
    }) satisfies Ticket;
  const guard = (allowedRepos: string[]) =>
    createGuardrails({ maxConcurrentJobs: 1, maxJobDurationMinutes: 1, maxCostPerJob: undefined, allowedRepos });

  it("admits every repository when the list is empty, and refuses a ticket without repo_url otherwise, even under **", () => {
    expect(guard([]).admit(ticket(""))).toEqual({ allowed: true });
    expect(guard(["**"]).admit(ticket(""))).toEqual({
      allowed: false,
      reason: "refused by guardrails.allowed_repos: the ticket names no repository (repo_url is empty)",
    });
  });

  it("admits a matching repository and names the patterns when none matches", () => {
    const g = guard(["github.com/acme/*", "internal/tools"]);
    expect(g.admit(ticket("https://github.com/acme/shop"))).toEqual({ allowed: true });
    expect(g.admit(ticket("https://git.example/internal/tools"))).toEqual({ allowed: true });
    expect(g.admit(ticket("https://github.com/evil/shop"))).toEqual({
      allowed: false,
      reason:
        "refused by guardrails.allowed_repos: https://github.com/evil/shop matches none of github.com/acme/*, internal/tools",
    });
  });

  it("refuses a repo_url git could read otherwise than the matcher, with the reason, even under **", () => {
    expect(guard(["**"]).admit(ticket("https://github.com\\@evil.example/acme/widgets"))).toEqual({
      allowed: false,
      reason:
        'refused by guardrails.allowed_repos: repo_url "https://github.com\\\\@evil.example/acme/widgets" contains a backslash, which URL parsers read as / and git as part of the user name or host; remove it',
    });
    expect(guard(["github.com/acme/*"]).admit(ticket("https://evil.example?@github.com/acme/widgets"))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining("contains ? or #"),
    });
    expect(guard(["github.com/acme/**"]).admit(ticket("https://github.com/acme/x/../../evil/widgets"))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('has the path segment ".."'),
    });
  });
});
