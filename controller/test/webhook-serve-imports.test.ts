import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli, writeConfig } from "./helpers/cli.js";

const PROBE = fileURLToPath(new URL("./fixtures/loaded-packages.mjs", import.meta.url));

describe("errand webhook serve starts without gRPC", () => {
  it("loads neither @grpc/grpc-js nor protobuf on its way to a listening server", async () => {
    const file = writeConfig(`webhook:\n  enabled: true\n  host: 127.0.0.1\n  generic:\n    auth_mode: hmac\n    secret: { env: HOOK_SECRET }\n`);
    const p = runCli(["webhook", "serve", "--config", file, "--port", "0"], { env: { HOOK_SECRET: "a-webhook-secret", NODE_OPTIONS: `--import ${PROBE}` } });
    await p.ready;
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    const line = /^loaded-packages: (.*)$/m.exec(p.stderr());
    expect(line, p.stderr()).not.toBeNull();
    const packages = JSON.parse(line![1]!) as string[];
    // The probe sees what it should: the command's own dependencies.
    expect(packages).toEqual(expect.arrayContaining(["commander", "yaml"]));
    expect(packages.filter((name) => /grpc|protobuf/.test(name))).toEqual([]);
  });
});
