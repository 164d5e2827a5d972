import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { tempDir } from "../../../test/support/temp-dir.js";
import { controllerConfigJsonSchema } from "../../src/config/controller-config-json-schema.js";
import { fencedBlocks, isWholeConfig, REPO_ROOT } from "./helpers/doc-snippets.js";

// The built bin, as a reader runs it (build first: npm run build -w controller).
const BIN = resolve(REPO_ROOT, "controller/bin/errand.cjs");
const GUIDE = "docs/first-real-repository.md";
const SECTIONS = new Set(
  Object.keys((controllerConfigJsonSchema() as { properties: Record<string, unknown> }).properties),
);
const configs = fencedBlocks(GUIDE).filter((b) => b.lang === "yaml" && isWholeConfig(b.text, SECTIONS));

/** Every secret a configuration names: `*_secret` keys and `{ secret: NAME }`. */
function secretNames(node: unknown, key?: string): string[] {
  if (Array.isArray(node)) return node.flatMap((item) => secretNames(item));
  if (node === null || typeof node !== "object")
    return typeof node === "string" && key !== undefined && (key.endsWith("_secret") || key === "secret") ? [node] : [];
  return Object.entries(node).flatMap(([k, v]) => secretNames(v, k));
}

/** The guide's errand.yaml in a fresh folder with its `secrets/` folder, as the guide has the reader make them. */
function layOut(text: string): { dir: string; secrets: string } {
  const dir = tempDir("errand-guide-");
  writeFileSync(join(dir, "errand.yaml"), text);
  const secrets = join(dir, "secrets");
  mkdirSync(secrets, { mode: 0o700 });
  for (const name of secretNames(parse(text)))
    writeFileSync(join(secrets, name), `placeholder-for-${name}\n`, { mode: 0o600 });
  return { dir, secrets };
}

/** `errand config check --json` in `dir`, through the bin, with no ERRAND_SECRET_* variable. */
function configCheck(dir: string): Promise<{ code: number; problems: string[] }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, "config", "check", "--json"],
      { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir } },
      (error, stdout) => {
        const report = JSON.parse(stdout) as { problems: Array<{ key: string; message: string }> };
        done({
          code: error ? Number(error.code ?? 1) : 0,
          problems: report.problems.map((p) => `${p.key}: ${p.message}`),
        });
      },
    );
  });
}

describe("the guide to a first real repository", () => {
  it("has an errand.yaml with an App and one with a token", () => {
    const repositories = configs.map((b) => (parse(b.text) as { repositories?: { codehost_a?: object } }).repositories);
    expect(
      repositories.map((r) => Object.keys(r?.codehost_a ?? {}).find((k) => k === "app" || k === "token_secret")),
    ).toEqual(["app", "token_secret"]);
  });

  it.each(configs.map((b) => [`${b.file}:${b.line}`, b.text] as const))(
    "%s passes errand config check with its secrets in ./secrets",
    async (_where, text) => {
      const { dir } = layOut(text);
      const { code, problems } = await configCheck(dir);
      expect(problems).toEqual([]);
      expect(code).toBe(0);
    },
  );

  it("fails the check, naming the secret, when a secret file is missing", async () => {
    const { dir, secrets } = layOut((configs[0] as { text: string }).text);
    rmSync(join(secrets, "codehost-a-app-key"));
    const { code, problems } = await configCheck(dir);
    expect(code).toBe(1);
    expect(problems.join("\n")).toContain("repositories.codehost_a.app.private_key_secret");
  });
});
