import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { startConsole } from "./helpers/in-process-console.js";

const TOKEN = "console-read-access-token-93c1";
// This machine's own non-loopback address: a request to it comes from it, which the console must not count as loopback.
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === "IPv4" && !a.internal)?.address;

describe("console.read_access loopback (the default)", () => {
  it.runIf(outside !== undefined)("reads from loopback without the token; elsewhere only with it", async () => {
    const c = await startConsole({ tokenSecret: "t" }, { token: TOKEN, host: "0.0.0.0" });
    expect((await fetch(`${c.url}/console/runs`)).status).toBe(200);
    const remote = `http://${outside}:${c.port}/console/runs`;
    const refused = await fetch(remote, { redirect: "manual" });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain('name="token"');
    expect((await fetch(remote, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });
});
