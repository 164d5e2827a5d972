import { describe, expect, it } from "vitest";
import { runIn } from "../store/conformance/support.js";
import { startConsole } from "./helpers/in-process-console.js";

const PR = "https://codehost.example/acme/app/pull/7";

describe("a run's page", () => {
  it("lists the ticket's attempts with the pull request each opened and the run each follow-up follows", async () => {
    const c = await startConsole();
    const run = await runIn(c.store, "Running");
    const result = { success: true, summary: "done", pullRequestUrl: PR, failureReason: "" };
    await c.store.transition({ runId: run.id, from: ["Running"], to: "Succeeded", reason: "ok", patch: { result } });
    const child = await c.store.createFollowUp({
      parentRunId: run.id,
      followUp: {
        pullRequest: { number: 7, url: PR, branch: "errand/t-fix" },
        trigger: "review_comment",
        comments: [{ author: "alice", body: "rename this" }],
      },
      reason: "review by alice",
      maxPerPullRequest: 3,
    });
    for (const id of [run.id, child.id]) {
      const page = await (await fetch(`${c.url}/console/runs/${id}`)).text();
      const attempts = page.slice(page.indexOf('<ol class="attempts">'));
      expect(attempts).toContain(
        `attempt 2 · <span class="state state-Queued">Queued</span> · follow-up on review comment by alice of <a href="/console/runs/${run.id}">${run.id}</a>`,
      );
      expect(attempts).toMatch(new RegExp(`attempt 1 · .*Succeeded.* · <a [^>]*href="${PR}"`));
    }
  });
  it("names who asked to cancel a running run while it stops, then on its Cancelled transition", async () => {
    const c = await startConsole();
    const run = await runIn(c.store, "Running");
    await c.store.requestCancel(run.id, "cancelled from the console by operator (127.0.0.1)", {
      kind: "console",
      name: "operator",
      from: "127.0.0.1",
    });
    const by = '<span class="muted">(by console operator from 127.0.0.1)</span>';
    const stopping = await (await fetch(`${c.url}/console/runs/${run.id}`)).text();
    expect(stopping).toMatch(new RegExp(`<dt>Cancel requested</dt><dd>[^<]+ ${by.replace(/[()]/g, "\\$&")}</dd>`));
    await c.store.transition({ runId: run.id, from: ["Running"], to: "Cancelled", reason: "stopped" });
    const ended = await (await fetch(`${c.url}/console/runs/${run.id}`)).text();
    expect(ended).not.toContain("<dt>Cancel requested</dt>");
    expect(ended).toContain(`<td>stopped ${by}</td>`);
  });
});
