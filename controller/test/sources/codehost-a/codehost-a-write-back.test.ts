import type { Ticket } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { CodehostAError } from "../../../src/vendors/codehost-a/codehost-a-error.js";
import { adapterFor, FAILURE, fake, runOf, SUCCESS } from "./setup.js";

async function pickedUpIssue(keys: Record<string, unknown> = {}) {
  const f = await fake();
  const issue = f.repo.add({ labels: ["agent"] });
  const t = adapterFor(f, keys);
  const [candidate] = await t.adapter.poll(t.ctx);
  const ticket = candidate?.ticket as Ticket;
  const run = runOf(issue.number);
  await t.adapter.pickedUp(ticket, run, t.ctx);
  return { f, issue, ticket, run, ...t };
}

describe("code host A adapter: write-back (spec 3)", () => {
  it("adds the in-progress label on pick-up, once however often it is called", async () => {
    const { f, issue, ticket, run, adapter, ctx } = await pickedUpIssue();
    await adapter.pickedUp(ticket, run, ctx);
    expect(f.repo.changesOf(issue.number)).toEqual(["+agent-in-progress"]);
    expect(f.repo.issues.get(issue.number)?.labels).toEqual(["agent", "agent-in-progress"]);
  });

  it("on success comments with the pull request link, then removes the in-progress label; a second call changes nothing", async () => {
    const { f, issue, ticket, run, adapter, ctx } = await pickedUpIssue();
    await adapter.finished(ticket, run, SUCCESS, ctx);
    await adapter.finished(ticket, run, SUCCESS, ctx);
    const changes = f.repo.changesOf(issue.number);
    expect(changes).toEqual([
      "+agent-in-progress",
      `comment: The agent opened a pull request: https://codehost-a.test/acme/shop/pull/77\n\nFixed the flaky test.\n\n<sub>errand run ${run.id}</sub>\n\n<!-- errand:run ${run.id} -->`,
      "-agent-in-progress",
    ]);
    expect(f.repo.issues.get(issue.number)?.labels).toEqual(["agent"]);
  });

  it("on failure adds the failed label and removes the in-progress label; the next poll skips the issue", async () => {
    const { f, issue, ticket, run, adapter, ctx } = await pickedUpIssue();
    await adapter.finished(ticket, run, FAILURE, ctx);
    await adapter.finished(ticket, run, FAILURE, ctx);
    expect(f.repo.changesOf(issue.number)).toEqual(["+agent-in-progress", "+agent-failed", "-agent-in-progress"]);
    expect(f.repo.issues.get(issue.number)?.comments).toEqual([]);
    const [again] = await adapter.poll(ctx);
    expect(again?.skip).toContain('carries the failed label "agent-failed"');
  });

  it("says so when the agent succeeded without a pull request", async () => {
    const { f, issue, ticket, run, adapter, ctx } = await pickedUpIssue();
    await adapter.finished(ticket, run, { ...SUCCESS, pullRequestUrl: "" }, ctx);
    expect(f.repo.issues.get(issue.number)?.comments[0]?.body).toMatch(
      /^The agent finished without opening a pull request\.\n\nFixed the flaky test\./,
    );
  });

  it("finds its comment on a later page and does not post it again (another run's comment does not count)", async () => {
    const { f, issue, ticket, run, adapter, ctx } = await pickedUpIssue();
    f.maxPerPage = 2;
    f.repo.comment(issue, "Looks like a flaky test.");
    f.repo.comment(issue, "<!-- errand:run run_someotherrun -->");
    f.repo.comment(issue, "Any news?");
    await adapter.finished(ticket, run, SUCCESS, ctx);
    f.repo.comment(issue, "Thanks!");
    await adapter.finished(ticket, run, SUCCESS, ctx);
    expect(f.repo.issues.get(issue.number)?.comments.filter((c) => c.body.includes(run.id))).toHaveLength(1);
    const listings = f.requests.filter(
      (r) => r.method === "GET" && r.path.includes(`/issues/${issue.number}/comments`),
    );
    // Three comments on two pages, then five on three.
    expect(listings.map((r) => new URL(r.path, f.url).searchParams.get("page") ?? "1")).toEqual([
      "1",
      "2",
      "1",
      "2",
      "3",
    ]);
  });

  it("leaves alone tickets of another repository that arrived under the same number", async () => {
    const { f, issue, ticket, run, adapter, ctx, logger } = await pickedUpIssue();
    const before = f.requests.length;
    const other = { ...ticket, repoUrl: "https://codehost-a.test/acme/website" };
    await adapter.pickedUp(other, run, ctx);
    await adapter.finished(other, run, FAILURE, ctx);
    expect(f.requests).toHaveLength(before);
    expect(f.repo.changesOf(issue.number)).toEqual(["+agent-in-progress"]);
    expect(logger.records.filter((r) => r.level === "warn").map((r) => r.message)).toEqual([
      "not writing back (picked up): the ticket is not an issue of acme/shop",
      "not writing back (finished): the ticket is not an issue of acme/shop",
    ]);
  });

  it("throws what the host refused, with a hint", async () => {
    const { ticket, run, adapter, ctx } = await pickedUpIssue();
    const error = await adapter.pickedUp({ ...ticket, id: "999" }, run, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodehostAError);
    expect(error).toMatchObject({
      code: "ERR_TICKET_SOURCE",
      status: 404,
      message:
        'code host A answered 404 to the request to add the label "agent-in-progress" to issue #999 on acme/shop (Not Found)',
    });
  });

  it("reports a write the token may not make", async () => {
    const { f, ticket, run, adapter, ctx } = await pickedUpIssue();
    f.inject({ kind: "error", status: 403 }, { match: /^POST / });
    const error = await adapter.finished(ticket, run, FAILURE, ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_TICKET_SOURCE", status: 403 });
    expect((error as CodehostAError).hint).toBe(
      "give the token Issues: read and write on acme/shop (fine-grained token) or the repo scope (classic token)",
    );
  });
});
