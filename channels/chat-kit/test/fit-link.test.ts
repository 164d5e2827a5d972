import { describe, expect, it } from "vitest";
import { fitLink, shortUrlLabel } from "../src/fit-link.js";

describe("fitLink and shortUrlLabel", () => {
  const markup = {
    escape: (t: string) => t.replace(/&/g, "&amp;"),
    format: (href: string, label: string) => `<${href}|${label}>`,
  };
  const href = "https://h.example/pull/1?q=1";

  it("keeps the whole URL: the label is cut (never inside an escape), or there is no link", () => {
    expect(fitLink(href, "A & B", 100, markup)).toBe(`<${href}|A &amp; B>`);
    const room = `<${href}|>`.length + 12;
    const cut = fitLink(href, "Tom & Jerry & friends", room, markup);
    expect(cut).toMatch(new RegExp(`^<${href.replace(/[?.]/g, "\\$&")}\\|.*…>$`));
    expect(cut!.length).toBeLessThanOrEqual(room);
    expect(cut).not.toMatch(/&(a|am|amp)?…/);
    expect(fitLink(href, "a label longer than the room", room - 1, markup)).toBeUndefined();
    expect(fitLink(href, "a very long label indeed", room + 5, markup, { shortLabel: "short" })).toBe(
      `<${href}|short>`,
    );
  });

  it("names a URL by host and path, without scheme, ?… for a query left out", () => {
    expect(shortUrlLabel("https://codehost.example.com/acme/webapp/pull/456?x=1")).toBe(
      "codehost.example.com/acme/webapp/pull/456?…",
    );
    expect(shortUrlLabel("https://codehost.example.com/")).toBe("codehost.example.com");
    expect(shortUrlLabel("not a url", 5)).toBe("not …");
  });
});
