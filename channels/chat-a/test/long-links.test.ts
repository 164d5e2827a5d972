import { fixtures } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type Block,
  type ChatAMessage,
  escapeMrkdwn,
  renderComplete,
  renderNotify,
  renderStart,
} from "../src/index.js";
import { cutMrkdwn, section } from "../src/render/blocks.js";
import { shortUrlLabel } from "../src/render/escape.js";
import { type FakeSlack, startFakeSlack } from "./fake-slack.js";
import { loadChatA } from "./helpers.js";
import { validateBlocks } from "./validate-blocks.js";

const PR_BASE = "https://codehost.example.com/acme/webapp/pull/456?";
const PR_LEAD = ":link: Pull request: ";

/** A pull request URL of exactly `length` characters, its query full of `&` and parentheses. */
function prUrl(length: number): string {
  const query = "q=(a)&b=1".repeat(Math.ceil(length / 9));
  return PR_BASE + query.slice(0, length - PR_BASE.length);
}

/** Every mrkdwn text of a message: section texts, fields, context elements. */
function texts(message: ChatAMessage): string[] {
  const out: string[] = [];
  const each = (block: Block) => {
    if (block.type === "section" && block.text) out.push(block.text.text);
    if (block.type === "section" && block.fields) out.push(...block.fields.map((f) => f.text));
    if (block.type === "context") out.push(...block.elements.map((e) => e.text));
  };
  message.blocks.forEach(each);
  return out;
}

/**
 * What is malformed in escaped mrkdwn: an `&` that does not start a whole
 * `&amp;`, `&lt;` or `&gt;`, a `<` without its `>`, a `<` inside a link, or a
 * `>` outside one that is not a line-start quote marker.
 */
function malformed(mrkdwn: string): string[] {
  const problems: string[] = [];
  let open = -1;
  for (let i = 0; i < mrkdwn.length; i++) {
    const c = mrkdwn[i];
    if (c === "&" && !/^&(?:amp|lt|gt);/.test(mrkdwn.slice(i, i + 5)))
      problems.push(`partial entity at ${i}: ${JSON.stringify(mrkdwn.slice(i - 10, i + 10))}`);
    if (c === "<") {
      if (open >= 0) problems.push(`"<" at ${i} inside the link opened at ${open}`);
      open = i;
    }
    if (c === ">") {
      if (open >= 0) open = -1;
      else if (i > 0 && mrkdwn[i - 1] !== "\n") problems.push(`stray ">" at ${i}`);
    }
  }
  if (open >= 0) problems.push(`unclosed link at ${open}: ${JSON.stringify(mrkdwn.slice(open, open + 40))}…`);
  return problems;
}

/** The `<url|label>` links of some mrkdwn. */
function links(mrkdwn: string): { url: string; label: string }[] {
  return [...mrkdwn.matchAll(/<([^|>]*)\|([^>]*)>/g)].map((m) => ({ url: m[1]!, label: m[2]! }));
}

/** A ticket whose link, 2,000-character URL with 150 `&` and a label with `&`, `<` and parentheses, nearly fills a section. */
function longTicket() {
  return {
    ...fixtures.tickets.basic,
    title: "Fix <b> & (more) ".repeat(20),
    externalUrl: `https://tracker.example.com/browse/PROJ-7?${"k=(12345)&z=1".repeat(160)}`.slice(0, 2000),
  };
}

/** A pull request URL of exactly `length` characters, every other one an `&`: the worst case for escaping. */
function ampUrl(length: number): string {
  return PR_BASE + "a&".repeat(length).slice(0, length - PR_BASE.length);
}

/** The pull request's line of a sound message. */
function prLine(message: ChatAMessage): string {
  expectSound(message);
  const line = texts(message)
    .flatMap((t) => t.split("\n"))
    .find((l) => l.startsWith(PR_LEAD));
  expect(line).toBeDefined();
  return line!;
}

function expectSound(message: ChatAMessage): void {
  expect(validateBlocks(message.blocks)).toEqual([]);
  for (const text of [message.text, ...texts(message)]) expect(malformed(text), text.slice(0, 200)).toEqual([]);
}

// The longest URL of this shape whose link, with the URL itself as label, still fits the pull request's line.
const longestWhole = (() => {
  let n = PR_BASE.length + 1;
  while (`${PR_LEAD}<${escapeMrkdwn(prUrl(n + 1))}|${escapeMrkdwn(prUrl(n + 1))}>`.length <= 3000) n++;
  return n;
})();

