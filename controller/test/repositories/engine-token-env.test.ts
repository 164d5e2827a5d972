import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { loadControllerConfig } from "../../src/config/load-controller-config.js";

async function load(engineKeys: string): Promise<unknown> {
  const dir = tempDir("errand-token-env-");
  const file = join(dir, "errand.yaml");
  writeFileSync(
    file,
    `engines:\n  default: c\n  c:\n    kind: command\n    command: [/bin/true]\n${engineKeys}store:\n  path: ${join(dir, "db")}\n`,
  );
  return loadControllerConfig(file, { env: {} }).then(
    (loaded) => loaded.config,
    (error: unknown) => error,
  );
}

describe("engines.<name>.repository_token_env", () => {
  it("lists the variables that get the repository token; default none", async () => {
    const config = (await load("    repository_token_env: [GH_TOKEN, GITHUB_TOKEN]\n")) as {
      engines: { byName: Record<string, { repositoryTokenEnv?: string[] }> };
    };
    expect(config.engines.byName.c?.repositoryTokenEnv).toEqual(["GH_TOKEN", "GITHUB_TOKEN"]);
    const plain = (await load("")) as typeof config;
    expect(plain.engines.byName.c?.repositoryTokenEnv).toBeUndefined();
  });

  it("GH_TOKEN in env stays refused as a credential, and the refusal points at repository_token_env", async () => {
    const error = await load("    env:\n      GH_TOKEN: abc\n");
    expect(String((error as Error).message)).toMatch(
      /GH_TOKEN[\s\S]*looks like a credential[\s\S]*repository_token_env/,
    );
  });

  it("refuses names that are not variable names or that the controller sets", async () => {
    expect(String(((await load("    repository_token_env: [GH-TOKEN]\n")) as Error).message)).toContain(
      "repository_token_env",
    );
    expect(String(((await load("    repository_token_env: [ERRAND_TOKEN]\n")) as Error).message)).toContain("ERRAND_");
  });
});
