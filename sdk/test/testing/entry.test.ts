import { describe, expect, it } from "vitest";

// Imports the built package by name, as a channel author or host would:
// proves the export map and the index files are wired (run `tsc -b sdk`
// first). The API reports in sdk/api/ cover the types; this covers the
// runtime values each entry point really has.
describe("entry points, by package name", () => {
  it("@errand/channel-sdk/testing exports the testing API", async () => {
    const testing = await import("@errand/channel-sdk/testing");
    expect(Object.keys(testing).sort()).toEqual(["captureLogger", "createTestContext", "fixtures", "startSink"]);
    const sink = await testing.startSink();
    await sink.close();
  });

  it("each entry point loads and has the values its API report lists", async () => {
    const entries = {
      "@errand/channel-sdk": await import("@errand/channel-sdk"),
      "@errand/channel-sdk/host": await import("@errand/channel-sdk/host"),
      "@errand/channel-sdk/helpers": await import("@errand/channel-sdk/helpers"),
      "@errand/channel-sdk/protocol": await import("@errand/channel-sdk/protocol"),
    };
    const keys = Object.fromEntries(
      Object.entries(entries).map(([name, module]) => [name, Object.keys(module).sort()]),
    );
    expect(keys["@errand/channel-sdk"]).toContain("defineChannel");
    expect(keys["@errand/channel-sdk"]).not.toContain("connectChannel");
    expect(keys["@errand/channel-sdk/host"]).toEqual([
      "RemoteChannel",
      "connectChannel",
      "createLogger",
      "createMaskingLogger",
      "createSecretMask",
      "loadChannel",
      "silentLogger",
    ]);
    expect(keys["@errand/channel-sdk/helpers"]).toContain("createHttpClient");
    expect(keys["@errand/channel-sdk/protocol"]).toContain("MAGIC_COOKIE_KEY");
    expect(keys["@errand/channel-sdk/protocol"]).toContain("sendNotification");
  });
});
