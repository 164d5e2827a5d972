#!/usr/bin/env node
// The demo agent: a `command` engine (docs/engines.md, "The command-engine contract") that
// pretends to resolve the ticket. It reads $ERRAND_TICKET_FILE, reports progress on stdout
// with `::progress::`, `::cost::` and `::usage::` lines a few hundred milliseconds apart, and
// writes a plausible result to $ERRAND_RESULT_FILE: a pull request link made from the ticket's
// repository, a cost and token counts. It calls no model and changes nothing anywhere.
// In a checkout the controller prepared (`repositories.codehost_a`), it commits instead: a note
// in ERRAND-DEMO.md for the ticket, or for each review comment of a follow-up, and leaves the
// push and the pull request to the controller.
// DEMO_AGENT_DELAY_MS sets the pause between steps (default 400).
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

const delay = Number(process.env.DEMO_AGENT_DELAY_MS ?? 400);
const { ERRAND_TICKET_FILE: ticketFile, ERRAND_RESULT_FILE: resultFile, ERRAND_PROMPT_FILE: promptFile } = process.env;
if (!ticketFile || !resultFile) {
  console.error(
    "demo agent: ERRAND_TICKET_FILE and ERRAND_RESULT_FILE must be set; run it as a command engine (see docs/engines.md)",
  );
  process.exit(2);
}

const ticket = JSON.parse(readFileSync(ticketFile, "utf8"));
const prompt = promptFile ? readFileSync(promptFile, "utf8") : "";
const repo = String(ticket.repo_url ?? "")
  .replace(/\/+$/, "")
  .replace(/\.git$/, "");
const title = String(ticket.title ?? "").trim() || `ticket ${ticket.id}`;

// Tokens and cost grow as the "agent" works, priced like a mid-size model ($3 in, $15 out per million).
const input = 9_000 + Math.ceil(prompt.length / 4);
let spent = { input: 0, output: 0, cached: 0 };
const step = async (text, share) => {
  await sleep(delay);
  spent = { input: Math.round(input * share), output: Math.round(1_600 * share), cached: Math.round(6_000 * share) };
  console.log(`::progress:: ${text}`);
  console.log(`::usage:: ${spent.input} ${spent.output} ${spent.cached}`);
  console.log(`::cost:: ${cost().toFixed(4)}`);
};
const cost = () => (spent.input * 3 + spent.output * 15) / 1_000_000;

if (repo === "") {
  await step("reading the ticket", 0.2);
  writeFileSync(
    resultFile,
    JSON.stringify(
      {
        success: false,
        summary: "",
        failure_reason: "the ticket names no repository (repo_url is empty), so there is nothing to change",
        cost_usd: cost(),
        token_usage: tokens(),
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

if (inCheckout()) await commitInCheckout();

await step(`cloning ${repo}`, 0.2);
await step("reading the code around the problem", 0.45);
await step(`making the change: ${title}`, 0.75);
await step("running the tests (all green)", 0.9);
await step("opening a pull request", 1);
// Opening it takes a moment too: the last step is not the end.
await sleep(delay);

const number = 100 + ([...String(ticket.id)].reduce((sum, c) => sum * 31 + c.charCodeAt(0), 7) % 900);
writeFileSync(
  resultFile,
  JSON.stringify(
    {
      success: true,
      summary: `Resolved "${title}": changed the code the ticket points at, added a test, and opened a pull request. (Demo agent: nothing was really changed.)`,
      pull_request_url: `${repo}/pull/${number}`,
      failure_reason: "",
      cost_usd: Number(cost().toFixed(4)),
      token_usage: tokens(),
    },
    null,
    2,
  ),
);

function tokens() {
  return { input_tokens: spent.input, output_tokens: spent.output, cached_input_tokens: spent.cached };
}

/** A checkout the controller prepared: a .git of the workspace's own (never a repository the workspace is inside). */
function inCheckout() {
  return existsSync(".git");
}

/** The review comments of a follow-up's prompt (its "- author on path line N: text" lines), or none. */
function reviewComments() {
  const section = prompt.split("\nReview comments:\n")[1];
  if (section === undefined) return [];
  return section
    .split("\n\n")[0]
    .split("\n")
    .filter((line) => line.startsWith("- "))
    .map((line) => line.slice(2));
}

/** Commits a note for the ticket (or for each review comment), reports the commit, and exits with the result. */
async function commitInCheckout() {
  const comments = reviewComments();
  const git = (...args) => execFileSync("git", args, { encoding: "utf8", stdio: "pipe" }).trim();
  const branch = git("rev-parse", "--abbrev-ref", "HEAD");
  await step(
    comments.length === 0 ? "reading the code around the problem" : `reading the review: ${comments.join("; ")}`,
    0.3,
  );
  const message =
    comments.length === 0 ? title : `Address the review: ${comments[0].replace(/^.*?: /, "").replace(/^@\S+\s*/, "")}`;
  await step(`making the change: ${message}`, 0.6);
  const lines =
    comments.length === 0
      ? [`## ${ticket.id}: ${title}`, "", "The demo agent's change."]
      : comments.map((c) => `- addressed: ${c}`);
  appendFileSync("ERRAND-DEMO.md", `${existsSync("ERRAND-DEMO.md") ? "\n" : ""}${lines.join("\n")}\n`);
  git("add", "ERRAND-DEMO.md");
  git("commit", "--quiet", "--message", message);
  await step("running the tests (all green)", 0.8);
  await step(`committed ${git("rev-parse", "--short", "HEAD")} on ${branch}: ${message}`, 1);
  const summary = `${comments.length === 0 ? `Resolved "${title}"` : `Addressed ${comments.length} review comment(s)`}: one commit on ${branch}. (Demo agent: a note in ERRAND-DEMO.md, no real fix.)`;
  writeFileSync(
    resultFile,
    JSON.stringify(
      {
        success: true,
        summary,
        pull_request_url: "",
        failure_reason: "",
        cost_usd: Number(cost().toFixed(4)),
        token_usage: tokens(),
      },
      null,
      2,
    ),
  );
  process.exit(0);
}
