import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { startCli, waitFor } from "./helpers/processes.js";

// The scaffolder never destroys what is not its own and never leaves half a
// scaffold, whatever happens meanwhile. `npm` is replaced by a script on PATH
// that can be slow or fail, so each race and failure is reproducible.
let root: string;
let fakeBin: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "create-safety-"));
  fakeBin = await mkdtemp(join(tmpdir(), "fake-npm-"));
  await writeFile(
    join(fakeBin, "npm"),
    [
      "#!/bin/sh",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
      'sleep "${FAKE_NPM_SLEEP:-0}"',
      'if [ -n "$FAKE_NPM_FAIL" ]; then',
      '  echo "npm error code E404" >&2',
      '  echo "npm error 404 Not Found - GET https://registry.example/@errand%2fchannel-sdk" >&2',
      '  echo "npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log" >&2',
      "  mkdir -p node_modules/half-installed",
      "  exit 1",
      "fi",
      "mkdir -p node_modules/.bin",
      "",
    ].join("\n"),
  );
  await chmod(join(fakeBin, "npm"), 0o755);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(fakeBin, { recursive: true, force: true });
});

const withFakeNpm = (env: Record<string, string> = {}) => ({
  ...env,
  PATH: `${fakeBin}${delimiter}${process.env.PATH}`,
});

describe("create-channel and files that are not its own", () => {
  it("refuses to move in when the target gained files during the install, keeping both", async () => {
    await mkdir(join(root, "race"));
    const cli = startCli("create-channel", ["race", "--yes"], { cwd: root, env: withFakeNpm({ FAKE_NPM_SLEEP: "2" }) });
    await waitFor(() => cli.stdout().includes("installing"), 10_000, "the install to start");
    await writeFile(join(root, "race", "NOTES.md"), "mine");
    const { code } = await cli.exited;
    expect(code).toBe(1);
    expect(await readdir(join(root, "race"))).toEqual(["NOTES.md"]);
    expect(await readFile(join(root, "race", "NOTES.md"), "utf8")).toBe("mine");
    const kept = /The generated channel is in (\S+):/.exec(cli.stderr())?.[1];
    expect(cli.stderr()).toContain("race gained files while the channel was being generated (NOTES.md)");
    expect(kept && existsSync(join(kept, "package.json"))).toBe(true);
  });

  it("--force in the current folder keeps the folder, .git and other files, and replaces only the template's files", async () => {
    const dir = join(root, "existing");
    await mkdir(join(dir, ".git"), { recursive: true });
    await mkdir(join(dir, "src"));
    await writeFile(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    await writeFile(join(dir, "notes.txt"), "mine");
    await writeFile(join(dir, "src", "keep.ts"), "export {};\n");
    await writeFile(join(dir, "package.json"), '{ "name": "old" }');
    const before = await stat(dir);
    const r = await runCli("create-channel", [".", "--yes", "--no-install", "--force", "--name", "existing"], {
      cwd: dir,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await stat(dir)).ino).toBe(before.ino);
    expect(await readFile(join(dir, ".git", "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    expect(await readFile(join(dir, "notes.txt"), "utf8")).toBe("mine");
    expect(existsSync(join(dir, "src", "keep.ts"))).toBe(true);
    expect(existsSync(join(dir, "src", "channel.ts"))).toBe(true);
    expect(JSON.parse(await readFile(join(dir, "package.json"), "utf8")).name).toBe("errand-channel-existing");
    expect(r.stdout).not.toMatch(/^\s+cd /m);
    expect((await readdir(root)).sort()).toEqual(["existing"]);
  });

  it("--force refuses, changing nothing, when a folder stands where the template writes a file", async () => {
    const dir = join(root, "clash");
    await mkdir(join(dir, "README.md"), { recursive: true });
    const r = await runCli("create-channel", ["clash", "--yes", "--no-install", "--force"], { cwd: root });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("README.md");
    expect(await readdir(dir)).toEqual(["README.md"]);
    expect(await readdir(root)).toEqual(["clash"]);
  });
});

describe("create-channel when npm install fails", () => {
  it("keeps the scaffold, gives npm's reason and says how to finish", async () => {
    const r = await runCli("create-channel", ["deep/er", "--yes"], {
      cwd: root,
      env: withFakeNpm({ FAKE_NPM_FAIL: "1" }),
    });
    expect(r.exitCode).toBe(1);
    const dir = join(root, "deep", "er");
    expect(existsSync(join(dir, "package.json"))).toBe(true);
    expect(existsSync(join(dir, "src", "channel.ts"))).toBe(true);
    // What npm half-installed would only mislead.
    expect(existsSync(join(dir, "node_modules"))).toBe(false);
    expect(r.stderr).toContain("npm install failed: code E404; 404 Not Found");
    expect(r.stderr).toContain("cd deep/er && npm install");
    expect(r.stderr).toContain("--no-install");
    expect(r.stderr).not.toContain("_logs");
  });
});

describe("create-channel stopped by a signal", () => {
  it.each([
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const)("%s during the install leaves nothing, not even the parent folders it made", async (signal, expected) => {
    const cli = startCli("create-channel", ["deep/er/x", "--yes"], {
      cwd: root,
      env: withFakeNpm({ FAKE_NPM_SLEEP: "30" }),
    });
    await waitFor(() => cli.stdout().includes("installing"), 10_000, "the install to start");
    cli.child.kill(signal);
    const { code } = await cli.exited;
    expect(code).toBe(expected);
    expect(await readdir(root)).toEqual([]);
  });
});

describe("create-channel input", () => {
  it.each(["errand-channel-a~b", "node_modules"])(
    "refuses the package name %s, which npm would not publish",
    async (name) => {
      const r = await runCli("create-channel", ["x", "--yes", "--no-install", "--package-name", name], { cwd: root });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`package name "${name}" cannot be published to npm`);
      expect(await readdir(root)).toEqual([]);
    },
  );

  it("refuses a file as the target with a clear message", async () => {
    await writeFile(join(root, "afile"), "x");
    const r = await runCli("create-channel", ["afile", "--yes", "--no-install"], { cwd: root });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("afile is a file, not a folder");
    expect(await readdir(root)).toEqual(["afile"]);
  });

  it("without a terminal to ask on, says to pass --yes", async () => {
    const r = await runCli("create-channel", ["x", "--no-install"], { cwd: root, stdin: "ignore" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("pass --yes");
    expect(await readdir(root)).toEqual([]);
  });

  it("a reader that closes stdout early does not crash it, and the channel is still created whole", async () => {
    const cli = startCli("create-channel", ["piped", "--yes", "--no-install"], { cwd: root });
    // Like `| head -0`: gone before the first line.
    cli.child.stdout!.destroy();
    const { code } = await cli.exited;
    expect(cli.stderr()).not.toMatch(/Unhandled|EPIPE/);
    expect(code).toBe(0);
    expect(await readdir(root)).toEqual(["piped"]);
    expect(existsSync(join(root, "piped", "package.json"))).toBe(true);
  });
});
