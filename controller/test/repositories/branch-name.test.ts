import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { branchName, newRunBranch, slugOf } from "../../src/repositories/branch-name.js";

const DEFAULT = "errand/{ticket_id}-{slug}";
const parts = (ticketId: string, title: string) => ({ ticketId, title, runId: "run_01jq8z3x5k7m9p2r4t6v8w0y1a" });

/** git's own judgement of a branch name. */
function gitAccepts(name: string): boolean {
  try {
    execFileSync("git", ["check-ref-format", "--branch", name], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("branch names", () => {
  it("fill the default template with the ticket id and the title's slug", () => {
    expect(branchName(DEFAULT, parts("42", "Fix the login page"))).toBe("errand/42-fix-the-login-page");
  });

  it("replace {run_id}, and keep the rest of the template", () => {
    expect(branchName("agents/{run_id}", parts("42", "x"))).toBe("agents/run_01jq8z3x5k7m9p2r4t6v8w0y1a");
  });

  it("make a slug of lower-case ASCII words, cut at a word under 40 characters", () => {
    expect(slugOf("Crash: Ünïcode   titles & *symbols*!")).toBe("crash-unicode-titles-symbols");
    expect(slugOf("A very long title that goes on and on and on forever")).toBe(
      "a-very-long-title-that-goes-on-and-on",
    );
    expect(slugOf("!!!")).toBe("ticket");
    expect(slugOf("")).toBe("ticket");
  });

  it.each([
    ["{ticket_id}", "PROJ 12:34"],
    ["{ticket_id}/{slug}", "../../etc"],
    ["team//{ticket_id}.lock", "7"],
    ["{ticket_id}..{slug}.", "-x"],
    ["{slug}", "~^:?*[\\"],
    ["/{ticket_id}/", "@{1}"],
    ["{ticket_id}", "a\u0001b\u007f"],
  ])("are always names git accepts (template %s, ticket id %s)", (template, ticketId) => {
    const name = branchName(template, parts(ticketId, "Title"));
    expect(name).not.toBe("");
    expect(gitAccepts(name), name).toBe(true);
  });

  it("are at most 200 characters", () => {
    expect(branchName("{ticket_id}", parts("x".repeat(500), "t")).length).toBeLessThanOrEqual(200);
  });

  it("a new run's branch is made; a follow-up passes an existing one", () => {
    expect(newRunBranch(DEFAULT, parts("42", "Add a test"))).toEqual({
      branch: "errand/42-add-a-test",
      existing: false,
    });
  });
});
