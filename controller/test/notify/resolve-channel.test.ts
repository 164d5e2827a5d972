import { chmodSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createPluginFinder, pluginSearchRoots } from "../../src/notify/find-plugin-package.js";
import { resolveChannel } from "../../src/notify/resolve-channel.js";
import { entry, PLUGINS_DIR, tempDir } from "./helpers/fixtures.js";

const CONTROLLER_DIR = resolve(import.meta.dirname, "../..");

/** A package folder serving `channel`, with a JavaScript bin. */
function writePackage(
  dir: string,
  name: string,
  channel: string,
  bin: Record<string, string> | string = { [name]: "bin.js" },
) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name, version: "3.1.0", bin, errand: { channel, interfaceVersions: [1] } }),
  );
  writeFileSync(join(dir, "bin.js"), "#!/usr/bin/env node\n");
}

describe("plugin package search", () => {
  it("looks in plugins.dir/node_modules, then plugins.dir, then node_modules from the controller up", () => {
    expect(
      pluginSearchRoots({ pluginsDir: "/srv/plugins", controllerDir: "/opt/app/node_modules/@errand/controller" }),
    ).toEqual([
      "/srv/plugins/node_modules",
      "/srv/plugins",
      "/opt/app/node_modules/@errand/controller/node_modules",
      "/opt/app/node_modules/@errand/node_modules",
      "/opt/app/node_modules",
      "/opt/node_modules",
      "/node_modules",
    ]);
  });

  it("finds the example plugin installed beside the controller (the workspace's node_modules) by its errand.channel", () => {
    const result = resolveChannel(
      entry(0, { backend: "webhook_post" }),
      createPluginFinder({ controllerDir: CONTROLLER_DIR }),
    );
    expect(result).toEqual({
      source: {
        kind: "package",
        packageName: "@errand/example-webhook-post",
        packageVersion: "0.1.0",
        dir: resolve(CONTROLLER_DIR, "../examples/webhook-post"),
        command: process.execPath,
        args: [resolve(CONTROLLER_DIR, "../examples/webhook-post/bin/errand-channel-webhook-post.js")],
      },
    });
  });

  it("prefers plugins.dir/node_modules over plugins.dir's own folders, and both over the controller's node_modules", () => {
    const plugins = tempDir();
    writePackage(join(plugins, "node_modules", "@acme", "errand-channel-pager"), "@acme/errand-channel-pager", "pager");
    writePackage(join(plugins, "pager-unpacked"), "errand-channel-pager", "pager");
    writePackage(join(plugins, "webhook-post-fork"), "webhook-post-fork", "webhook_post");
    const finder = createPluginFinder({ pluginsDir: plugins, controllerDir: CONTROLLER_DIR });
    const pager = resolveChannel(entry(0, { backend: "pager" }), finder);
    expect(pager).toMatchObject({ source: { kind: "package", packageName: "@acme/errand-channel-pager" } });
    const fork = resolveChannel(entry(1, { backend: "webhook_post" }), finder);
    expect(fork).toMatchObject({
      source: { kind: "package", packageName: "webhook-post-fork", dir: join(plugins, "webhook-post-fork") },
    });
  });

  it("follows symlinked packages (npm link, workspaces) and reports the real folder", () => {
    const plugins = tempDir();
    mkdirSync(join(plugins, "node_modules"));
    symlinkSync(join(PLUGINS_DIR, "team-alerts"), join(plugins, "node_modules", "errand-channel-team-alerts"));
    const result = resolveChannel(
      entry(0, { backend: "team_alerts" }),
      createPluginFinder({ pluginsDir: plugins, controllerDir: CONTROLLER_DIR }),
    );
    expect(result).toMatchObject({
      source: {
        kind: "package",
        dir: join(PLUGINS_DIR, "team-alerts"),
        args: [join(PLUGINS_DIR, "team-alerts", "bin.mjs")],
      },
    });
  });

  it("refuses two packages serving one channel in the same folder, naming both", () => {
    const plugins = tempDir();
    writePackage(join(plugins, "a"), "errand-channel-a", "pager");
    writePackage(join(plugins, "b"), "errand-channel-b", "pager");
    const result = resolveChannel(
      entry(3, { backend: "pager" }),
      createPluginFinder({ pluginsDir: plugins, controllerDir: CONTROLLER_DIR }),
    );
    expect(result).toMatchObject({
      problem: {
        entry: 'notifications.channels[3] (backend "pager")',
        message: expect.stringMatching(
          /more than one installed package serves the channel "pager".*errand-channel-a.*errand-channel-b/,
        ),
      },
    });
  });
});

