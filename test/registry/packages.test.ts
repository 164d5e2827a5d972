import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateDirs, manifest as readManifest, workspaceDirs } from "../support/workspaces.mjs";
import { PACKAGE_DIRS, REPO } from "./publish-packages.mjs";

// What docs/publishing.md promises of every published package, and that a
// release (changeset version) moves them all together.
const run = promisify(execFile);

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  files?: string[];
  publishConfig?: { access?: string };
  repository?: { url?: string; directory?: string };
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  workspaces?: string[];
}

const manifest = async (dir: string): Promise<Manifest> =>
  JSON.parse(await readFile(join(REPO, dir, "package.json"), "utf8"));
const names = (dirs: string[]): string[] => dirs.map((dir) => readManifest(dir).name);

describe("the published packages", () => {
  // The list is the root's workspaces and their `private` flags (test/support/workspaces.mjs); changesets' config
  // cannot read it, so it is checked against it here.
  it("are the root's workspaces that are not private, and changesets releases them as one group and ignores the rest", async () => {
    expect(PACKAGE_DIRS).toContain("controller");
    const config = JSON.parse(await readFile(join(REPO, ".changeset/config.json"), "utf8")) as {
      fixed: string[][];
      ignore: string[];
    };
    expect(
      config.fixed.map((group) => [...group].sort()),
      ".changeset/config.json: fixed",
    ).toEqual([names(PACKAGE_DIRS).sort()]);
    expect([...config.ignore].sort(), ".changeset/config.json: ignore").toEqual(names(privateDirs()).sort());
  });

  it("are the ones the README's table of folders names, each with its folder", async () => {
    const readme = await readFile(join(REPO, "README.md"), "utf8");
    const table = readme.slice(
      readme.indexOf("## What is here"),
      readme.indexOf("\n## ", readme.indexOf("## What is here") + 1),
    );
    for (const dir of workspaceDirs())
      expect(table, `README.md's "What is here" does not name the folder ${dir}`).toMatch(new RegExp(`\`${dir}/?\``));
    for (const name of names(PACKAGE_DIRS))
      expect(table, `README.md's "What is here" does not name ${name}`).toContain(`\`${name}\``);
  });

  it("are the ones docs/publishing.md names, and as many as it says registry:local publishes", async () => {
    const doc = await readFile(join(REPO, "docs/publishing.md"), "utf8");
    for (const name of names(PACKAGE_DIRS))
      expect(doc, `docs/publishing.md does not name ${name}`).toContain(`\`${name}\``);
    const counts = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    const said = /publishes the (\w+) packages above/.exec(doc)?.[1];
    expect(said).toBe(counts[PACKAGE_DIRS.length - 1]);
  });

  it.each(PACKAGE_DIRS)("%s carries what installers and the registry need", async (dir) => {
    const pkg = await manifest(dir);
    expect(pkg.private, `${dir} is published`).toBeFalsy();
    expect(pkg.publishConfig?.access).toBe("public");
    expect(pkg.repository).toMatchObject({ url: "git+https://github.com/errand/errand.git", directory: dir });
    expect(pkg.license).toBe("Apache-2.0");
    expect(pkg.engines?.node).toBe(">=20.19");
    for (const file of ["LICENSE", "CHANGELOG.md", "README.md"])
      expect(existsSync(join(REPO, dir, file)), `${dir}/${file}`).toBe(true);
    expect(pkg.files, `${dir}: "files" lists CHANGELOG.md`).toContain("CHANGELOG.md");
  });
});

describe("a release", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "errand-release-"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("changeset version moves every published package to the same version, create-channel's exact @errand/cli with it", async () => {
    // The manifests, changelogs and changesets config of the checkout, in a folder of their own.
    await cp(join(REPO, "package.json"), join(root, "package.json"));
    await mkdir(join(root, ".changeset"));
    await cp(join(REPO, ".changeset/config.json"), join(root, ".changeset/config.json"));
    for (const dir of workspaceDirs()) {
      await mkdir(join(root, dir), { recursive: true });
      for (const file of ["package.json", "CHANGELOG.md"]) {
        if (existsSync(join(REPO, dir, file))) await cp(join(REPO, dir, file), join(root, dir, file));
      }
    }
    await writeFile(
      join(root, ".changeset/sdk-fix.md"),
      '---\n"@errand/channel-sdk": patch\n---\n\nA fix in the SDK.\n',
    );
    const before = (await manifest("sdk")).version;
    await run(process.execPath, [join(REPO, "node_modules/@changesets/cli/bin.js"), "version"], { cwd: root });

    const manifestNow = async (dir: string): Promise<Manifest> =>
      JSON.parse(await readFile(join(root, dir, "package.json"), "utf8"));
    const versions = await Promise.all(PACKAGE_DIRS.map(async (dir) => [dir, (await manifestNow(dir)).version]));
    const next = versions[0]![1]!;
    expect(next).not.toBe(before);
    expect(Object.fromEntries(versions)).toEqual(Object.fromEntries(PACKAGE_DIRS.map((dir) => [dir, next])));
    expect((await manifestNow("cli/create-channel")).dependencies).toEqual({ "@errand/cli": next });
    expect(await readFile(join(root, "cli/create-channel/CHANGELOG.md"), "utf8")).toContain(`## ${next}`);
  }, 60_000);
});
