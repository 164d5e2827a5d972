import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createHarness, SECRET_ENV } from "./controller/harness.js";
import { runCli, writeConfig } from "./helpers/cli.js";

const PROBE = fileURLToPath(new URL("./fixtures/loaded-packages.mjs", import.meta.url));

interface Loaded {
  /** Installed packages (node_modules) loaded as modules of their own. */
  packages: string[];
  /** The controller's own files (paths under controller/dist/). */
  own: string[];
}

/** What a started `errand` loaded on its way to a listening webhook server. */
async function loadedBy(args: string[], env: Record<string, string>): Promise<Loaded> {
  const p = runCli(args, { env: { ...env, NODE_OPTIONS: `--import ${PROBE}` } });
  await p.ready;
  p.child.kill("SIGTERM");
  expect(await p.exited).toBe(0);
  const line = (name: string) => {
    const match = new RegExp(`^${name}: (.*)$`, "m").exec(p.stderr());
    expect(match, p.stderr()).not.toBeNull();
    return JSON.parse(match![1]!) as string[];
  };
  return { packages: line("loaded-packages"), own: line("loaded-own") };
}

// Bundled into dist/bin by scripts/bundle-cli.mjs: loaded as modules of their own, they would cost their module count again.
const BUNDLED = ["commander", "zod", "yaml", "prom-client", "@opentelemetry/api"];

/** The command ran from the bundle: only dist/bin files of the controller, none of the bundled packages on their own. */
function expectBundled(loaded: Loaded): void {
  expect(loaded.own.length).toBeGreaterThan(0);
  expect(loaded.own.filter((file) => !file.startsWith("bin/"))).toEqual([]);
  expect(loaded.packages.filter((name) => BUNDLED.includes(name))).toEqual([]);
}

describe("start-up loads the bundle and only what the command needs", () => {
  it("errand webhook serve loads neither @grpc/grpc-js nor protobuf on its way to a listening server", async () => {
    const file = writeConfig(`webhook:\n  enabled: true\n  host: 127.0.0.1\n  generic:\n    auth_mode: hmac\n    secret: { env: HOOK_SECRET }\n`);
    const loaded = await loadedBy(["webhook", "serve", "--config", file, "--port", "0"], { HOOK_SECRET: "a-webhook-secret" });
    expectBundled(loaded);
    expect(loaded.packages.filter((name) => /grpc|protobuf/.test(name))).toEqual([]);
  });

  it("errand run with a SQLite store and no channels loads neither gRPC (the notifier) nor pg", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const loaded = await loadedBy(["run", "--config", h.configFile], SECRET_ENV);
    expectBundled(loaded);
    // The probe sees what it should: the native SQLite driver is loaded from its package.
    expect(loaded.packages).toContain("better-sqlite3");
    expect(loaded.packages.filter((name) => /grpc|protobuf|^pg$/.test(name))).toEqual([]);
  });
});