describe("long pull request links (chat_a)", () => {
  it("links every URL up to 2,000 characters whole; the label is the URL while the link fits its line, else host and path", () => {
    expect(longestWhole).toBeGreaterThan(1000);
    const lengths = [100, 1000, longestWhole - 1, longestWhole, longestWhole + 1, 1849, 1999, 2000];
    for (const length of lengths) {
      const url = prUrl(length);
      expect(url).toHaveLength(length);
      const line = prLine(renderComplete(fixtures.tickets.basic, { ...fixtures.results.success, pullRequestUrl: url }));
      expect(links(line), `length ${length}`).toEqual([
        {
          url: escapeMrkdwn(url),
          label: length <= longestWhole ? escapeMrkdwn(url) : "codehost.example.com/acme/webapp/pull/456?…",
        },
      ]);
    }
  });

  it("the audit's case: a 1,849-character URL full of & is never cut inside &amp;; too long once escaped, it shows as code with a note", () => {
    const url = ampUrl(1849);
    const message = renderComplete(fixtures.tickets.basic, { ...fixtures.results.success, pullRequestUrl: url });
    expect(prLine(message)).toBe(
      `${PR_LEAD}\`codehost.example.com/acme/webapp/pull/456?…\` _(not linked: the URL is too long for a link)_`,
    );
    expect(
      texts(message)
        .flatMap(links)
        .map((l) => l.url),
    ).toEqual([fixtures.tickets.basic.externalUrl]);
    expect(message.text).toBe("Completed: #123 Login button does nothing on Safari (pull request: see the message)");
    // The longest such URL that still fits as a link gets it, with the short label.
    let n = 600;
    const withShortLabel = (length: number) =>
      prLine(
        renderComplete(fixtures.tickets.basic, { ...fixtures.results.success, pullRequestUrl: ampUrl(length) }),
      ).endsWith("|codehost.example.com/acme/webapp/pull/456?…>");
    expect(withShortLabel(n)).toBe(true);
    while (withShortLabel(n + 1)) n++;
    expect(n).toBeGreaterThan(900);
    const longest = ampUrl(n);
    expect(
      `${PR_LEAD}<${escapeMrkdwn(longest)}|codehost.example.com/acme/webapp/pull/456?…>`.length,
    ).toBeLessThanOrEqual(3000);
    expect(
      links(prLine(renderComplete(fixtures.tickets.basic, { ...fixtures.results.success, pullRequestUrl: longest }))),
    ).toEqual([{ url: escapeMrkdwn(longest), label: "codehost.example.com/acme/webapp/pull/456?…" }]);
  });

  it("shows a URL longer than a link may be as code with a note, never as a link to a cut URL", () => {
    for (const length of [2001, 2500, 20_000]) {
      const url = prUrl(length);
      const message = renderComplete(fixtures.tickets.basic, { ...fixtures.results.success, pullRequestUrl: url });
      expect(prLine(message)).toBe(
        `${PR_LEAD}\`codehost.example.com/acme/webapp/pull/456?…\` _(not linked: the URL is too long for a link)_`,
      );
      expect(
        texts(message)
          .flatMap(links)
          .map((l) => l.url),
      ).toEqual([fixtures.tickets.basic.externalUrl]);
      expect(message.text).toBe("Completed: #123 Login button does nothing on Safari (pull request: see the message)");
    }
  });

  it("escapes & in a linked URL too, as the platform decodes entities in links", () => {
    const url = "https://codehost.example.com/acme/webapp/pull/456?a=1&b=&lt;";
    expect(
      links(prLine(renderComplete(fixtures.tickets.basic, { ...fixtures.results.success, pullRequestUrl: url }))),
    ).toEqual([
      {
        url: "https://codehost.example.com/acme/webapp/pull/456?a=1&amp;b=&amp;lt;",
        label: "https://codehost.example.com/acme/webapp/pull/456?a=1&amp;b=&amp;lt;",
      },
    ]);
  });

  it("keeps the fallback text free of cut URLs: a URL that does not fit it whole is left to the message", () => {
    const short = renderComplete(fixtures.tickets.basic, fixtures.results.success);
    expect(short.text).toBe(
      `Completed: #123 Login button does nothing on Safari (pull request: ${fixtures.results.success.pullRequestUrl})`,
    );
    const long = renderComplete(fixtures.tickets.basic, { ...fixtures.results.success, pullRequestUrl: prUrl(990) });
    expect(long.text).toBe("Completed: #123 Login button does nothing on Safari (pull request: see the message)");
    expect(long.text.length).toBeLessThanOrEqual(1000);
  });

  it("puts the pull request in a section of its own when it does not fit next to a long ticket link", () => {
    const ticket = longTicket();
    const url = prUrl(2000);
    const message = renderComplete(ticket, { ...fixtures.results.success, pullRequestUrl: url });
    expectSound(message);
    const sections = message.blocks
      .filter((b) => b.type === "section" && b.text)
      .map((b) => (b as { text: { text: string } }).text.text);
    expect(links(sections[0]!).map((l) => l.url)).toEqual([escapeMrkdwn(ticket.externalUrl)]);
    expect(links(sections[1]!)).toEqual([{ url: escapeMrkdwn(url), label: shortUrlLabel(url) }]);
  });
});

