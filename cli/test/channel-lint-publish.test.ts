import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { fixturesDir } from "./helpers/run-fixture.js";

// What channel lint catches before it breaks for the people who install the
// package: dependencies that resolve only on the author's machine, entry
// points that are not packed or not built, a publish that does not build,
// missing engines. Each case is a real package folder, linted by the real CLI.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "channel-lint-publish-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

interface Finding {
  rule: string;
  severity: "error" | "warning";
  message: string;
  fix: string;
}

const BIN = `#!/usr/bin/env node\nimport ${JSON.stringify(pathToFileURL(join(fixturesDir, "good.mjs")).href)};\n`;

/** A package that is ready to publish, changed by `edit`; `files` adds or (with null) leaves out files. */
async function lintVariant(
  name: string,
  // biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
  edit: (pkg: Record<string, any>) => void,
  files: Record<string, string | null> = {},
) {
  const dir = join(root, name);
  // biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
  const pkg: Record<string, any> = {
    name: "errand-channel-fixture",
    version: "1.0.0",
    type: "module",
    keywords: ["errand-channel"],
    engines: { node: ">=20.19" },
    bin: { "errand-channel-fixture": "bin/plugin.mjs" },
    files: ["bin", "README.md"],
    errand: { channel: "fixture_webhook", interfaceVersions: [1] },
  };
  edit(pkg);
  const contents: Record<string, string | null> = { "bin/plugin.mjs": BIN, "README.md": "# fixture\n", ...files };
  for (const [file, text] of Object.entries(contents)) {
    if (text === null) continue;
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  await writeFile(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  await copyFile(join(fixturesDir, "conformance.json"), join(dir, "errand-conformance.json"));
  const r = await runCli("channel", ["lint", "--json", dir]);
  const findings = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
  return { exitCode: r.exitCode, findings, errors: findings.filter((f) => f.severity === "error") };
}

describe("channel lint before publishing", () => {
  it("passes the ready package every other case changes", async () => {
    const r = await lintVariant("ready", () => {});
    expect(r.findings).toEqual([]);
    expect(r.exitCode).toBe(0);
  });

  it.each([
    ["a file: path", "file:../errand/sdk/errand-channel-sdk-0.1.0.tgz", "a file: path"],
    ["a link: path", "link:../errand/sdk", "a link: path"],
    ["a workspace: reference", "workspace:*", "a workspace: reference"],
    ["an absolute path", "/home/ada/errand/sdk", "an absolute path"],
    ["a relative path", "../errand/sdk", "a relative path"],
  ])("refuses a dependency spec that is %s", async (kind, spec, words) => {
    const r = await lintVariant(`spec-${kind.replace(/\W/g, "")}`, (pkg) => {
      pkg.dependencies = { "@errand/channel-sdk": spec };
    });
    expect(r.exitCode).toBe(1);
    expect(r.errors).toEqual([
      expect.objectContaining({
        rule: "dependencies",
        message: expect.stringContaining(`dependencies["@errand/channel-sdk"] is "${spec}": ${words}`),
        fix: expect.stringContaining("depend on a published version"),
      }),
    ]);
  });

  it("checks optional and peer dependencies too, and only warns about devDependencies", async () => {
    const r = await lintVariant("spec-kinds", (pkg) => {
      pkg.optionalDependencies = { a: "file:./a" };
      pkg.peerDependencies = { b: "workspace:^" };
      pkg.devDependencies = { "@errand/cli": "file:../errand/cli", vitest: "4.1.12" };
    });
    expect(r.errors.map((f) => f.message)).toEqual([
      expect.stringContaining('optionalDependencies["a"] is "file:./a"'),
      expect.stringContaining('peerDependencies["b"] is "workspace:^"'),
    ]);
    expect(r.findings.filter((f) => f.severity === "warning").map((f) => f.message)).toEqual([
      expect.stringContaining('devDependencies["@errand/cli"] is "file:../errand/cli"'),
    ]);
  });

  it('refuses a bin packed without the files it imports (npm packs a bin even outside "files")', async () => {
    const r = await lintVariant(
      "bin-unpacked",
      (pkg) => {
        pkg.bin = { "errand-channel-fixture": "dist/bin.js" };
        pkg.files = ["README.md"];
      },
      {
        "dist/bin.js": `#!/usr/bin/env node\nimport "./serve.js";\n`,
        "dist/serve.js": BIN.replace("#!/usr/bin/env node\n", ""),
      },
    );
    expect(r.exitCode).toBe(1);
    expect(r.errors).toContainEqual({
      rule: "files",
      severity: "error",
      message:
        'bin "errand-channel-fixture" points at dist/bin.js, which is packed without what it imports: dist/serve.js (imported by dist/bin.js)',
      fix: 'add "dist" to "files"',
    });
  });

  it("refuses a main packed without its imports, and an export outside the packed files", async () => {
    const r = await lintVariant(
      "main-unpacked",
      (pkg) => {
        pkg.main = "lib/index.js";
        pkg.exports = {
          ".": { types: "./lib/index.d.ts", default: "./lib/index.js" },
          "./package.json": "./package.json",
        };
      },
      {
        "lib/index.js": 'export * from "./channel.js";\nexport { x } from "./missing-on-purpose.js";\n',
        "lib/channel.js": "export {};\n",
        "lib/index.d.ts": "export {};\n",
      },
    );
    expect(r.errors.map((f) => f.message)).toEqual([
      "main points at lib/index.js, which is packed without what it imports: lib/channel.js (imported by lib/index.js)",
      'exports "." points at lib/index.d.ts, which exists but is not in the packed files',
      'exports "." points at lib/index.js, which is packed without what it imports: lib/channel.js (imported by lib/index.js)',
    ]);
    expect(r.errors.map((f) => f.fix)).toEqual([
      'add "lib" to "files"',
      'add its folder to "files" (for example "lib")',
      'add "lib" to "files"',
    ]);
  });

  it('says to build, not to add dist to "files", when dist is listed but not built', async () => {
    const r = await lintVariant(
      "unbuilt",
      (pkg) => {
        pkg.bin = { "errand-channel-fixture": "dist/bin.js" };
        pkg.exports = { ".": "./dist/channel.js" };
        pkg.files = ["dist", "README.md"];
        pkg.scripts = { build: "tsc -p tsconfig.json", prepack: "npm run build" };
      },
      { "bin/plugin.mjs": null },
    );
    expect(r.exitCode).toBe(1);
    expect(r.errors).toEqual([
      {
        rule: "build",
        severity: "error",
        message:
          'the package is not built: bin "errand-channel-fixture" → dist/bin.js, exports "." → dist/channel.js do not exist',
        fix: 'run "npm run build", then channel lint again (npm publish builds first when a "prepack" script runs the build)',
      },
    ]);
    expect(r.findings.map((f) => f.fix).join("\n")).not.toContain('to "files"');
  });

  it('says both when an entry point is neither built nor in "files"', async () => {
    const r = await lintVariant("unbuilt-unlisted", (pkg) => {
      pkg.bin = { "errand-channel-fixture": "dist/bin.js" };
      pkg.files = ["bin", "README.md"];
    });
    expect(r.errors).toContainEqual(
      expect.objectContaining({
        rule: "files",
        message:
          'bin "errand-channel-fixture" points at dist/bin.js, which does not exist and which "files" does not include',
      }),
    );
  });

  it("refuses a build script that npm publish never runs", async () => {
    const none = await lintVariant("no-prepack", (pkg) => {
      pkg.scripts = { build: "tsc" };
    });
    expect(none.exitCode).toBe(1);
    expect(none.errors).toEqual([
      {
        rule: "build",
        severity: "error",
        message:
          'npm publish would pack without building: the package has a "build" script, but there is no prepack, prepare or prepublishOnly script, so a publish from a fresh clone ships without its built files',
        fix: 'add "prepack": "npm run build" to "scripts"',
      },
    ]);
    const other = await lintVariant("prepack-no-build", (pkg) => {
      pkg.scripts = { build: "tsc", prepack: "node scripts/copy.js" };
    });
    expect(other.errors.map((f) => [f.message, f.fix])).toEqual([
      [
        expect.stringContaining('but "prepack" does not run it'),
        expect.stringContaining('run the build in "prepack" too'),
      ],
    ]);
    for (const [name, scripts] of [
      ["prepack-builds", { build: "tsc", prepack: "npm run build" }],
      ["prepare-builds", { build: "tsc", prepare: "tsc -p ." }],
    ] as const) {
      const ok = await lintVariant(name, (pkg) => {
        pkg.scripts = scripts;
      });
      expect(ok.findings, name).toEqual([]);
    }
  });

  it("refuses a package without engines.node", async () => {
    const r = await lintVariant("no-engines", (pkg) => {
      delete pkg.engines;
    });
    expect(r.exitCode).toBe(1);
    expect(r.errors).toEqual([
      {
        rule: "engines",
        severity: "error",
        message: 'package.json has no "engines.node"',
        fix: 'add "engines": { "node": ">=20.19" }',
      },
    ]);
  });
});
