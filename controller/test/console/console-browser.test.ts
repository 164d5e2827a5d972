import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_STATES } from "../../src/runs/task-run.js";
import { type ErrandProcess, startErrand } from "./helpers/errand-process.js";

// The console in Debian's chromium, driven by playwright-core, against a real `errand run`. Without chromium these
// tests skip, unless ERRAND_REQUIRE_CHROMIUM=1 (CI) makes its absence a failure.
const CHROMIUM = "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
const required = process.env.ERRAND_REQUIRE_CHROMIUM === "1";
const TOKEN = "browser-test-operator-token-7d1e";
// The page functions below run in the browser; the tests' TypeScript has no DOM types, so these name what they use.
declare const document: {
  querySelectorAll(selector: string): { length: number };
  querySelector(selector: string): { textContent: string | null } | null;
};
declare const window: Record<string, unknown>;

const XSS_TITLE = `<script>window.__xss=1</script><img src=x onerror="window.__xss=2">`;

describe("the console in a real browser", () => {
  it.runIf(required && !available)("has chromium to run in", () => {
    throw new Error(`${CHROMIUM} is missing and ERRAND_REQUIRE_CHROMIUM=1: apt-get install chromium`);
  });

  describe.runIf(available)("against errand run", () => {
    let errand: ErrandProcess;
    let browser: Browser;
    beforeAll(async () => {
      [errand, browser] = await Promise.all([
        startErrand({ token: TOKEN }),
        chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] }),
      ]);
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await errand?.stop();
    }, 30_000);

    const fresh = async (): Promise<{ context: BrowserContext; page: Page }> => {
      const context = await browser.newContext();
      return { context, page: await context.newPage() };
    };

    it("lists the runs and filters them by state, source and repository", async () => {
      const { context, page } = await fresh();
      await errand.postTicket({ id: "L1", title: "list one" });
      await errand.postTicket({ id: "L2", title: "list two", repo_url: "https://codehost.example/acme/other" });
      await untilState(page, `${errand.base}/console/runs`, "list one", "Succeeded");
      await untilState(page, `${errand.base}/console/runs`, "list two", "Succeeded");
      await page.selectOption("select[name=state]", "Succeeded");
      await page.fill("input[name=repo]", "https://codehost.example/acme/other");
      await page.click("form.filters button");
      await page.waitForURL(/state=Succeeded/);
      expect(await titles(page)).toEqual(["list two"]);
      await page.fill("input[name=source]", "generic");
      await page.click("form.filters button");
      await page.waitForURL(/source=generic/);
      expect(await titles(page)).toEqual(["list two"]);
      await page.fill("input[name=source]", "tracker_a");
      await page.click("form.filters button");
      await page.waitForURL(/source=tracker_a/);
      expect(await titles(page)).toEqual([]);
      await context.close();
    }, 60_000);

    it("follows a running agent's log live, then cancels the run with the token", async () => {
      const { context, page } = await fresh();
      await errand.postTicket({ id: "LIVE", title: "hold: live tail" });
      const url = await runUrl(page, errand.base, "hold: live tail");
      await page.goto(url);
      await page.evaluate(() => {
        window.marker = 1;
      });
      await page.waitForFunction(() => document.querySelectorAll("#log li .label").length >= 3);
      const before = await page.locator("#log li").count();
      await page.waitForFunction((n) => document.querySelectorAll("#log li").length >= n + 5, before);
      // The page grew in place (Server-Sent Events), not by a reload.
      expect(await page.evaluate(() => window.marker)).toBe(1);
      expect(await page.locator("#log li .label").first().textContent()).toBe("assistant");
      expect(await page.locator("#log").textContent()).not.toContain('{"type"');

      await page.click(`main a[href^="/console/login?next="]`);
      await page.fill("input[name=token]", TOKEN);
      await page.click("form button");
      await page.waitForURL(url);
      await page.click("button[value=cancel]");
      await page.waitForFunction(() => document.querySelector("dl .state")?.textContent === "Cancelled", undefined, {
        timeout: 20_000,
      });
      expect(await page.locator("table.timeline").textContent()).toContain(
        "cancelled from the console by operator (127.0.0.1)",
      );
      await context.close();
    }, 60_000);

    it("refuses a cancel without the token, and a cross-site POST with the operator's cookie", async () => {
      const anonymous = await fresh();
      await errand.postTicket({ id: "KEEP", title: "hold: not yours to cancel" });
      const url = await runUrl(anonymous.page, errand.base, "hold: not yours to cancel");
      await anonymous.page.goto(url);
      expect(await anonymous.page.locator("button[value=cancel]").count()).toBe(0);
      const status = await anonymous.page.evaluate(
        (u) => fetch(`${u}/cancel`, { method: "POST", body: new URLSearchParams({ csrf: "x" }) }).then((r) => r.status),
        url,
      );
      expect(status).toBe(401);
      await anonymous.context.close();

      const operator = await fresh();
      await login(operator.page, errand.base);
      const evil = await evilSite(`${url}/cancel`);
      try {
        await operator.page.goto(evil.url);
        await operator.page.waitForURL(`${url}/cancel`);
        expect(await operator.page.textContent("main")).toContain("console_cross_site");
      } finally {
        evil.server.close();
      }
      await operator.page.goto(url);
      expect(await operator.page.locator("dl .state").textContent()).toBe("Running");
      await operator.page.click("button[value=cancel]");
      await operator.context.close();
    }, 60_000);

    it("shows a ticket titled with markup as text, in the list and on the run's page", async () => {
      const { context, page } = await fresh();
      const dialogs: string[] = [];
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await errand.postTicket({ id: "XSS", title: XSS_TITLE, description: `<img src=x onerror="window.__xss=3">` });
      const url = await runUrl(page, errand.base, XSS_TITLE);
      expect(await page.locator("td.title", { hasText: "<script>" }).textContent()).toBe(XSS_TITLE);
      await page.goto(url);
      expect(await page.textContent("h1")).toBe(XSS_TITLE);
      expect(await page.textContent("pre.ticket-body")).toBe(`<img src=x onerror="window.__xss=3">`);
      expect(await page.locator("img").count()).toBe(0);
      expect(await page.evaluate(() => window.__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);
      await context.close();
    }, 60_000);

    // Runs only once the run model has the AwaitingApproval state and the controller wires the approvals flow
    // (guardrails.require_approval): then the same steps approve a waiting run from the console.
    it.runIf((RUN_STATES as readonly string[]).includes("AwaitingApproval"))(
      "approves a waiting run from the console",
      async () => {
        const approving = await startErrand({
          token: TOKEN,
          guardrails: "  require_approval: { always: true }\n  approvers: [operator]",
        });
        const { context, page } = await fresh();
        try {
          await approving.postTicket({ id: "ASK", title: "please approve" });
          const url = await runUrl(page, approving.base, "please approve");
          await untilState(page, url, undefined, "AwaitingApproval");
          await login(page, approving.base, url);
          await page.click("button[value=approve]");
          await page.waitForFunction(
            () => ["Running", "Succeeded"].includes(document.querySelector("dl .state")?.textContent ?? ""),
            undefined,
            { timeout: 20_000 },
          );
          expect(await page.locator("table.timeline").textContent()).toContain("operator");
        } finally {
          await context.close();
          await approving.stop();
        }
      },
      60_000,
    );
  });
});