describe("resolveChannel", () => {
  const finder = createPluginFinder({ pluginsDir: PLUGINS_DIR, controllerDir: CONTROLLER_DIR });

  it("loads chat_a and chat_b in-process", () => {
    expect(resolveChannel(entry(0, { backend: "chat_a" }), finder)).toMatchObject({
      source: { kind: "builtin", packageName: "@errand/channel-chat-a" },
    });
    expect(resolveChannel(entry(1, { backend: "chat_b" }), finder)).toMatchObject({
      source: { kind: "builtin", packageName: "@errand/channel-chat-b" },
    });
  });

  it("runs an explicit command whatever the backend, also a built-in's name", () => {
    const result = resolveChannel(
      entry(0, { backend: "chat_a", command: [process.execPath, "plugin.js", "--verbose"] }),
      finder,
    );
    expect(result).toEqual({
      source: { kind: "command", command: process.execPath, args: ["plugin.js", "--verbose"] },
    });
  });

  it("names the entry, the built-ins and every folder it looked in for an unknown backend", () => {
    const result = resolveChannel(entry(2, { backend: "team-alerts" }), finder);
    if (!("problem" in result)) throw new Error("expected a problem");
    expect(result.problem.entry).toBe('notifications.channels[2] (backend "team-alerts")');
    expect(result.problem.message).toContain(
      'unknown backend "team-alerts": it is not a built-in channel (chat_a, chat_b)',
    );
    expect(result.problem.message).toContain(
      `${PLUGINS_DIR}/node_modules (missing), ${PLUGINS_DIR}, ${CONTROLLER_DIR}/node_modules`,
    );
    expect(result.problem.fix).toMatch(/install the plugin package/);
  });

  it("refuses a command that does not exist or is not executable, before anything starts", () => {
    const missing = resolveChannel(entry(0, { backend: "x", command: ["/nonexistent/plugin"] }), finder);
    expect(missing).toMatchObject({ problem: { message: 'the command "/nonexistent/plugin" does not exist' } });
    const file = join(tempDir(), "plugin.sh");
    writeFileSync(file, "#!/bin/sh\n");
    chmodSync(file, 0o644);
    expect(resolveChannel(entry(0, { backend: "x", command: [file] }), finder)).toMatchObject({
      problem: { message: `the command "${file}" is not executable` },
    });
    expect(resolveChannel(entry(0, { backend: "x", command: ["no-such-plugin-on-path"] }), finder)).toMatchObject({
      problem: { message: 'the command "no-such-plugin-on-path" is not on PATH' },
    });
  });

  it("refuses a package without a bin, or whose bin is missing (not built)", () => {
    const plugins = tempDir();
    mkdirSync(join(plugins, "nobin"));
    writeFileSync(
      join(plugins, "nobin", "package.json"),
      JSON.stringify({ name: "nobin", errand: { channel: "nobin" } }),
    );
    cpSync(join(PLUGINS_DIR, "team-alerts", "package.json"), join(plugins, "unbuilt", "package.json"), {
      recursive: true,
    });
    const own = createPluginFinder({ pluginsDir: plugins, controllerDir: CONTROLLER_DIR });
    expect(resolveChannel(entry(0, { backend: "nobin" }), own)).toMatchObject({
      problem: { message: expect.stringContaining('declares no "bin" that serves the channel') },
    });
    expect(resolveChannel(entry(1, { backend: "team_alerts" }), own)).toMatchObject({
      problem: { message: expect.stringMatching(/the bin bin\.mjs of errand-channel-team-alerts .* does not exist/) },
    });
  });
});
