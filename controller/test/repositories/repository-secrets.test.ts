import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { loadControllerConfig } from "../../src/config/load-controller-config.js";
import { resolveSecrets } from "../../src/secrets/resolve-secrets.js";
import { SecretNotFoundError } from "../../src/secrets/secret-not-found-error.js";
import { secretReferences } from "../../src/secrets/secret-references.js";

async function configWith(credential: string) {
  const dir = tempDir("errand-repo-secrets-");
  const file = join(dir, "errand.yaml");
  writeFileSync(
    file,
    `engines:\n  default: c\n  c:\n    kind: command\n    command: [/bin/true]\nstore:\n  path: ${join(dir, "db")}\nsecrets:\n  dir: ${join(dir, "secrets")}\nrepositories:\n  codehost_a:\n${credential}`,
  );
  return (await loadControllerConfig(file, { env: {} })).config;
}

describe("repository credentials are secrets of the controller", () => {
  it("a token secret is referenced under its key, and a missing one stops the start with the others", async () => {
    const config = await configWith("    token_secret: repo-token\n");
    expect(secretReferences(config)).toContainEqual({
      name: "repo-token",
      key: "repositories.codehost_a.token_secret",
    });
    let error: unknown;
    try {
      resolveSecrets(config, { env: {} });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SecretNotFoundError);
    expect((error as SecretNotFoundError).missing).toMatchObject([
      { name: "repo-token", keys: ["repositories.codehost_a.token_secret"] },
    ]);
  });

  it("a GitHub App's private key is referenced under its key", async () => {
    const config = await configWith(
      "    app:\n      app_id: 1\n      private_key_secret: app-key\n      installation_id: 2\n",
    );
    expect(secretReferences(config)).toContainEqual({
      name: "app-key",
      key: "repositories.codehost_a.app.private_key_secret",
    });
  });
});
