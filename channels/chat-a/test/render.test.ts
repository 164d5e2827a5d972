import { fixtures } from "@errand/channel-sdk/testing";
import { describe, expect, it } from "vitest";
import {
  escapeMrkdwn,
  fitMrkdwn,
  postMessageBody,
  renderComplete,
  renderNotify,
  renderStart,
  safeUrl,
} from "../src/index.js";
import { validateBlocks } from "./validate-blocks.js";

const ctx = { taskRunId: "run-42" };
const snapshot = (message: ReturnType<typeof renderStart>) =>
  `${JSON.stringify(postMessageBody("C0123456789", message), null, 2)}\n`;

describe("rendered payloads (snapshots: the exact chat.postMessage bodies)", () => {
  it("NotifyStart", async () => {
    await expect(snapshot(renderStart(fixtures.tickets.basic, "claude-code", ctx))).toMatchFileSnapshot(
      "__snapshots__/start.json",
    );
  });
  it("NotifyComplete success", async () => {
    await expect(snapshot(renderComplete(fixtures.tickets.basic, fixtures.results.success, ctx))).toMatchFileSnapshot(
      "__snapshots__/complete-success.json",
    );
  });
  it("NotifyComplete failure", async () => {
    await expect(snapshot(renderComplete(fixtures.tickets.basic, fixtures.results.failure, ctx))).toMatchFileSnapshot(
      "__snapshots__/complete-failure.json",
    );
  });
  it("Notify", async () => {
    await expect(
      snapshot(renderNotify("Opened a draft pull request; running the test suite now.", fixtures.tickets.basic, ctx)),
    ).toMatchFileSnapshot("__snapshots__/notify.json");
  });
  it("minimal ticket and result (nothing optional present)", async () => {
    await expect(
      snapshot(renderComplete(fixtures.tickets.minimal, fixtures.results.minimalSuccess)),
    ).toMatchFileSnapshot("__snapshots__/complete-minimal.json");
  });
  it("unicode failure", async () => {
    await expect(snapshot(renderComplete(fixtures.tickets.unicode, fixtures.results.unicode, ctx))).toMatchFileSnapshot(
      "__snapshots__/complete-unicode.json",
    );
  });
});

describe("limits", () => {
  const every = () => {
    const t = fixtures.tickets;
    const r = fixtures.results;
    const out = [];
    for (const ticket of [t.basic, t.unicode, t.longText, t.minimal]) {
      out.push(
        renderStart(ticket, "e".repeat(500)),
        renderNotify(t.longText.description, ticket, { taskRunId: "x".repeat(5000) }),
      );
      for (const result of [r.success, r.failure, r.minimalSuccess, r.longSummary, r.unicode])
        out.push(renderComplete(ticket, result, ctx));
      out.push(
        renderComplete(ticket, { ...r.failure, failureReason: "<&>".repeat(20_000), summary: "&".repeat(30_000) }),
      );
    }
    return out;
  };

  it("every message passes the platform's block validation, however long its input", () => {
    for (const message of every()) {
      expect(validateBlocks(message.blocks)).toEqual([]);
      expect(message.text.length).toBeGreaterThan(0);
      expect(message.text.length).toBeLessThanOrEqual(1000);
    }
  });

  it("cuts long text visibly, with an ellipsis", () => {
    const message = renderNotify("word ".repeat(5000), fixtures.tickets.longText);
    const all = JSON.stringify(message.blocks);
    expect(all).toContain("…");
    expect(message.blocks[0]).toMatchObject({ type: "section" });
  });

  it("never splits an emoji or an escape entity when cutting", () => {
    const cut = fitMrkdwn(`${"👨‍👩‍👧".repeat(100)}&&&`, 50);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut.slice(0, -1)).toBe("👨‍👩‍👧".repeat(cut.slice(0, -1).length / 8));
    const entities = fitMrkdwn("a&b".repeat(100), 20);
    expect(entities).toMatch(/^(a&amp;b)*(a(&amp;)?)?…$/);
  });
});

describe("escaping", () => {
  it("escapes &, < and > so user text cannot mention @channel or forge links", () => {
    expect(escapeMrkdwn("<!channel> & <https://evil|x>")).toBe("&lt;!channel&gt; &amp; &lt;https://evil|x&gt;");
    const message = renderNotify("<!here> ping <@U123>", { ...fixtures.tickets.basic, title: "Fix <b> & *stars*" });
    const text = JSON.stringify(message);
    expect(text).not.toContain("<!here>");
    expect(text).not.toContain("<@U123>");
    expect(text).toContain("Fix &lt;b&gt; &amp; *stars*");
  });

  it("links only http(s) URLs, with link-breaking characters encoded", () => {
    expect(safeUrl("javascript:alert(1)", 100)).toBeUndefined();
    expect(safeUrl("https://x.example/a|b>c", 100)).toBe("https://x.example/a%7Cb%3Ec");
    expect(safeUrl(`https://x.example/${"a".repeat(3000)}`, 2000)).toBeUndefined();
    const message = renderStart({ ...fixtures.tickets.basic, externalUrl: "javascript:alert(1)", repoUrl: "" }, "e");
    expect(JSON.stringify(message)).not.toContain("javascript:");
  });
});
