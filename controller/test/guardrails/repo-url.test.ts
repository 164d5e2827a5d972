import { describe, expect, it } from "vitest";
import { parseRepoUrl } from "../../src/guardrails/repo-url.js";

describe("parseRepoUrl", () => {
  it("gives scheme, lower-cased host, port (none for the default), path without .git or slash, and the URL to clone", () => {
    expect(parseRepoUrl("https://GitHub.com:443/Acme/Widgets.git/")).toEqual({
      ok: true,
      repo: {
        scheme: "https",
        host: "github.com",
        port: undefined,
        path: "Acme/Widgets",
        cloneUrl: "https://github.com/Acme/Widgets.git/",
      },
    });
    expect(parseRepoUrl("http://git.internal.example:8080/group/sub/app")).toEqual({
      ok: true,
      repo: {
        scheme: "http",
        host: "git.internal.example",
        port: "8080",
        path: "group/sub/app",
        cloneUrl: "http://git.internal.example:8080/group/sub/app",
      },
    });
  });

  it("reads git's scp-like address as its ssh:// form, which is also the URL to clone", () => {
    expect(parseRepoUrl("git@github.com:acme/widgets.git")).toEqual({
      ok: true,
      repo: {
        scheme: "ssh",
        host: "github.com",
        port: undefined,
        path: "acme/widgets",
        cloneUrl: "ssh://git@github.com/acme/widgets.git",
      },
    });
    expect(parseRepoUrl("ssh://git@gitlab.example:2222/group/app")).toMatchObject({
      ok: true,
      repo: { host: "gitlab.example", port: "2222", path: "group/app" },
    });
  });

  it("refuses with a stable code and a reason that says how to fix it", () => {
    expect(parseRepoUrl("")).toEqual({
      ok: false,
      code: "repo_url_empty",
      reason: "is empty; the ticket names no repository",
    });
    expect(parseRepoUrl("https://evil.example?@github.com/acme/app")).toEqual({
      ok: false,
      code: "repo_url_query_or_fragment",
      reason:
        "contains ? or #: a repository URL has no query or fragment, and before an @ they hide the host git contacts; remove them",
    });
    expect(parseRepoUrl("https://gіthub.com/acme/app")).toEqual({
      ok: false,
      code: "repo_url_characters",
      reason:
        'contains the non-ASCII character "і" at position 10; write an internationalised host name in its punycode form (xn--…)',
    });
    expect(parseRepoUrl("https://github.com/acme/app\n")).toEqual({
      ok: false,
      code: "repo_url_characters",
      reason: "contains a space or control character (U+000A) at position 28; remove it",
    });
    expect(parseRepoUrl("acme/app")).toEqual({
      ok: false,
      code: "repo_url_scheme",
      reason:
        "names no scheme (git would read it as a local path); write it as https://host/owner/repo, ssh://git@host/owner/repo or git@host:owner/repo",
    });
    expect(parseRepoUrl("ext::sh -c evil")).toMatchObject({ ok: false, code: "repo_url_characters" });
    expect(parseRepoUrl("ext::ssh")).toMatchObject({
      ok: false,
      code: "repo_url_scheme",
      reason: expect.stringContaining("transport::address"),
    });
    expect(parseRepoUrl("https://github.com/acme/.git")).toMatchObject({ ok: false, code: "repo_url_path" });
    expect(parseRepoUrl("https://-x.example/acme/app")).toMatchObject({ ok: false, code: "repo_url_host" });
    expect(parseRepoUrl("ssh://-oProxyCommand=x@github.com/acme/app")).toMatchObject({
      ok: false,
      code: "repo_url_userinfo",
    });
    expect(parseRepoUrl("https://github.com:65536/acme/app")).toMatchObject({ ok: false, code: "repo_url_port" });
  });
});
