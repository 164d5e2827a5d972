import type { Ticket } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { createGuardrails } from "../../src/guardrails/guardrails.js";
import { compileRepoPattern, normalizeRepo, type RepoPattern } from "../../src/guardrails/repo-pattern.js";

const compile = (source: string): RepoPattern => {
  const pattern = compileRepoPattern(source);
  if (typeof pattern === "string") throw new Error(`${source}: ${pattern}`);
  return pattern;
};

describe("normalizeRepo", () => {
  it("reduces URLs, scp-like addresses and bare paths to host/path", () => {
    expect(normalizeRepo("https://user:token@WWW.GitHub.com/acme/widgets.git/")).toBe("github.com/acme/widgets");
    expect(normalizeRepo("git@github.com:acme/widgets.git")).toBe("github.com/acme/widgets");
    expect(normalizeRepo("ssh://git@gitlab.example:2222/group/sub/app")).toBe("gitlab.example:2222/group/sub/app");
    expect(normalizeRepo("https://github.com/acme/widgets?tab=issues#top")).toBe("github.com/acme/widgets");
  });

  it("has nothing for a value without a path", () => {
    expect(normalizeRepo("")).toBeUndefined();
    expect(normalizeRepo("https://github.com")).toBeUndefined();
    expect(normalizeRepo("https://github.com/")).toBeUndefined();
  });
});

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

  it("never matches a repo_url that names no repository (only * and ** allow everything)", () => {
    const p = compile("acme/*");
    expect(p.matches("")).toBe(false);
    expect(p.matches("https://github.com")).toBe(false);
  });

  it("names what is wrong with an entry that can never match", () => {
    expect(compileRepoPattern("  ")).toBe("is empty");
    expect(compileRepoPattern("https://github.com")).toBe("names no repository (write owner/repo, host/owner/repo or a URL)");
  });
});

describe("guardrails.allowed_repos before a run starts", () => {
  const ticket = (repoUrl: string) => ({ id: "1", title: "T", description: "", ticketType: "issue", repoUrl, externalUrl: "", labels: [], source: "generic" }) satisfies Ticket;
  const guard = (allowedRepos: string[]) => createGuardrails({ maxConcurrentJobs: 1, maxJobDurationMinutes: 1, maxCostPerJob: undefined, allowedRepos });

  it("admits every repository when the list is empty, and refuses a ticket without repo_url otherwise, even under **", () => {
    expect(guard([]).admit(ticket(""))).toEqual({ allowed: true });
    expect(guard(["**"]).admit(ticket(""))).toEqual({ allowed: false, reason: "refused by guardrails.allowed_repos: the ticket names no repository (repo_url is empty)" });
  });

  it("admits a matching repository and names the patterns when none matches", () => {
    const g = guard(["github.com/acme/*", "internal/tools"]);
    expect(g.admit(ticket("https://github.com/acme/shop"))).toEqual({ allowed: true });
    expect(g.admit(ticket("https://git.example/internal/tools"))).toEqual({ allowed: true });
    expect(g.admit(ticket("https://github.com/evil/shop"))).toEqual({
      allowed: false,
      reason: "refused by guardrails.allowed_repos: https://github.com/evil/shop matches none of github.com/acme/*, internal/tools",
    });
  });
});
