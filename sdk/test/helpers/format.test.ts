import { describe, expect, it } from "vitest";
import { formatCost, formatCount, formatDuration, formatTokens } from "../../src/helpers/format.js";
import { ticketLink } from "../../src/helpers/ticket-link.js";
import type { TaskResult } from "../../src/index.js";
import { fixtures } from "../../src/testing/fixtures.js";

describe("formatDuration", () => {
  it.each([
    [0, "0ms"],
    [850, "850ms"],
    [999.9, "999ms"],
    [1000, "1s"],
    [12_400, "12s"],
    [59_999, "59s"],
    [60_000, "1m 00s"],
    [185_000, "3m 05s"],
    [3_599_999, "59m 59s"],
    [3_600_000, "1h 0m"],
    [3_723_000, "1h 2m"],
    [86_399_999, "23h 59m"],
    [86_400_000, "1d 0h"],
    [2 * 86_400_000 + 3 * 3_600_000, "2d 3h"],
  ])("formats %d ms as %j", (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });

  it("passes undefined through and calls nonsense unknown", () => {
    expect(formatDuration(undefined)).toBeUndefined();
    expect(formatDuration(-1)).toBe("unknown");
    expect(formatDuration(Number.NaN)).toBe("unknown");
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe("unknown");
  });
});

describe("formatCost", () => {
  it.each([
    [0, "$0.00"],
    [0.001, "<$0.01"],
    [0.0099, "<$0.01"],
    [0.01, "$0.01"],
    [0.4213, "$0.42"],
    [0.999, "$1.00"],
    [12.3, "$12.30"],
    [1234.5, "$1,234.50"],
  ])("formats %d USD as %j", (usd, expected) => {
    expect(formatCost(usd)).toBe(expected);
  });

  it("passes undefined through and calls nonsense unknown", () => {
    expect(formatCost(undefined)).toBeUndefined();
    expect(formatCost(-0.5)).toBe("unknown");
    expect(formatCost(Number.NaN)).toBe("unknown");
  });
});

describe("formatCount and formatTokens", () => {
  it.each([
    [0, "0"],
    [950, "950"],
    [999, "999"],
    [1000, "1k"],
    [12_345, "12.3k"],
    [999_949, "999.9k"],
    [999_950, "1M"],
    [1_234_567, "1.2M"],
    [2_500_000_000, "2.5B"],
  ])("formats %d as %j", (count, expected) => {
    expect(formatCount(count)).toBe(expected);
  });

  it("formats usage with and without cached input", () => {
    expect(formatTokens({ inputTokens: 12_300, outputTokens: 4_500, cachedInputTokens: 0 })).toBe(
      "12.3k in / 4.5k out",
    );
    expect(formatTokens(fixtures.results.success.tokenUsage)).toBe("123.5k in (80k cached) / 4.5k out");
    expect(formatTokens(undefined)).toBeUndefined();
    const minimal: TaskResult = fixtures.results.minimalSuccess;
    expect(formatTokens(minimal.tokenUsage)).toBeUndefined();
  });
});

describe("ticketLink", () => {
  it("links the external URL with #id and title", () => {
    expect(ticketLink(fixtures.tickets.basic)).toEqual({
      url: "https://codehost.example.com/acme/webapp/issues/123",
      label: "#123 Login button does nothing on Safari",
    });
  });

  it("falls back to the repository URL, then to no URL", () => {
    expect(ticketLink({ ...fixtures.tickets.basic, externalUrl: "" }).url).toBe(
      "https://codehost.example.com/acme/webapp",
    );
    expect(ticketLink({ ...fixtures.tickets.basic, externalUrl: "", repoUrl: "" }).url).toBeUndefined();
  });

  it("keeps a non-numeric id as it is and copes with missing parts", () => {
    expect(ticketLink({ id: "PROJ-7", title: "Add export" }).label).toBe("PROJ-7 Add export");
    expect(ticketLink(fixtures.tickets.minimal)).toEqual({ url: undefined, label: "#1" });
    expect(ticketLink({ id: "", title: "" }).label).toBe("(untitled ticket)");
    expect(ticketLink({ id: "", title: "Only a title" }).label).toBe("Only a title");
  });

  it("flattens whitespace and cuts a long title between graphemes", () => {
    const link = ticketLink(fixtures.tickets.longText, { maxLabelLength: 100 });
    expect(link.label.length).toBeLessThanOrEqual(100);
    expect(link.label.startsWith("#999 Very long title lorem ipsum")).toBe(true);
    expect(link.label.endsWith("…")).toBe(true);
    expect(ticketLink({ id: "5", title: "two\n\nlines\there" }).label).toBe("#5 two lines here");
    const unicode = ticketLink(fixtures.tickets.unicode, { maxLabelLength: 20 }).label;
    expect(unicode.isWellFormed()).toBe(true);
    expect(unicode.length).toBeLessThanOrEqual(20);
  });
});
