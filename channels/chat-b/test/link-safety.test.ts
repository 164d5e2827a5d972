import { fixtures } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ChatBMessage, markdownLink, renderComplete, renderNotify, renderStart, safeUrl } from "../src/index.js";
import { cutMarkdown } from "../src/render/escape.js";
import { type FakeDiscord, startFakeDiscord } from "./fake-discord.js";
import { loadChatB } from "./helpers.js";
import { validateMessage } from "./validate-message.js";

describe("links in chat_b markdown", () => {
  it("percent-encodes the parentheses that would end a [label](url) link early", () => {
    expect(safeUrl("https://codehost.example.com/acme/app/pull/5?q=(draft)", 512)).toBe(
      "https://codehost.example.com/acme/app/pull/5?q=%28draft%29",
    );
    expect(markdownLink("https://codehost.example.com/a)b", "PR", 512)).toBe(
      "[PR](https://codehost.example.com/a%29b)",
    );
  });
});

const PR_BASE = "https://codehost.example.com/acme/webapp/pull/456?";
const SHORT = "codehost.example.com/acme/webapp/pull/456?…";

/** A pull request URL of exactly `length` characters, its query full of `&`, `_` and parentheses. */
function prUrl(length: number): string {
  return PR_BASE + "q=(a)&b_1".repeat(Math.ceil(length / 9)).slice(0, length - PR_BASE.length);
}

/** The URL as the channel links it (parentheses percent-encoded). */
const href = (url: string) => safeUrl(url, Number.MAX_SAFE_INTEGER)!;

// What escapeMarkdown puts after a backslash.
const ESCAPED = /[\\*_~`|[\]()<>#\-.\d]/;

/**
 * What is malformed in markdown this channel built: a `[` whose `](url)`
 * never comes, a URL with whitespace, or a backslash that escapes nothing
 * escapeMarkdown escapes (the trace of a cut between the two).
 */
function malformed(markdown: string): string[] {
  const problems: string[] = [];
  const open = -1;
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown[i]!;
    if (c === "\\" && open < 0) {
      if (!ESCAPED.test(markdown[i + 1] ?? ""))
        problems.push(`dangling escape at ${i}: ${JSON.stringify(markdown.slice(i - 10, i + 10))}`);
      i++;
    } else if (c === "\\") {
      i++;
    } else if (c === "[" && open < 0) {
      const end = markdown.slice(i).match(/^\[(?:\\.|[^\\\]])*\]\(\S+?\)/);
      if (!end) problems.push(`unclosed link at ${i}: ${JSON.stringify(markdown.slice(i, i + 40))}…`);
      else i += end[0].length - 1;
    }
  }
  return problems;
}

/** The `[label](url)` links of some markdown. */
function links(markdown: string): { label: string; url: string }[] {
  return [...markdown.matchAll(/(?<!\\)\[((?:\\.|[^\\\]])*)\]\((\S+?)\)/g)].map((m) => ({ label: m[1]!, url: m[2]! }));
}

function expectSound(message: ChatBMessage): void {
  expect(validateMessage(message as unknown as Record<string, unknown>)).toBeUndefined();
  for (const embed of message.embeds) {
    for (const text of [embed.description ?? "", ...(embed.fields ?? []).map((f) => f.value)]) {
      expect(malformed(text), text.slice(0, 200)).toEqual([]);
      // The platform prints a masked link whose label holds a URL with a scheme as literal text (discord/discord-api-docs#7721).
      for (const { label } of links(text)) expect(label, text.slice(0, 200)).not.toMatch(/https?:\/\/[a-z]{2}/i);
    }
  }
}

function prField(message: ChatBMessage): string {
  expectSound(message);
  const field = message.embeds[0]!.fields?.find((f) => f.name === "Pull request");
  expect(field).toBeDefined();
  return field!.value;
}

const complete = (url: string, ticket = fixtures.tickets.basic) =>
  renderComplete(ticket, { ...fixtures.results.success, pullRequestUrl: url });

// The longest URL of this shape whose link fits a field with the whole short label.
const longestShort = (() => {
  let n = PR_BASE.length + 1;
  while (`[${SHORT}](${href(prUrl(n + 1))})`.length <= 1024) n++;
  return n;
})();
// The longest whose link fits a field at all, its label cut further.
const longestLinked = (() => {
  let n = longestShort;
  while (prField(complete(prUrl(n + 1))).startsWith("[")) n++;
  return n;
})();

describe("long pull request links (chat_b)", () => {
  it("the audit's case: a 650-character URL is linked whole with a short label, not left as an unclosed [https://…", () => {
    const url = prUrl(650);
    const message = complete(url);
    expect(prField(message)).toBe(`[${SHORT}](${href(url)})`);
    expect(message.embeds[0]!.url).toBe(href(url));
  });

  it("labels the link with host and path, never the URL itself, and never cuts the URL", () => {
    expect(longestShort).toBeGreaterThan(600);
    expect(longestLinked).toBeGreaterThan(longestShort);
    for (const length of [100, 300, 650, longestShort, longestShort + 1, longestLinked]) {
      const url = prUrl(length);
      expect(url).toHaveLength(length);
      const value = prField(complete(url));
      const label = length <= longestShort ? SHORT : expect.stringMatching(/^codehost\.ex.*…$/);
      expect(links(value), `length ${length}`).toEqual([{ label, url: href(url) }]);
      expect(value.length).toBeLessThanOrEqual(1024);
    }
  });

  it("a URL too long for a link in the field is named in code; the title still links to it", () => {
    for (const length of [longestLinked + 1, 1000, 1400]) {
      const url = prUrl(length);
      if (href(url).length > 2000) continue;
      const message = complete(url);
      expect(prField(message)).toBe(`\`${SHORT}\` (the title links to it: the URL is too long for this field)`);
      expect(message.embeds[0]!.url).toBe(href(url));
    }
  });

  it("a URL longer than a link may be is named in code with a note; the title links to the ticket", () => {
    for (const length of [2001, 5000]) {
      const message = complete(prUrl(length));
      expect(prField(message)).toBe(`\`${SHORT}\` (not linked: the URL is too long for a link)`);
      expect(message.embeds[0]!.url).toBe(fixtures.tickets.basic.externalUrl);
    }
  });
});

