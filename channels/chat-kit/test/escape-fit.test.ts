import { describe, expect, it } from "vitest";
import { safeHttpUrl, truncateEscaped } from "../src/index.js";

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

describe("truncateEscaped", () => {
  it("returns the escaped text whole when it fits", () => {
    expect(truncateEscaped("a & b", 9, escapeHtml)).toBe("a &amp; b");
  });

  it("never cuts inside an escape sequence or a character, and always fits", () => {
    const text = "R&D <team> 👩‍💻 says: a&b&c&d ".repeat(20);
    for (let limit = 0; limit <= 120; limit++) {
      const out = truncateEscaped(text, limit, escapeHtml);
      expect(out.length, `limit ${limit}`).toBeLessThanOrEqual(limit);
      // Unescaping and escaping again gives the same text: no broken entity.
      const raw = out.replace(/…$/, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
      expect(escapeHtml(raw) + (out.endsWith("…") ? "…" : "")).toBe(out);
      expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      if (limit >= 10) expect(out.endsWith("…")).toBe(true);
    }
  });
});

describe("safeHttpUrl", () => {
  it("keeps http(s) URLs and percent-encodes the characters that would end a link", () => {
    expect(safeHttpUrl("https://h.example/a|b c>d", 100, /[|<>\s]/g)).toBe("https://h.example/a%7Cb%20c%3Ed");
    expect(safeHttpUrl("https://h.example/x(1)", 100, /[()]/)).toBe("https://h.example/x%281%29");
  });

  it.each([undefined, "", "javascript:alert(1)", "ftp://h/x", "not a url"])("refuses %j", (url) => {
    expect(safeHttpUrl(url, 100, /[|]/g)).toBeUndefined();
  });

  it("refuses a URL longer than the limit once encoded", () => {
    expect(safeHttpUrl(`https://h.example/${"a".repeat(50)}`, 40, /[|]/g)).toBeUndefined();
  });
});