describe("long ticket links (chat_a)", () => {
  const ticket = longTicket();

  it("shortens the label, never the URL, when the start line would pass 3000 characters", () => {
    const message = renderStart(ticket, "&<engine>&".repeat(20));
    expectSound(message);
    const text = (message.blocks[0] as { text: { text: string } }).text.text;
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(links(text).map((l) => l.url)).toEqual([escapeMrkdwn(ticket.externalUrl)]);
    expect(links(text)[0]!.label).toMatch(/^#123 Fix &lt;b&gt; &amp; \(more\).*…$/);
    expect(text).toMatch(/, using \*&amp;&lt;engine&gt;.*\*$/);
  });

  it("keeps the link whole in Notify and both NotifyComplete forms", () => {
    for (const message of [
      renderNotify("m", ticket),
      renderComplete(ticket, fixtures.results.failure),
      renderComplete(ticket, { ...fixtures.results.success, pullRequestUrl: prUrl(1849) }),
    ]) {
      expectSound(message);
      expect(
        texts(message)
          .flatMap(links)
          .map((l) => l.url),
      ).toContain(escapeMrkdwn(ticket.externalUrl));
    }
  });
});

describe("the last-resort cut of a section (chat_a)", () => {
  it("never ends inside a link or an entity", () => {
    const link = "<https://x.example/?a=1&amp;b=2|a &amp; b>";
    const cut = cutMrkdwn(`${"x".repeat(2980)}${link}`, 3000);
    expect(cut).toBe(`${"x".repeat(2980)}…`);
    expect(cutMrkdwn("&amp;".repeat(700), 3000)).toBe(`${"&amp;".repeat(599)}…`);
    expect(cutMrkdwn(`${"x".repeat(2996)}&lt;&gt;`, 3000)).toBe(`${"x".repeat(2996)}…`);
    const block = section(`${"y".repeat(1500)}${`<https://x.example/${"p".repeat(1400)}|label>`}${"z".repeat(200)}`);
    expect(block).toEqual({
      type: "section",
      text: {
        type: "mrkdwn",
        text: `${"y".repeat(1500)}<https://x.example/${"p".repeat(1400)}|label>${"z".repeat(73)}…`,
      },
    });
    expect(cutMrkdwn("short <https://x.example|x>", 3000)).toBe("short <https://x.example|x>");
  });
});

describe("long links through the strict fake platform (chat_a)", () => {
  let fake: FakeSlack;
  beforeEach(async () => {
    fake = await startFakeSlack({ intervalMs: 50 });
  });
  afterEach(async () => {
    await fake.close();
  });

  it("every message with a long link is accepted, its markup well-formed", async () => {
    const { channel } = await loadChatA(fake, { min_interval_ms: 50 });
    const ticket = longTicket();
    for (const length of [1849, longestWhole + 1, 2000, 2001]) {
      await channel.notifyComplete(ticket, { ...fixtures.results.success, pullRequestUrl: prUrl(length) });
    }
    await channel.notifyStart(ticket, { engine: "&".repeat(100) });
    await channel.notify("m", ticket);
    expect(fake.requests.map((r) => r.answer.ok)).toEqual([true, true, true, true, true, true]);
    for (const accepted of fake.accepted) expectSound({ text: accepted.text, blocks: accepted.blocks as Block[] });
    await channel.close();
  });
});
