import { describe, expect, it } from "vitest";
import { markdownLink, safeUrl } from "../src/index.js";

describe("links in chat_b markdown", () => {
  it("percent-encodes the parentheses that would end a [label](url) link early", () => {
    expect(safeUrl("https://codehost.example/acme/app/pull/5?q=(draft)", 512)).toBe("https://codehost.example/acme/app/pull/5?q=%28draft%29");
    expect(markdownLink("https://codehost.example/a)b", "PR", 512)).toBe("[PR](https://codehost.example/a%29b)");
  });
});
