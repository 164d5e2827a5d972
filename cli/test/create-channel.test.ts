import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "create-channel-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, any>;

describe("create-channel", () => {
  it.each(["webhook", "bot-api", "blank"])("scaffolds the %s template, ready to publish", async (template) => {
    const r = await runCli(
      "create-channel",
      [
        "pkg",
        "--yes",
        "--no-install",
        "--template",
        template,
        "--name",
        "team_alerts",
        "--sdk",
        "file:../sdk.tgz",
        "--author",
        "Ada",
      ],
      { cwd: root },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const dir = join(root, "pkg");
    const pkg = await readJson(join(dir, "package.json"));
    expect(pkg).toMatchObject({
      name: "errand-channel-team-alerts",
      type: "module",
      author: "Ada",
      bin: { "errand-channel-team-alerts": "dist/bin.js" },
      files: ["dist", "README.md"],
      engines: { node: ">=20.19" },
      errand: {
        channel: "team_alerts",
        interfaceVersions: [1],
        template: expect.stringMatching(new RegExp(`^${template}@`)),
      },
      scripts: { build: expect.any(String), test: "vitest run", start: "node dist/bin.js" },
      dependencies: { "@errand/channel-sdk": "file:../sdk.tgz" },
    });
    expect(pkg.keywords).toContain("errand-channel");
    // Exact pins make a generated package reproducible.
    for (const version of Object.values(pkg.devDependencies as Record<string, string>))
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.dependencies.zod).toMatch(/^\d+\.\d+\.\d+$/);
    const files = await readdir(dir);
    expect(files).toEqual(
      expect.arrayContaining([".gitignore", "README.md", "errand-conformance.json", "src", "test", "tsconfig.json"]),
    );
    expect(files).not.toContain("_gitignore");
    const source = await readFile(join(dir, "src/channel.ts"), "utf8");
    expect(source).toContain('name: "team_alerts"');
    expect(source).not.toMatch(/\{\{(?!sink_url)\w+\}\}/);
    const readme = await readFile(join(dir, "README.md"), "utf8");
    expect(readme).toContain("backend: team_alerts");
    expect(readme).toContain("notifications:");
    expect(r.stdout).toContain("Next steps:");
    expect(r.stdout).toContain("npm install");
    expect(await readdir(root)).toEqual(["pkg"]);
  });

  it("refuses a non-empty directory without --force and leaves it untouched", async () => {
    await mkdir(join(root, "taken"));
    await writeFile(join(root, "taken", "keep.txt"), "mine");
    const r = await runCli("create-channel", ["taken", "--yes", "--no-install"], { cwd: root });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("not empty");
    expect(r.stderr).toContain("--force");
    expect(await readdir(join(root, "taken"))).toEqual(["keep.txt"]);
    const forced = await runCli("create-channel", ["taken", "--yes", "--no-install", "--force"], { cwd: root });
    expect(forced.exitCode, forced.stderr).toBe(0);
    // --force writes the template's files; the user's other files stay.
    expect(await readFile(join(root, "taken", "keep.txt"), "utf8")).toBe("mine");
    expect(existsSync(join(root, "taken", "package.json"))).toBe(true);
  });

  it("validates names and templates with actionable messages", async () => {
    const badName = await runCli("create-channel", ["x", "--yes", "--no-install", "--name", "Team Alerts"], {
      cwd: root,
    });
    expect(badName.exitCode).toBe(2);
    expect(badName.stderr).toMatch(/channel name "Team Alerts" is invalid.*lowercase/);
    const badPkg = await runCli("create-channel", ["x", "--yes", "--no-install", "--package-name", "Bad/Name"], {
      cwd: root,
    });
    expect(badPkg.exitCode).toBe(2);
    expect(badPkg.stderr).toContain("package name");
    const badTemplate = await runCli("create-channel", ["x", "--yes", "--no-install", "--template", "teams"], {
      cwd: root,
    });
    expect(badTemplate.exitCode).toBe(2);
    expect(badTemplate.stderr).toContain("webhook, bot-api, blank");
    expect(await readdir(root)).toEqual([]);
  });
});
