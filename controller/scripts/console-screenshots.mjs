// Takes the console's screenshots for the docs (docs/images/console-*.png) and prints its page weight.
// Runs a real `errand run` (the built bin) in a temporary folder with a slow command engine, sends it a few
// tickets, and opens the pages in Debian's chromium through playwright-core.
//   npm run screenshots -w controller      (after npm run build -w controller; needs /usr/bin/chromium)
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";

const here = import.meta.dirname;
const BIN = resolve(here, "../bin/errand.cjs");
const ENGINE = resolve(here, "../test/fixtures/console/ticking.sh");
const OUT = resolve(here, "../../docs/images");
const TOKEN = "screenshot-operator-token";

/** Starts `errand run` with `guardrails` lines added; resolves with its ports, or undefined when it refused the file. */
async function startErrand(dir, guardrails = "") {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "errand.yaml");
  writeFileSync(
    file,
    `webhook: { host: 127.0.0.1, port: 0, generic: { auth_mode: none } }
engines:
  default: agent
  agent: { kind: command, command: [${JSON.stringify(ENGINE)}], env: { TICKS: "15" } }
guardrails:
  max_concurrent_jobs: 3
${guardrails}
store: { path: ${join(dir, "errand.db")} }
execution: { local: { workspace_dir: ${join(dir, "ws")}, log_dir: ${join(dir, "logs")}, kill_grace_ms: 500 } }
ops: { host: 127.0.0.1, port: 0, shutdown_grace_seconds: 2 }
console: { token_secret: console-token }
`,
  );
  const child = spawn(process.execPath, [BIN, "run", "--config", file], {
    env: { ...process.env, ERRAND_SECRET_CONSOLE_TOKEN: TOKEN },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((done) => {
    const ports = {};
    let partial = "";
    const read = (chunk) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines.filter((l) => l.startsWith("{"))) {
        const entry = JSON.parse(line);
        if (entry["@message"] === "webhook server listening") ports.webhook = entry.port;
        if (entry["@message"] === "controller started") ports.ops = entry.ops.port;
      }
      if (ports.webhook && ports.ops) done({ child, ...ports });
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", () => done(undefined));
  });
}

async function post(errand, id, title, extra = {}) {
  await fetch(`http://127.0.0.1:${errand.webhook}/webhooks/generic`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id,
      title,
      description: "Steps to reproduce are in the issue.",
      repo_url: "https://codehost.example/acme/shop",
      ...extra,
    }),
  });
}

async function stop(errand) {
  if (!errand || errand.child.exitCode !== null) return;
  await new Promise((done) => {
    errand.child.once("exit", done);
    errand.child.kill("SIGTERM");
  });
}

/** Bytes of a page and the assets it loads (the console's own CSS and JS), as served. */
async function weight(base, path) {
  const size = async (p) => (await (await fetch(`${base}${p}`)).arrayBuffer()).byteLength;
  const [html, css, js] = await Promise.all([
    size(path),
    size("/console/assets/console.css"),
    size("/console/assets/console.js"),
  ]);
  return { html, css, js, total: html + css + js };
}

const dir = mkdtempSync(join(tmpdir(), "errand-screenshots-"));
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
let errand;
let approving;
try {
  mkdirSync(OUT, { recursive: true });
  errand = await startErrand(join(dir, "a"));
  if (!errand) throw new Error("errand run did not start");
  const base = `http://127.0.0.1:${errand.ops}`;
  await post(errand, "101", "Checkout total ignores the discount code");
  await post(errand, "102", "Typo on the pricing page", { repo_url: "https://codehost.example/acme/site" });
  await post(errand, "103", "Flaky test in cart_spec", {});
  await new Promise((r) => setTimeout(r, 4500));
  await post(errand, "104", "Add a CSV export of orders");
  await new Promise((r) => setTimeout(r, 1500));
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  await page.goto(`${base}/console/runs`);
  await page.screenshot({ path: join(OUT, "console-runs.png") });
  const href = await page.locator("tr", { hasText: "CSV export" }).locator("a").first().getAttribute("href");
  await page.goto(`${base}/console/login?next=${encodeURIComponent(href)}`);
  await page.fill("input[name=token]", TOKEN);
  await page.click("form button");
  await page.waitForURL(`${base}${href}`);
  await page.waitForFunction(() => document.querySelectorAll("#log li").length >= 8);
  await page.screenshot({ path: join(OUT, "console-run.png"), fullPage: true });
  console.log("list page:", await weight(base, "/console/runs"));
  console.log("run page:", await weight(base, href));

  // A run waiting for an approval, seen by an operator who may decide it (the token's label is an approver).
  approving = await startErrand(join(dir, "b"), "  require_approval: { always: true }\n  approvers: [operator]");
  if (approving === undefined) throw new Error("errand run refused the configuration with require_approval");
  const b = `http://127.0.0.1:${approving.ops}`;
  await post(approving, "201", "Bump the payment SDK to 5.x");
  await new Promise((r) => setTimeout(r, 1500));
  await page.goto(`${b}/console/runs`);
  const run = await page.locator("tr", { hasText: "payment SDK" }).locator("a").first().getAttribute("href");
  await page.goto(`${b}/console/login?next=${encodeURIComponent(run)}`);
  await page.fill("input[name=token]", TOKEN);
  await page.click("form button");
  await page.waitForURL(`${b}${run}`);
  await page.waitForSelector("button[value=approve]");
  await page.screenshot({ path: join(OUT, "console-approval.png") });
  console.log(`screenshots in ${OUT}`);
} finally {
  await browser.close();
  await Promise.all([stop(errand), stop(approving)]);
  rmSync(dir, { recursive: true, force: true });
}
