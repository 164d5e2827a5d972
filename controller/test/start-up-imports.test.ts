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
  /** What became of the bundle's code cache (ERRAND_CODE_CACHE=report). */
  codeCache: string;
  /** Node's built-in modules loaded by the time the process exited. */
  builtins: string[];
}

/** What a started `errand` loaded on its way to a listening webhook server. */
async function loadedBy(args: string[], env: Record<string, string>): Promise<Loaded> {
  const p = runCli(args, { env: { ...env, NODE_OPTIONS: `--import ${PROBE}`, ERRAND_CODE_CACHE: "report" } });
  await p.ready;
  p.child.kill("SIGTERM");
  expect(await p.exited).toBe(0);
  const line = (name: string) => {
    const match = new RegExp(`^${name}: (.*)$`, "m").exec(p.stderr());
    expect(match, p.stderr()).not.toBeNull();
    return JSON.parse(match![1]!) as string[];
  };
  const report = /^\{.*"@message":"code cache".*\}$/m.exec(p.stderr());
  expect(report, p.stderr()).not.toBeNull();
  const { state, bundle } = JSON.parse(report![0]) as { state: string; bundle: string };
  expect(bundle).toMatch(/controller\/dist\/bin\/errand\.cjs$/);
  return {
    packages: line("loaded-packages"),
    own: line("loaded-own"),
    codeCache: state,
    builtins: line("loaded-builtins"),
  };
}

// Bundled into dist/bin by scripts/bundle-cli.mjs: loaded as modules of their own, they would cost their module count again.
const BUNDLED = ["commander", "zod", "yaml", "prom-client", "@opentelemetry/api"];

/**
 * The command ran from the bundle, compiled through the code cache the build recorded: of the controller's files
 * only the launcher is loaded as a module (it compiles dist/bin/errand.cjs itself), none of the bundled packages.
 */
function expectBundled(loaded: Loaded): void {
  expect(loaded.own).toEqual(["bin/launch.cjs"]);
  expect(loaded.codeCache).toBe("accepted");
  expect(loaded.packages.filter((name) => BUNDLED.includes(name))).toEqual([]);
}

describe("start-up loads the bundle and only what the command needs", () => {
  it("errand webhook serve loads neither @grpc/grpc-js nor protobuf on its way to a listening server", async () => {
    const file = writeConfig(
      `webhook:\n  enabled: true\n  host: 127.0.0.1\n  generic:\n    auth_mode: hmac\n    secret: { env: HOOK_SECRET }\n`,
    );
    const loaded = await loadedBy(["webhook", "serve", "--config", file, "--port", "0"], {
      HOOK_SECRET: "a-webhook-secret",
    });
    expectBundled(loaded);
    expect(loaded.packages.filter((name) => /grpc|protobuf/.test(name))).toEqual([]);
    // What prom-client's Pushgateway requires, loaded only on use (scripts/bundle-cli.mjs, LAZY). (child_process
    // cannot be checked this way: node's net loads it for any listening server, through cluster.)
    expect(loaded.builtins.filter((name) => ["https", "tls", "zlib"].includes(name))).toEqual([]);
  });

  it("errand run with a SQLite store and no channels loads neither gRPC (the notifier) nor pg", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const loaded = await loadedBy(["run", "--config", h.configFile], SECRET_ENV);
    expectBundled(loaded);
    // The probe sees what it should: the native SQLite driver is loaded from its package.
    expect(loaded.packages).toContain("better-sqlite3");
    expect(loaded.packages.filter((name) => /grpc|protobuf|^pg$/.test(name))).toEqual([]);
    expect(loaded.builtins.filter((name) => ["https", "tls", "zlib"].includes(name))).toEqual([]);
  });
});