describe("long ticket links (chat_b)", () => {
  const ticket = (length: number) => ({
    ...fixtures.tickets.basic,
    title: "Fix *this* [now] (really) ".repeat(8),
    externalUrl: `https://tracker.example.com/browse/PROJ-7?${"k=(1)&z_2".repeat(300)}`.slice(0, length),
  });

  it("shortens the ticket label, never the URL, so the Ticket field stays a whole link", () => {
    const t = ticket(500);
    expect(href(t.externalUrl).length).toBeLessThan(1000);
    const value = complete(prUrl(100), t).embeds[0]!.fields!.find((f) => f.name === "Ticket")!.value;
    expectSound(complete(prUrl(100), t));
    expect(links(value)).toHaveLength(1);
    expect(links(value)[0]!.url).toBe(href(t.externalUrl));
    expect(links(value)[0]!.label).toMatch(/^\\#123 Fix \\\*this\\\* \\\[now\\\] \\\(really\\\).*…$/);
  });

  it("shows the label alone when even the URL does not fit the field; Start and Notify keep the link", () => {
    const t = ticket(1000);
    expect(href(t.externalUrl).length).toBeGreaterThan(1024);
    expect(href(t.externalUrl).length).toBeLessThanOrEqual(2000);
    const failed = renderComplete(t, fixtures.results.failure);
    expectSound(failed);
    expect(failed.embeds[0]!.fields!.find((f) => f.name === "Ticket")!.value).toMatch(/^\\#123 Fix \\\*this\\\*/);
    expect(failed.embeds[0]!.url).toBe(href(t.externalUrl));
    const start = renderStart(t, "*".repeat(200));
    expectSound(start);
    expect(links(start.embeds[0]!.description!).map((l) => l.url)).toEqual([href(t.externalUrl)]);
    expectSound(renderNotify("m", t));
  });
});

describe("the last-resort cut (chat_b)", () => {
  it("never ends inside a link or between a backslash and what it escapes", () => {
    const link = `[a \\] b](https://x.example/${"p".repeat(40)})`;
    expect(cutMarkdown(`${"x".repeat(990)}${link}`, 1024)).toBe(`${"x".repeat(990)}…`);
    expect(cutMarkdown(`${"x".repeat(1022)}\\*\\*`, 1024)).toBe(`${"x".repeat(1022)}…`);
    expect(cutMarkdown(`${"x".repeat(900)}${link}${"y".repeat(200)}`, 1024)).toBe(
      `${"x".repeat(900)}${link}${"y".repeat(1024 - 1 - 900 - link.length)}…`,
    );
    expect(cutMarkdown("short [x](https://x.example)", 1024)).toBe("short [x](https://x.example)");
  });
});

describe("long links through the strict fake webhook (chat_b)", () => {
  let fake: FakeDiscord;
  beforeEach(async () => {
    fake = await startFakeDiscord({ limit: 100 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it("every message with a long link is accepted, its markup well-formed", async () => {
    const { channel } = await loadChatB(fake);
    const t = { ...fixtures.tickets.basic, externalUrl: `https://tracker.example.com/?${"q=(x)&".repeat(200)}` };
    for (const length of [300, 650, longestShort + 1, 2001])
      await channel.notifyComplete(t, { ...fixtures.results.success, pullRequestUrl: prUrl(length) });
    await channel.notifyStart(t, { engine: "_".repeat(100) });
    await channel.notify("m", t);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const accepted of fake.accepted) expectSound(accepted.body as unknown as ChatBMessage);
    await channel.close();
  });
});
