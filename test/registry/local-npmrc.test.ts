import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/temp-dir.js";
import { keptUserLines } from "./npmrc.mjs";
import { REPO, userEnvironment } from "./publish-packages.mjs";

// `npm run registry:local` writes an npm config that replaces the user's ~/.npmrc in the shells that use it:
// the user's own settings (nodedir for native builds, proxies, cache, other scopes) must survive in it.
const REGISTRY = { url: "http://127.0.0.1:4873/" };
// biome-ignore lint/suspicious/noTemplateCurlyInString: npm itself expands ${NAME} in an .npmrc; the line must survive as written
const TOKEN_LINE = "//npm.pkg.github.com/:_authToken=${GH_TOKEN}";
const USER_NPMRC = [
  "nodedir=/opt/node-headers",
  "registry=https://npm.corp.example/",
  "cache=/srv/npm-cache",
  "@acme:registry=https://npm.pkg.github.com/",
  TOKEN_LINE,
];

describe("registry:local's npm config", () => {
  it("keeps every line of the user's config but the registry's own: default registry, @errand scope, its address", () => {
    const text = [
      ...USER_NPMRC,
      "@errand:registry=https://old.example/",
      "//127.0.0.1:4873/:_authToken=stale",
      "",
    ].join("\n");
    expect(keptUserLines(text, REGISTRY, {})).toEqual([
      "nodedir=/opt/node-headers",
      "cache=/srv/npm-cache",
      "@acme:registry=https://npm.pkg.github.com/",
      TOKEN_LINE,
    ]);
  });

  it("exempts the registry's host from a proxy, keeping the user's own exemptions", () => {
    expect(keptUserLines("https-proxy=http://proxy.corp:3128\nnoproxy=.corp.example", REGISTRY, {})).toEqual([
      "https-proxy=http://proxy.corp:3128",
      "noproxy=.corp.example,127.0.0.1",
    ]);
    expect(
      keptUserLines("nodedir=/x", REGISTRY, { HTTPS_PROXY: "http://proxy.corp:3128", NO_PROXY: "localhost" }),
    ).toEqual(["nodedir=/x", "noproxy=localhost,127.0.0.1"]);
    expect(keptUserLines("nodedir=/x", REGISTRY, {})).toEqual(["nodedir=/x"]);
  });

  it("npm run registry:local prints the project .npmrc form first, and its file carries the user's ~/.npmrc over", async () => {
    const home = tempDir("registry-local-home-");
    await writeFile(join(home, ".npmrc"), `${USER_NPMRC.join("\n")}\n`);
    await mkdir(join(home, "work"));
    const env = { ...userEnvironment(), HOME: home, ERRAND_REGISTRY_BUILD: "0", npm_config_update_notifier: "false" };
    const child = spawn(process.execPath, [join(REPO, "test/registry/local.mjs"), "--port", "0"], {
      cwd: REPO,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    try {
      await new Promise<void>((ready, fail) => {
        child.stdout.on("data", () => output.includes("stop it with Ctrl-C") && ready());
        void exited.then(() => fail(new Error(`registry:local exited: ${output}`)));
      });
      const url = /published to (\S+):/.exec(output)?.[1];
      const npmrc = /export NPM_CONFIG_USERCONFIG=(\S+)/.exec(output)?.[1];
      expect(npmrc, output).toBeDefined();
      expect(output.indexOf(`  registry=${url}`)).toBeGreaterThan(0);
      expect(output.indexOf(`  registry=${url}`)).toBeLessThan(output.indexOf("export NPM_CONFIG_USERCONFIG"));
      expect(output).toContain(`carries that file's settings over`);
      expect(statSync(npmrc!).mode & 0o077).toBe(0);
      const npmConfig = async (key: string) =>
        (
          await execa("npm", ["config", "get", key], {
            cwd: join(home, "work"),
            env: { ...env, NPM_CONFIG_USERCONFIG: npmrc! },
            extendEnv: false,
          })
        ).stdout;
      expect(await npmConfig("nodedir")).toBe("/opt/node-headers");
      expect(await npmConfig("cache")).toBe("/srv/npm-cache");
      expect(await npmConfig("registry")).toBe(url);
      expect(await npmConfig("@acme:registry")).toBe("https://npm.pkg.github.com/");
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(existsSync(npmrc!)).toBe(false);
    } finally {
      child.kill("SIGKILL");
    }
  }, 180_000);
});