/** The titles in the runs table. */
async function titles(page: Page): Promise<string[]> {
  return page.locator("td.title").allTextContents();
}

/** Reloads `url` until the run titled `title` (or the run of a run page) shows `state`. */
async function untilState(page: Page, url: string, title: string | undefined, state: string): Promise<void> {
  const end = Date.now() + 20_000;
  for (;;) {
    await page.goto(url);
    const shown =
      title === undefined
        ? await page.locator("dl .state").textContent()
        : await page
            .locator("tr", { has: page.locator("td.title", { hasText: title }) })
            .locator(".state")
            .textContent({ timeout: 1000 })
            .catch(() => null);
    if (shown === state) return;
    if (Date.now() > end) throw new Error(`${title ?? url} did not reach ${state} (it shows ${shown})`);
    await page.waitForTimeout(200);
  }
}

/** The page of the (newest) run titled `title`, once it is listed. */
async function runUrl(page: Page, base: string, title: string): Promise<string> {
  const end = Date.now() + 20_000;
  for (;;) {
    await page.goto(`${base}/console/runs`);
    const row = page.locator("tr", { has: page.locator("td.title", { hasText: title }) }).first();
    if ((await row.count()) > 0) return `${base}${await row.locator("a").first().getAttribute("href")}`;
    if (Date.now() > end) throw new Error(`no run titled ${title} was listed`);
    await page.waitForTimeout(200);
  }
}

/** Logs in through the console's form and comes back to `next`. */
async function login(page: Page, base: string, next = `${base}/console/runs`): Promise<void> {
  await page.goto(`${base}/console/login?next=${encodeURIComponent(new URL(next).pathname)}`);
  await page.fill("input[name=token]", TOKEN);
  await page.click("form button");
  await page.waitForURL(next);
}

/** A page on another origin (another port of 127.0.0.1) whose form posts to `target` as soon as it loads. */
async function evilSite(target: string): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<form method="post" action="${target}"><input name="csrf" value="stolen"></form>
<script>document.forms[0].submit()</script>`);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}
