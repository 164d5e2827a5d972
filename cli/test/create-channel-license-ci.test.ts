import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "./helpers/cli.js";

// A scaffold carries a LICENSE that is the license its package.json names,
// and a GitHub workflow that installs, builds and runs npm test, channel test
// and channel lint.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "create-license-ci-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, any>;
const year = String(new Date().getUTCFullYear());

async function scaffold(dir: string, ...args: string[]) {
  const r = await runCli("create-channel", [dir, "--yes", "--no-install", ...args], { cwd: root });
  expect(r.exitCode, r.stderr).toBe(0);
  return {
    pkg: await readJson(join(root, dir, "package.json")),
    license: await readFile(join(root, dir, "LICENSE"), "utf8"),
  };
}

describe("the scaffold's LICENSE", () => {
  it("is MIT by default, with the year and the author, as package.json says", async () => {
    const { pkg, license } = await scaffold("mit", "--author", "Ada Lovelace");
    expect(pkg.license).toBe("MIT");
    expect(license.split("\n")[0]).toBe("MIT License");
    expect(license).toContain(`Copyright (c) ${year} Ada Lovelace`);
    expect(license).not.toMatch(/\{\{\w+\}\}/);
  });

  it.each([
    ["Apache-2.0", "Apache License", `Copyright ${year} Ada`],
    ["ISC", "ISC License", `Copyright (c) ${year} Ada`],
  ])("is the text of --license %s", async (id, title, copyright) => {
    const { pkg, license } = await scaffold(`l-${id}`, "--license", id, "--author", "Ada");
    expect(pkg.license).toBe(id);
    expect(license.trimStart().startsWith(title)).toBe(true);
    expect(license).toContain(copyright);
    expect(license).not.toContain("[yyyy]");
  });

  it("names the package's authors when no author is given", async () => {
    const { license } = await scaffold("anon", "--name", "anon_alerts");
    expect(license).toContain(`Copyright (c) ${year} the errand-channel-anon-alerts authors`);
  });

  it("refuses a license it has no text of, naming those it has", async () => {
    const r = await runCli("create-channel", ["gpl", "--yes", "--no-install", "--license", "GPL-3.0"], { cwd: root });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown license "GPL-3.0": choose one of MIT, Apache-2.0, ISC');
  });
});

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

describe("the scaffold's GitHub workflow", () => {
  it("is valid YAML that installs, builds, and runs npm test, channel test and channel lint, in that order", async () => {
    await scaffold("ci");
    const workflow = parse(await readFile(join(root, "ci", ".github/workflows/ci.yml"), "utf8"));
    expect(Object.keys(workflow.on)).toEqual(["push", "pull_request"]);
    const job = workflow.jobs.test;
    expect(job["runs-on"]).toBe("ubuntu-latest");
    // The lowest major the package's engines field allows, and the next LTS.
    expect(job.strategy.matrix["node-version"]).toEqual([20, 22]);
    const steps = job.steps as Step[];
    expect(steps[0]!.uses).toMatch(/^actions\/checkout@v\d+$/);
    expect(steps[1]).toMatchObject({
      uses: expect.stringMatching(/^actions\/setup-node@v\d+$/),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JavaScript template
      with: { "node-version": "${{ matrix.node-version }}" },
    });
    const runs = steps.flatMap((s) => (s.run ? [s.run] : []));
    expect(runs).toEqual([
      "if [ -f package-lock.json ]; then npm ci; else npm install; fi",
      "npm run build",
      "npm test",
      "npx --no-install channel test",
      "npx --no-install channel lint",
    ]);
  });
});
