import { describe, expect, it } from "vitest";

// Imports the built package by name, as a channel author would: proves the
// "./testing" export map and the index files are wired (run `tsc -b sdk` first).
describe("@errand/channel-sdk/testing entry point", () => {
  it("exports the testing API", async () => {
    const testing = await import("@errand/channel-sdk/testing");
    expect(Object.keys(testing).sort()).toEqual(["captureLogger", "createTestContext", "fixtures", "startSink"]);
    const sink = await testing.startSink();
    await sink.close();
  });
});

describe("helpers index", () => {
  it("exports every helper", async () => {
    const helpers = await import("../../src/helpers/index.js");
    expect(Object.keys(helpers).sort()).toEqual([
      "TRANSIENT_NETWORK_CODES",
      "createDeliveryLane",
      "createHttpClient",
      "createSerialQueue",
      "createThrottle",
      "credentialTextProblem",
      "errorCodeForStatus",
      "fitLink",
      "formatCost",
      "formatCount",
      "formatDuration",
      "formatTokens",
      "httpErrorResponse",
      "httpStatusError",
      "isTransientNetworkError",
      "measure",
      "parseRetryAfter",
      "parseRetryAfterBody",
      "redactUrl",
      "retry",
      "safeHttpUrl",
      "shortUrlLabel",
      "sleep",
      "ticketLink",
      "toAttemptError",
      "truncate",
      "truncateEscaped",
    ]);
  });
});
