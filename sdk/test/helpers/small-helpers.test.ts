import { describe, expect, it } from "vitest";
import { CancelledError, DeadlineExceededError, ErrorCode, InternalError, UnavailableError } from "../../src/errors.js";
import { redactUrl, snippet } from "../../src/helpers/redact.js";
import { sleep } from "../../src/helpers/sleep.js";
import { isTransientNetworkError, toAttemptError } from "../../src/helpers/transport-error.js";
import { scrubError, secretForms } from "../../src/secret-mask.js";

describe("redactUrl", () => {
  it("drops user info and query values", () => {
    expect(redactUrl("https://user:pw@api.example.com/v1/send?token=abc&x=1")).toBe(
      "https://api.example.com/v1/send?[redacted]",
    );
    expect(redactUrl("https://api.example.com/v1/send")).toBe("https://api.example.com/v1/send");
  });

  it("keeps only the origin of a secret URL", () => {
    expect(redactUrl(new URL("https://hooks.example.com:8443/services/T0/B0/abcdef"), { secretUrl: true })).toBe(
      "https://hooks.example.com:8443/[redacted]",
    );
  });

  it("masks listed secrets in the path", () => {
    expect(redactUrl("https://x.example/hooks/s3cr3t-token", { forms: secretForms(["s3cr3t-token"]) })).toBe(
      "https://x.example/hooks/[redacted]",
    );
  });

  it("never echoes an unparsable URL", () => {
    expect(redactUrl("not a url with s3cr3t")).toBe("[unparsable URL]");
  });
});

describe("snippet", () => {
  it("flattens whitespace, masks secrets and cuts to 200 code units without a lone surrogate", () => {
    expect(snippet("  a\n\n b  ", ["zzzz"])).toBe("a b");
    expect(snippet("key=abcd1234", ["abcd1234"])).toBe("key=[redacted]");
    const cut = snippet(`${"x".repeat(198)}😀😀`);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut.isWellFormed()).toBe(true);
    expect(cut.endsWith("…")).toBe(true);
  });
});

describe("scrubError", () => {
  it("returns an error without secrets unchanged and copies one with secrets, masked, keeping name and code", () => {
    const clean = new Error("connect ECONNREFUSED");
    expect(scrubError(clean, ["secret-1"])).toBe(clean);
    const inner = Object.assign(new Error("bad path /hooks/secret-1"), { code: "E_X" });
    const outer = new Error("wrapper", { cause: inner });
    const scrubbed = scrubError(outer, ["secret-1"]) as Error & { cause: Error & { code: string } };
    expect(scrubbed).not.toBe(outer);
    expect(scrubbed.cause.message).toBe("bad path /hooks/[redacted]");
    expect(scrubbed.cause.code).toBe("E_X");
    expect(scrubbed.cause.stack).not.toContain("secret-1");
  });
});

describe("sleep", () => {
  it("waits, and rejects at once with the mapped abort reason", async () => {
    const start = performance.now();
    await sleep(50);
    expect(performance.now() - start).toBeGreaterThanOrEqual(45);
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
    await expect(sleep(10, AbortSignal.abort(new DeadlineExceededError("late")))).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
  });
});

describe("toAttemptError", () => {
  it("classifies network failures, attempt timeouts, caller aborts and bugs", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(isTransientNetworkError(reset)).toBe(true);
    expect(isTransientNetworkError(new Error("fetch failed", { cause: reset }))).toBe(true);
    expect(isTransientNetworkError(new Error("nope"))).toBe(false);
    expect(toAttemptError(reset)).toBeInstanceOf(UnavailableError);
    expect(toAttemptError(new DOMException("timed out", "TimeoutError"))).toBeInstanceOf(UnavailableError);
    expect(toAttemptError(reset, AbortSignal.abort())).toBeInstanceOf(CancelledError);
    expect(toAttemptError(new RangeError("bug"))).toBeInstanceOf(InternalError);
    const typed = new UnavailableError("x");
    expect(toAttemptError(typed, AbortSignal.abort())).toBe(typed);
    expect(toAttemptError(new Error("socket hang up")).code).toBe(ErrorCode.Unavailable);
  });
});
