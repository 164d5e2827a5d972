import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { ControllerError } from "../../../src/errors.js";
import { createCodehostAAdapter } from "../../../src/vendors/codehost-a/codehost-a-adapter.js";
import { CodehostAError } from "../../../src/vendors/codehost-a/codehost-a-error.js";
import { adapterFor, configFor, fake } from "./setup.js";

async function prepareError(
  keys: Record<string, unknown>,
  f?: Awaited<ReturnType<typeof fake>>,
  token?: string,
): Promise<ConfigError> {
  const host = f ?? (await fake());
  const { adapter, ctx } = adapterFor(host, keys, undefined, token);
  const error = await adapter.prepare(ctx).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).code).toBe("ERR_INVALID_CONFIG");
  return error as ConfigError;
}

describe("code host A adapter: prepare checks the configuration against the repository", () => {
  it("accepts labels that exist with exactly that spelling", async () => {
    const f = await fake();
    const { adapter, ctx } = adapterFor(f, { labels: ["agent", "bug"] });
    await expect(adapter.prepare(ctx)).resolves.toBeUndefined();
    expect(f.requests.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      "GET /repos/acme/shop",
      "GET /repos/acme/shop/labels",
    ]);
  });

  it("refuses a label that differs in case, naming the key, the near miss and the labels that exist", async () => {
    const error = await prepareError({ labels: ["Agent"] });
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]?.key).toBe("ticketing.config.labels[0]");
    expect(error.problems[0]?.message).toBe(
      'label "Agent" does not exist in acme/shop (did you mean "agent"? names are case-sensitive here); its labels: "agent", "bug", "wontfix", "agent-in-progress", "agent-failed"',
    );
    expect(error.problems[0]?.fix).toContain('gh label create "Agent" -R acme/shop');
  });

  it("lists every missing label at once: excluded, in-progress and failed labels too", async () => {
    const error = await prepareError({
      exclude_labels: ["blocked"],
      in_progress_label: "doing",
      failed_label: "broken",
    });
    expect(error.problems.map((p) => p.key)).toEqual([
      "ticketing.config.exclude_labels[0]",
      "ticketing.config.in_progress_label",
      "ticketing.config.failed_label",
    ]);
    expect(error.message).toContain('label "doing" does not exist in acme/shop; its labels: "agent"');
  });

  it("names the repository key and the owner's repositories when the repository does not exist", async () => {
    const error = await prepareError({ repo: "shpo" });
    expect(error.problems).toEqual([
      {
        key: "ticketing.config.repo",
        message:
          'acme has no repository "shpo" that the token can see; its public repositories: "infra", "shop", "website"',
        fix: expect.stringContaining("write the repository's name as in its address"),
      },
    ]);
  });

  it("names the owner key when the owner does not exist", async () => {
    const error = await prepareError({ owner: "acne" });
    expect(error.problems.map((p) => [p.key, p.message])).toEqual([
      ["ticketing.config.owner", 'code host A has no user or organisation "acne"'],
    ]);
  });

  it("refuses rules that would pick up every issue or none", async () => {
    const error = await prepareError({ labels: [], exclude_labels: [] });
    expect(error.problems.map((p) => [p.key, p.message])).toEqual([
      ["ticketing.config.labels", "is empty: every open issue of the repository would start a run"],
    ]);
    const clash = await prepareError({ labels: ["agent", "wontfix"], exclude_labels: ["wontfix"] });
    expect(clash.problems.map((p) => [p.key, p.message])).toEqual([
      ["ticketing.config.labels[1]", '"wontfix" is also exclude_labels, so no issue could ever be picked up'],
    ]);
    const same = await prepareError({ failed_label: "agent-in-progress" });
    expect(same.problems.map((p) => p.key)).toEqual(["ticketing.config.failed_label"]);
  });

  it("refuses a repository with issues turned off", async () => {
    const f = await fake();
    f.repo.hasIssues = false;
    const error = await prepareError({}, f);
    expect(error.problems.map((p) => [p.key, p.message])).toEqual([
      ["ticketing.config.repo", "acme/shop has issues turned off"],
    ]);
  });

  it("refuses a token the host refuses, against token_secret, without retrying", async () => {
    const f = await fake();
    const error = await prepareError({}, f, "ghp_wrong");
    expect(error.problems).toEqual([
      {
        key: "ticketing.config.token_secret",
        message: 'code host A refused the token in the secret "codehost-a-token" (401 Bad credentials)',
        fix: "put a valid token in that secret: it may be mistyped, expired or revoked",
      },
    ]);
    expect(f.requests).toHaveLength(1);
  });

  it("turns a token refused later (a poll) into a ticket-source error whose hint names token_secret", async () => {
    const f = await fake();
    const { adapter, ctx } = adapterFor(f);
    await adapter.prepare(ctx);
    f.inject({ kind: "error", status: 401, message: "Bad credentials" });
    const error = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodehostAError);
    expect(error).toMatchObject({
      code: "ERR_TICKET_SOURCE",
      status: 401,
      message: "code host A refused the token while trying to list the open issues (401 Bad credentials)",
    });
    expect((error as CodehostAError).hint).toContain("ticketing.config.token_secret");
  });

  it("talks to a fake as strict as the host: no token or a wrong one is a 401 in the host's error shape", async () => {
    const f = await fake();
    const bare = await fetch(`${f.url}/repos/acme/shop`);
    expect([bare.status, await bare.json()]).toEqual([
      401,
      { message: "Requires authentication", documentation_url: "https://docs.github.com/rest", status: "401" },
    ]);
    const wrong = await fetch(`${f.url}/repos/acme/shop`, { headers: { authorization: "token nope" } });
    expect([wrong.status, ((await wrong.json()) as { message: string }).message]).toEqual([401, "Bad credentials"]);
    const right = await fetch(`${f.url}/repos/acme/shop`, { headers: { authorization: `Bearer ${f.token}` } });
    expect(right.status).toBe(200);
    expect(right.headers.get("x-ratelimit-remaining")).toBe("4999");
  });

  it("refuses to start without a token", async () => {
    const f = await fake();
    const make = () => createCodehostAAdapter(configFor(f), undefined);
    expect(make).toThrow(ControllerError);
    expect(make).toThrow('the secret "codehost-a-token" named by ticketing.config.token_secret has no value');
  });
});
