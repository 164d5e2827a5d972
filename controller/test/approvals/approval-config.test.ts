import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Ticket } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { compileApprovalRules } from "../../src/approvals/approval-rules.js";
import { approvalKey, signApprovalValue, verifyApprovalValue } from "../../src/approvals/approval-signing.js";
import { formatTimeout } from "../../src/approvals/approval-sweeper.js";
import { ConfigError, formatProblem, loadControllerConfig } from "../../src/config/index.js";
import { secretReferences } from "../../src/secrets/secret-references.js";

const dir = tempDir("errand-approval-config-");
let n = 0;
async function load(guardrails: string) {
  const path = join(dir, `c${n++}.yaml`);
  writeFileSync(path, `guardrails:\n${guardrails}`);
  return (await loadControllerConfig(path, { env: {} })).config;
}
async function problems(guardrails: string): Promise<string> {
  const error = await load(guardrails).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems.map(formatProblem).join("\n");
}

const ticket = (extra: Partial<Ticket> = {}): Ticket => ({
  id: "T-1",
  title: "t",
  description: "",
  ticketType: "bug_fix",
  repoUrl: "https://github.com/acme/shop",
  externalUrl: "",
  labels: [],
  source: "generic",
  ...extra,
});

describe("guardrails: the approval keys", () => {
  it("reads the rules, approvers, timeout and signing secret", async () => {
    const config = await load(`  require_approval:
    labels: [Needs-Review]
    repos: [github.com/acme/pay*]
    sources: [chat_a]
  approvers: [U0123ABCD, alice]
  approval_timeout: 90m
  approval_signing_secret: errand-approval-key
`);
    expect(config.guardrails).toMatchObject({
      requireApproval: { labels: ["Needs-Review"], repos: ["github.com/acme/pay*"], sources: ["chat_a"] },
      approvers: ["U0123ABCD", "alice"],
      approvalTimeoutMs: 90 * 60_000,
      approvalSigningSecret: "errand-approval-key",
    });
    expect(secretReferences(config)).toContainEqual({
      name: "errand-approval-key",
      key: "guardrails.approval_signing_secret",
    });
  });

  it("names each wrong value with its line and the fix", async () => {
    const text = await problems(`  require_approval:
    repos: ["https://github.com/acme/../x"]
    always: yes-please
    label: [x]
  approval_timeout: 10s
  approvers: U0123ABCD
`);
    expect(text).toMatch(/guardrails\.require_approval\.repos\[0\] \(line 3\)/);
    expect(text).toMatch(/guardrails\.require_approval\.always \(line 4\): must be true or false/);
    expect(text).toMatch(
      /guardrails\.require_approval\.label \(line 5\): is not a known key; did you mean guardrails\.require_approval\.labels\?/,
    );
    expect(text).toMatch(/guardrails\.approval_timeout \(line 6\): must be from 60 to 2592000 seconds, got "10s"/);
    expect(text).toMatch(/guardrails\.approvers \(line 7\): must be a list of strings/);
  });
});

describe("which tickets wait", () => {
  it("holds nothing without rules, everything with always, and by engine", async () => {
    expect(compileApprovalRules({ requireApproval: undefined }, "claude_code")).toBeUndefined();
    expect(compileApprovalRules({ requireApproval: { always: true } }, "x")?.(ticket())).toBe(true);
    expect(compileApprovalRules({ requireApproval: { engines: ["claude_code"] } }, "claude_code")?.(ticket())).toBe(
      true,
    );
    expect(compileApprovalRules({ requireApproval: { engines: ["claude_code"] } }, "demo")).toBeUndefined();
  });

  it("holds by label (ASCII case ignored), source and repository pattern; a repo_url read otherwise is held", () => {
    const hold = compileApprovalRules(
      { requireApproval: { labels: ["needs-review"], sources: ["chat_a"], repos: ["github.com/acme/pay*"] } },
      "demo",
    );
    if (hold === undefined) throw new Error("rules compiled to nothing");
    expect(hold(ticket())).toBe(false);
    expect(hold(ticket({ labels: ["p1", "Needs-Review"] }))).toBe(true);
    expect(hold(ticket({ source: "chat_a" }))).toBe(true);
    expect(hold(ticket({ repoUrl: "https://github.com/acme/payments" }))).toBe(true);
    expect(hold(ticket({ repoUrl: "https://evil.example?@github.com/acme/payments" }))).toBe(true);
    expect(hold(ticket({ repoUrl: "" }))).toBe(false);
  });
});

describe("the values of chat A's buttons", () => {
  const key = approvalKey(undefined, "chat-signing-secret") as Buffer;
  const runId = "run_01m87hspjtwdbzrcf1x2p25q7m";

  it("binds the run id to the decision under the key", () => {
    const value = signApprovalValue(key, runId, "approve");
    expect(verifyApprovalValue(key, value, "approve")).toBe(runId);
    expect(verifyApprovalValue(key, value, "reject")).toBeUndefined();
    expect(verifyApprovalValue(key, value.replace(runId, "run_01m87hspjtwdbzrcf1x2p25q7n"), "approve")).toBeUndefined();
    expect(verifyApprovalValue(key, value.slice(0, -2), "approve")).toBeUndefined();
    expect(verifyApprovalValue(key, runId, "approve")).toBeUndefined();
    const other = approvalKey("errand-approval-key", "chat-signing-secret") as Buffer;
    expect(verifyApprovalValue(other, value, "approve")).toBeUndefined();
  });

  it("derives the key from chat A's signing secret without using it as is; no secret, no key", () => {
    expect(key.equals(Buffer.from("chat-signing-secret"))).toBe(false);
    expect(approvalKey(undefined, undefined)).toBeUndefined();
    expect(approvalKey("", "")).toBeUndefined();
  });

  it("writes timeouts as approval_timeout is written", () => {
    expect([formatTimeout(86_400_000), formatTimeout(5_400_000), formatTimeout(45_000), formatTimeout(1)]).toEqual([
      "24h",
      "90m",
      "45s",
      "0s",
    ]);
  });
});
