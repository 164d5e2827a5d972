import { describe, expect, it } from "vitest";
import { credentialTextProblem } from "../src/credential-text.js";

describe("credentialTextProblem", () => {
  it("names what makes a secret unusable in a header, and where, never the value", () => {
    expect(credentialTextProblem("xoxb-123-abc")).toBeUndefined();
    expect(credentialTextProblem("  xoxb-123-abc\n")).toBeUndefined();
    expect(credentialTextProblem("xoxb-12\n3")).toBe("contains a line break at character 8");
    expect(credentialTextProblem("  ab\u0000c")).toBe("contains a control character (U+0000) at character 5");
    expect(credentialTextProblem("ab✓c")).toBe(
      "contains a character that is not printable ASCII (U+2713) at character 3",
    );
    expect(credentialTextProblem("ab c")).toBe("contains a space or tab at character 3");
    expect(credentialTextProblem('"xoxb-123"')).toBe("is wrapped in quotes");
    expect(credentialTextProblem("secret\u2028")).toBeUndefined(); // surrounding whitespace is dropped
    expect(credentialTextProblem("sec\u00a0ret")).toBe("contains a space character (U+00A0) at character 4");
  });
});
