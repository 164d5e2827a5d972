import { afterEach, describe, expect, it } from "vitest";
import { createAppToken } from "../../src/repositories/app-token.js";
import { RepositoryError } from "../../src/repositories/repository-error.js";
import { createFakeApp, type FakeApp } from "../sources/codehost-a/fake-app-tokens.js";
import { type FakeCodehostA, startFakeCodehostA } from "../sources/codehost-a/fake-codehost-a.js";

const open: FakeCodehostA[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((f) => f.close()));
});

async function host(): Promise<{ api: FakeCodehostA; app: FakeApp }> {
  const api = await startFakeCodehostA();
  const app = createFakeApp();
  api.routes.push(app.route);
  open.push(api);
  return { api, app };
}

async function refusal(promise: Promise<unknown>): Promise<RepositoryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RepositoryError);
  return error as RepositoryError;
}

describe("GitHub App installation tokens", () => {
  it("makes a token with a JWT the fake verifies (RS256), and reuses it while it has more than 5 minutes left", async () => {
    const { api, app } = await host();
    const seen: string[] = [];
    const token = createAppToken({
      appId: app.appId,
      privateKey: app.privateKey,
      installationId: app.installationId,
      baseUrl: api.url,
      onToken: (t) => seen.push(t),
    });
    const first = await token.token();
    expect(app.valid(first)).toBe(true);
    expect(await token.token()).toBe(first);
    expect(app.issued).toHaveLength(1);
    expect(seen).toEqual([first]);
  });

  it("asks for a fresh token when the cached one has less than 5 minutes left (auth-app would hand back the old one)", async () => {
    const { api, app } = await host();
    app.lifetimeMs = 2_000;
    const token = createAppToken({
      appId: app.appId,
      privateKey: app.privateKey,
      installationId: app.installationId,
      baseUrl: api.url,
    });
    const first = await token.token();
    await new Promise((r) => setTimeout(r, 2_100));
    expect(app.valid(first)).toBe(false);
    const second = await token.token();
    expect(second).not.toBe(first);
    expect(app.valid(second)).toBe(true);
  });

  it("a private key that is not a PEM key is refused at once, naming the key to fix", () => {
    let error: unknown;
    try {
      createAppToken({ appId: 1, privateKey: "not a key", installationId: 2, baseUrl: "http://127.0.0.1:9" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RepositoryError);
    expect((error as RepositoryError).reason).toBe("private_key_invalid");
    expect((error as RepositoryError).hint).toContain("repositories.codehost_a.app.private_key_secret");
  });

  it("401 (a JWT of another App) and 404 (an unknown installation) say which key to check", async () => {
    const { api, app } = await host();
    const make = (appId: number, installationId: number) =>
      createAppToken({ appId, privateKey: app.privateKey, installationId, baseUrl: api.url });
    const unauthorized = await refusal(make(999, app.installationId).token());
    expect(unauthorized.reason).toBe("app_unauthorized");
    expect(unauthorized.message).toContain("(401)");
    expect(unauthorized.hint).toContain("repositories.codehost_a.app.app_id");
    const missing = await refusal(make(app.appId, 1).token());
    expect(missing.reason).toBe("installation_not_found");
    expect(missing.hint).toContain("repositories.codehost_a.app.installation_id");
  });
});
