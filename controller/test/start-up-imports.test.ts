import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createHarness, SECRET_ENV } from "./controller/harness.js";
import { runCli, writeConfig } from "./helpers/cli.js";

const PROBE = fileURLToPath(new URL("./fixtures/loaded-packages.mjs", import.meta.url));

/** The packages a started `errand` loaded on its way to a listening webhook server. */
async function packagesLoaded(args: string[], env: Record<string, string>): Promise<string[]> {
  const p = runCli(args, { env: { ...env, NODE_OPTIONS: `--import ${PROBE}` } });
  await p.ready;
  p.child.kill("SIGTERM");
  expect(await p.exited).toBe(0);
  const line = /^loaded-packages: (.*)$/m.exec(p.stderr());
  expect(line, p.stderr()).not.toBeNull();
  return JSON.parse(line![1]!) as string[];
}

describe("start-up loads only what the command needs", () => {
  it("errand webhook serve loads neither @grpc/grpc-js nor protobuf on its way to a listening server", async () => {
    const file = writeConfig(`webhook:\n  enabled: true\n  host: 127.0.0.1\n  generic:\n    auth_mode: hmac\n    secret: { env: HOOK_SECRET }\n`);
    const packages = await packagesLoaded(["webhook", "serve", "--config", file, "--port", "0"], { HOOK_SECRET: "a-webhook-secret" });
    // The probe sees what it should: the command's own dependencies.
    expect(packages).toEqual(expect.arrayContaining(["commander", "yaml"]));
    expect(packages.filter((name) => /grpc|protobuf/.test(name))).toEqual([]);
  });

  it("errand run with a SQLite store and no channels loads neither gRPC (the notifier) nor pg", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const packages = await packagesLoaded(["run", "--config", h.configFile], SECRET_ENV);
    expect(packages).toEqual(expect.arrayContaining(["better-sqlite3", "commander"]));
    expect(packages.filter((name) => /grpc|protobuf|^pg$/.test(name))).toEqual([]);
  });
});
