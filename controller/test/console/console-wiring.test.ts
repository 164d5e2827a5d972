import { describe, expect, it } from "vitest";
import { createHarness, startInProcess } from "../controller/harness.js";
import { rawConnect } from "../helpers/raw.js";

describe("the console in a controller", () => {
  it("is served on the ops port by default, with the store page naming the store, its schema and the leader", async () => {
    const h = createHarness({ engine: "ok.sh" });
    const c = await startInProcess(h);
    try {
      const base = `http://127.0.0.1:${c.controller.ops.address?.port}`;
      expect(c.controller.consoleServer).toBeUndefined();
      const page = await (await fetch(`${base}/console/store`)).text();
      expect(page).toContain("<dt>Kind</dt><dd>sqlite</dd>");
      expect(page).toMatch(/<dt>Schema version<\/dt><dd>\d+<\/dd>/);
      expect(page).toMatch(/<dt>Leader of the loop<\/dt><dd>this controller \([^)]+\/\d+\)<\/dd>/);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      await c.stop();
    }
  });

  it("gets a port of its own with console.port, and is not served at all with enabled: false", async () => {
    const own = await startInProcess(createHarness({ engine: "ok.sh", extra: "console:\n  port: 0\n" }));
    try {
      const ops = `http://127.0.0.1:${own.controller.ops.address?.port}`;
      const port = own.controller.consoleServer?.address?.port;
      expect(port).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${port}/console/runs`)).status).toBe(200);
      expect((await fetch(`${ops}/console/runs`)).status).toBe(404);
    } finally {
      await own.stop();
    }
    const off = await startInProcess(createHarness({ engine: "ok.sh", extra: "console:\n  enabled: false\n" }));
    try {
      expect((await fetch(`http://127.0.0.1:${off.controller.ops.address?.port}/console/runs`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});

describe("odd request targets", () => {
  it("answers them and keeps serving: the ops server's process never throws on a path", async () => {
    const c = await startInProcess(createHarness({ engine: "ok.sh" }));
    try {
      const port = c.controller.ops.address?.port as number;
      for (const target of ["//[", "/console?%", "/console/[x]", "/console/runs/%ZZ", "/console/runs?cursor=%FF"]) {
        const client = await rawConnect(port);
        client.socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        expect(await client.waitFor((text) => /^HTTP\/1\.1 \d{3} /.test(text))).toMatch(
          /^HTTP\/1\.1 (200|303|400|404) /,
        );
        await client.closed;
      }
      expect((await fetch(`http://127.0.0.1:${port}/console/runs`)).status).toBe(200);
    } finally {
      await c.stop();
    }
  });
});
