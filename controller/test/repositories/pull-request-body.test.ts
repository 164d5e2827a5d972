import type { Ticket } from "@errand/channel-sdk";
import { expect, it } from "vitest";
import { pullRequestBody, pullRequestTitle } from "../../src/repositories/pull-request-body.js";

const issue: Ticket = {
  id: "42",
  title: "  Fix the login  ",
  description: "",
  ticketType: "issue",
  repoUrl: "https://github.com/acme/app",
  externalUrl: "https://github.com/acme/app/issues/42",
  labels: [],
  source: "codehost_a",
};

it("the body links the ticket, closes a code host A issue on merge, and gives summary, cost, tokens and duration", () => {
  const body = pullRequestBody(issue, "run_01", {
    success: true,
    summary: "Fixed the login.",
    pullRequestUrl: "",
    failureReason: "",
    costUsd: 0.4567,
    durationMs: 125_000,
    tokenUsage: { inputTokens: 10, outputTokens: 20, cachedInputTokens: 0 },
  });
  expect(body).toContain("[ticket 42](https://github.com/acme/app/issues/42)");
  expect(body).toContain("Closes #42");
  expect(body).toContain("Fixed the login.");
  expect(body).toContain("| Cost | $0.46 |");
  expect(body).toContain("| Tokens | 10 in, 20 out |");
  expect(body).toContain("| Duration | 2 min 5 s |");
  expect(pullRequestTitle(issue)).toBe("Fix the login");
});

it("a ticket of another source is linked, not closed; unknown figures say so", () => {
  const body = pullRequestBody({ ...issue, source: "tracker_a", id: "ENG-7" }, "run_01", {
    success: true,
    summary: "",
    pullRequestUrl: "",
    failureReason: "",
  });
  expect(body).not.toContain("Closes");
  expect(body).toContain("| Cost | unknown |");
  expect(pullRequestTitle({ ...issue, title: " " })).toBe("Errand: ticket 42");
});
