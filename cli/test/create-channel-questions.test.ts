import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { runInTerminal } from "./helpers/terminal.js";

// How create-channel asks: on a terminal, question by question, the folder
// checked first; without one, never (no escape codes in a log), saying to pass --yes.
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "create-questions-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, any>;
const ESCAPE = "\u001b";

describe("create-channel on a terminal", () => {
  it("asks for what flags leave open, answering each prompt as a user would", async () => {
    const session = await runInTerminal("create-channel", ["--no-install"], root, [
      [/Directory:/, "my-bot"],
      [/Channel name:/, "my_bot"],
      [/Description:/, "Posts to the ops room"],
      [/npm package name:/, ""],
      [/Author:/, "Ada"],
      // Down once: the second license, Apache-2.0.
      [/License:/, "\u001b[B"],
      [/Starting point:/, ""],
    ]);
    expect(session.code, session.screen).toBe(0);
    expect(session.unanswered).toEqual([]);
    const pkg = await readJson(join(root, "my-bot", "package.json"));
    expect(pkg).toMatchObject({
      name: "errand-channel-my-bot",
      description: "Posts to the ops room",
      author: "Ada",
      license: "Apache-2.0",
      errand: { channel: "my_bot", template: expect.stringMatching(/^webhook@/) },
    });
    expect(await readFile(join(root, "my-bot", "LICENSE"), "utf8")).toContain("Apache License");
  });

  it("refuses a non-empty folder at the Directory question and asks again, before any other question", async () => {
    await mkdir(join(root, "taken"));
    await writeFile(join(root, "taken", "keep.txt"), "mine");
    const session = await runInTerminal("create-channel", ["--no-install"], root, [
      [/Directory:/, "taken"],
      [/taken is not empty/, "\u0015fresh"],
      [/Channel name:/, ""],
      [/Description:/, ""],
      [/npm package name:/, ""],
      [/Author:/, ""],
      [/License:/, ""],
      [/Starting point:/, ""],
    ]);
    expect(session.code, session.screen).toBe(0);
    expect(session.unanswered).toEqual([]);
    // The refusal came before the second question.
    expect(session.screen.indexOf("taken is not empty")).toBeLessThan(session.screen.indexOf("Channel name:"));
    expect(await readdir(join(root, "taken"))).toEqual(["keep.txt"]);
    expect((await readJson(join(root, "fresh", "package.json"))).errand.channel).toBe("fresh");
  });

  it("refuses a non-empty folder given as an argument before asking anything", async () => {
    await mkdir(join(root, "taken"));
    await writeFile(join(root, "taken", "keep.txt"), "mine");
    const session = await runInTerminal("create-channel", ["taken", "--no-install"], root, []);
    expect(session.code).toBe(2);
    expect(session.screen).toContain("taken is not empty");
    expect(session.screen).not.toContain("Channel name:");
    expect(await readdir(join(root, "taken"))).toEqual(["keep.txt"]);
  });
});

describe("create-channel without a terminal", () => {
  it("asks nothing, prints no escape codes, says to pass --yes and creates nothing", async () => {
    const r = await runCli("create-channel", ["x", "--no-install"], { cwd: root, input: "\n\n\n\n\n" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("stdin is not a terminal");
    expect(r.stderr).toContain("pass --yes");
    expect(r.stderr).toContain("channel name, description, npm package name, author, license, template");
    expect(`${r.stdout}${r.stderr}`).not.toContain(ESCAPE);
    expect(r.stdout).not.toContain("Channel name");
    expect(await readdir(root)).toEqual([]);
  });

  // What npm passes for `npm init channel x --yes`: the arguments without --yes, the flag in its environment.
  it("takes the --yes that npm init kept for itself, as `npm init channel x --yes` means it", async () => {
    const env = { FORCE_COLOR: "0", npm_command: "init", npm_config_yes: "true" };
    const r = await runCli("create-channel", ["x", "--no-install"], { cwd: root, stdin: "ignore", env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await readJson(join(root, "x", "package.json"))).errand.channel).toBe("x");
  });

  it("does not take npx's --yes (`npx --yes create-channel x` answers npx's install question) for its own", async () => {
    const env = { FORCE_COLOR: "0", npm_command: "exec", npm_config_yes: "true" };
    const r = await runCli("create-channel", ["x", "--no-install"], { cwd: root, stdin: "ignore", env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("pass --yes");
    expect(await readdir(root)).toEqual([]);
  });

  it("needs no terminal when the flags answer every question", async () => {
    const args = [
      "x",
      "--no-install",
      "--name",
      "x_bot",
      "--description",
      "d",
      "--package-name",
      "errand-channel-x-bot",
      "--author",
      "",
      "--license",
      "ISC",
      "--template",
      "blank",
    ];
    const r = await runCli("create-channel", args, { cwd: root, stdin: "ignore" });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain(ESCAPE);
    expect((await readJson(join(root, "x", "package.json"))).errand.channel).toBe("x_bot");
  });

  it("refuses a non-empty folder before saying anything about questions", async () => {
    await mkdir(join(root, "taken"));
    await writeFile(join(root, "taken", "keep.txt"), "mine");
    const r = await runCli("create-channel", ["taken", "--no-install"], { cwd: root, stdin: "ignore" });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("taken is not empty");
    expect(r.stderr).not.toContain("stdin is not a terminal");
  });
});

describe("the channel name made from a folder name", () => {
  it.each([
    ["My Chat", "my-chat"],
    ["errand-channel-teams", "teams"],
    ["2fast", "fast"],
  ])("says so when the folder %j becomes the channel %s", async (folder, channel) => {
    const r = await runCli("create-channel", [folder, "--yes", "--no-install"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `channel name ${channel}: made from the folder name "${folder}" (pass --name to choose another)`,
    );
    expect((await readJson(join(root, folder, "package.json"))).errand.channel).toBe(channel);
  });

  it("says nothing when the folder name is the channel name, or --name gives it", async () => {
    const same = await runCli("create-channel", ["team-alerts", "--yes", "--no-install"], { cwd: root });
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stdout).not.toContain("made from the folder name");
    const named = await runCli("create-channel", ["My Bot", "--yes", "--no-install", "--name", "my_bot"], {
      cwd: root,
    });
    expect(named.exitCode, named.stderr).toBe(0);
    expect(named.stdout).not.toContain("made from the folder name");
    expect(existsSync(join(root, "My Bot", "package.json"))).toBe(true);
  });

  it("uses the last segment of a path", async () => {
    const r = await runCli("create-channel", ["nested/Ops Room", "--yes", "--no-install"], { cwd: root });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('channel name ops-room: made from the folder name "Ops Room"');
  });
});
