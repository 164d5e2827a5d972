import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installedToolchain, TemplateVersionsError, templateVersions } from "../src/create/template-versions.js";
import { runCli } from "./helpers/cli.js";

// The versions a scaffold depends on come from the packages themselves: the
// CLI's own package.json, and the toolchain this checkout installs (recorded
// beside the templates when the CLI is packed). None is typed by hand.
const cliDir = fileURLToPath(new URL("..", import.meta.url));
const repo = fileURLToPath(new URL("../..", import.meta.url));
// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, any>;
const installed = async (name: string) =>
  (await readJson(join(repo, "node_modules", name, "package.json"))).version as string;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "template-versions-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("the versions a scaffold is written with", () => {
  it("are the CLI's SDK range, the CLI's own version and the installed toolchain", async () => {
    const cli = await readJson(join(cliDir, "package.json"));
    const r = await runCli("create-channel", ["pkg", "--yes", "--no-install"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    const pkg = await readJson(join(root, "pkg", "package.json"));
    expect(pkg.dependencies).toEqual({
      "@errand/channel-sdk": cli.dependencies["@errand/channel-sdk"],
      zod: await installed("zod"),
    });
    expect(pkg.devDependencies).toEqual({
      "@errand/cli": cli.version,
      "@types/node": await installed("@types/node"),
      esbuild: await installed("esbuild"),
      typescript: await installed("typescript"),
      vitest: await installed("vitest"),
    });
    expect(pkg.errand.template).toBe(`webhook@${cli.version}`);
  });

  it("take the toolchain a packed CLI recorded over anything installed", async () => {
    const templates = join(root, "templates");
    await mkdir(templates, { recursive: true });
    const recorded = { "@types/node": "20.0.1", esbuild: "0.28.0", typescript: "5.0.2", vitest: "4.0.3", zod: "4.0.4" };
    await writeFile(join(templates, "versions.json"), JSON.stringify(recorded));
    expect(templateVersions(templates).toolchain).toEqual(recorded);
    await writeFile(join(templates, "versions.json"), JSON.stringify({ typescript: "5.0.2" }));
    expect(() => templateVersions(templates)).toThrow(TemplateVersionsError);
    expect(() => templateVersions(templates)).toThrow(/lacks the version of @types\/node; reinstall @errand\/cli/);
  });

  it("say what to do when the toolchain is not installed", () => {
    expect(() => installedToolchain(root)).toThrow(/is not installed above .*; run npm install in the Errand checkout/);
  });
});

describe("the packed CLI", () => {
  it("carries the templates (the workflow and license texts too), the recorded toolchain, LICENSE and CHANGELOG.md, and no tests", async () => {
    await execa(process.execPath, [join(cliDir, "scripts/copy-templates.js")]);
    expect(await readJson(join(cliDir, "templates/versions.json"))).toEqual(installedToolchain());
    const { stdout } = await execa("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: cliDir });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "bin/channel.js",
        "bin/create-channel.js",
        "dist/create/main.js",
        "dist/channel/main.js",
        "templates/versions.json",
        "templates/common/package.json",
        "templates/common/_gitignore",
        "templates/common/.github/workflows/ci.yml",
        "templates/licenses/MIT.txt",
        "templates/licenses/Apache-2.0.txt",
        "templates/licenses/ISC.txt",
        "templates/webhook/src/channel.ts",
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "package.json",
      ]),
    );
    expect(files.filter((f) => f.startsWith("test/") || /\.test\.js$/.test(f))).toEqual([]);
  });
});

describe("the unscoped create-channel package", () => {
  const wrapper = join(cliDir, "create-channel");

  it("is released with @errand/cli and depends on exactly that version", async () => {
    const cli = await readJson(join(cliDir, "package.json"));
    const pkg = await readJson(join(wrapper, "package.json"));
    expect(pkg.version).toBe(cli.version);
    expect(pkg.dependencies).toEqual({ "@errand/cli": cli.version });
    expect(pkg.bin).toEqual({ "create-channel": "bin/create-channel.js" });
  });

  it("runs the scaffolder of @errand/cli", async () => {
    const r = await execa(
      process.execPath,
      [join(wrapper, "bin/create-channel.js"), "wrapped", "--yes", "--no-install"],
      { cwd: root, reject: false },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await readJson(join(root, "wrapped", "package.json"))).errand.channel).toBe("wrapped");
  });

  it("packs its bin, README, LICENSE and CHANGELOG.md", async () => {
    const { stdout } = await execa("npm", ["pack", "--dry-run", "--json"], { cwd: wrapper });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
    expect(files).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "bin/create-channel.js", "package.json"]);
  });
});
