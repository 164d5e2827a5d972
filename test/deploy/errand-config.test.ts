import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The errand.yaml of the base and of the postgres-ha overlay (what their
// ConfigMaps hold: kustomize.test.ts checks that) pass the real
// `errand config check`, with placeholder values for the secrets they name,
// and every secret they name is one docs/deployment.md tells the reader to
// put in the Secret errand-secrets. Needs the built controller (npm run build).
const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(root, "controller/bin/errand.cjs");
const run = promisify(execFile);
const TARGETS = ["base", "overlays/postgres-ha"] as const;
const PLACEHOLDERS: Record<string, string> = {
  ERRAND_SECRET_GENERIC_SIGNING: "a-placeholder-signing-secret",
  ERRAND_SECRET_ERRAND_DB_URL: "postgres://errand:placeholder@postgres.example:5432/errand?sslmode=require",
};

interface CheckReport {
  ok: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
  config: Record<string, any> | null;
  warnings: string[];
  problems: Array<{ key: string; message: string; fix?: string }>;
}

async function configCheck(file: string, secrets: Record<string, string>): Promise<CheckReport> {
  if (!existsSync(join(root, "controller/dist/cli/bin.js")))
    throw new Error("controller/dist is missing: run `npm run build` (or `npx tsc -b controller`) first");
  // The machine's own ERRAND_SECRET_* variables must not stand in for missing ones.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("ERRAND_SECRET_")));
  const result = await run(process.execPath, [bin, "config", "check", "--json", "--config", file], {
    env: { ...env, ...secrets },
  }).catch((error: { stdout?: string; stderr?: string }) => error);
  return JSON.parse(result.stdout ?? "") as CheckReport;
}

const fileOf = (target: string) => join(root, "deploy/kustomize", target, "errand.yaml");
// Each check starts a node process that loads the controller: seconds on a busy machine.
const SLOW = 60_000;

describe("deploy/kustomize errand.yaml files", () => {
  it.each(TARGETS)(
    "%s: passes `errand config check` with its secrets set",
    async (target) => {
      const report = await configCheck(fileOf(target), PLACEHOLDERS);
      expect(report.problems).toEqual([]);
      expect(report.ok).toBe(true);
      // A reference is printed as written: it names where the secret is, not its value.
      expect(report.config!.webhook.generic.secret).toEqual({ secret: "generic-signing" });
    },
    SLOW,
  );

  it(
    "base: SQLite on the volume, engines as local processes",
    async () => {
      const { config } = await configCheck(fileOf("base"), PLACEHOLDERS);
      expect(config!.store).toEqual({ backend: "sqlite", path: "/var/lib/errand/errand.db" });
      expect(config!.execution.backend).toBe("local");
    },
    SLOW,
  );

  it(
    "postgres-ha: PostgreSQL from a secret, engines as Kubernetes Jobs",
    async () => {
      const { config } = await configCheck(fileOf("overlays/postgres-ha"), PLACEHOLDERS);
      expect(config!.store).toEqual({ backend: "postgres", url_secret: "errand-db-url" });
      expect(config!.execution.backend).toBe("kubernetes");
      expect(config!.execution.kubernetes).toMatchObject({ namespace: "errand" });
    },
    SLOW,
  );

  it.each(TARGETS)(
    "%s: names only secrets that docs/deployment.md puts in the Secret errand-secrets",
    async (target) => {
      const report = await configCheck(fileOf(target), {});
      expect(report.ok).toBe(false);
      const named = report.problems.map((p) => /names the secret "([^"]+)"/.exec(p.message)?.[1]);
      expect(named.length).toBeGreaterThan(0);
      expect(
        named.every((n) => n !== undefined),
        JSON.stringify(report.problems),
      ).toBe(true);
      const guide = readFileSync(join(root, "docs/deployment.md"), "utf8");
      for (const name of named)
        expect(guide, `docs/deployment.md: --from-literal=${name}=`).toContain(`--from-literal=${name}=`);
    },
    SLOW,
  );
});
