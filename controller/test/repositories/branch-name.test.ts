import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { branchName, newRunBranch, slugOf } from "../../src/repositories/branch-name.js";

const TEMPLATE = "errand/{ticket_id}-{slug}";
const values = (title: string, ticketId = "42") => ({ ticketId, title, runId: "run_01abc" });

/** What git itself says of the name. */
function gitAccepts(name: string): boolean {
  try {
    execFileSync("git", ["check-ref-format", "--branch", name], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("branch names", () => {
  it("the default template: ticket id and the title's words, lower-case, joined by -", () => {
    expect(branchName(TEMPLATE, values("Fix the README's typo!"))).toBe("errand/42-fix-the-readme-s-typo");
  });

  it("the slug is bounded at a word boundary and never empty", () => {
    const slug = slugOf("A very long title that goes on and on about many different things indeed");
    expect(slug.length).toBeLessThanOrEqual(40);
    expect(slug).toBe("a-very-long-title-that-goes-on-and-on");
    expect(slugOf("¿¡!!")).toBe("task");
    expect(slugOf("Crème brûlée")).toBe("creme-brulee");
  });

  it.each([
    ["a ticket id with spaces and ~^:?*[\\", "id with ~^:?*[\\ and spaces"],
    ["dot segments", "../..lock"],
    ["an @{ sequence", "a@{b"],
    ["control characters", "a\u0001b\u007f"],
  ])("%s gives a name git accepts", (_what, ticketId) => {
    const name = branchName(TEMPLATE, values("x", ticketId));
    expect(gitAccepts(name)).toBe(true);
  });

  it("{run_id} is replaced; a template that leaves nothing falls back to errand/<run id>", () => {
    expect(branchName("agent/{run_id}", values("x"))).toBe("agent/run_01abc");
    expect(branchName("///", values("x"))).toBe("errand/run_01abc");
  });

  it("a new run's branch is made; a follow-up passes an existing one", () => {
    expect(newRunBranch(TEMPLATE, values("Add a test"))).toEqual({ branch: "errand/42-add-a-test", existing: false });
  });
});
