import { describe, expect, test } from "vitest";
import { buildRunPrompt, DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE } from "../../src/engines/follow-up-prompt.js";
import { buildPrompt, checkPromptTemplate } from "../../src/engines/prompt.js";
import { PROMPT_PLACEHOLDERS } from "../../src/engines/prompt-template.js";
import type { FollowUpContext } from "../../src/runs/follow-up.js";
import { sampleTicket } from "./helpers/run-engine.js";

const followUp: FollowUpContext = {
  pullRequest: { number: 7, url: "https://github.com/acme/widgets/pull/7", branch: "errand/1234-parser" },
  trigger: "review",
  reviewState: "changes_requested",
  comments: [
    { author: "alice", body: "Please also cover {{title}}.\nAnd keep it short." },
    { author: "bob", body: "Use a guard clause.", path: "src/parse.ts", line: 12 },
    { author: "carol", body: "Typo in the file name.", path: "README.md" },
  ],
};

describe("the follow-up prompt", () => {
  test("has every comment with its file and line, the branch, the pull request and the original ticket", () => {
    const prompt = buildRunPrompt(sampleTicket(), undefined, followUp);
    expect(prompt).toContain(
      [
        "Review comments:",
        "- alice: Please also cover {{title}}.",
        "  And keep it short.",
        "- bob on src/parse.ts line 12: Use a guard clause.",
        "- carol on README.md: Typo in the file name.",
      ].join("\n"),
    );
    expect(prompt).toContain("Pull request: https://github.com/acme/widgets/pull/7\nBranch: errand/1234-parser");
    expect(prompt).toContain("The original ticket 1234 (bug_fix): Parser crashes on empty input");
    expect(prompt).toContain('Description:\nCalling parse("") throws.');
    expect(prompt).toContain("on the branch errand/1234-parser");
    expect(prompt).toMatch(/\nPR: https:\/\/github\.com\/acme\/widgets\/pull\/7\n$/);
  });

  test("the built-in follow-up template uses every placeholder and passes the template check", () => {
    for (const name of PROMPT_PLACEHOLDERS) expect(DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE).toContain(`{{${name}}}`);
    expect(checkPromptTemplate(DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE)).toEqual([]);
  });

  test("an engine's template serves follow-ups when it uses {{review_comments}}; otherwise the built-in one does", () => {
    const both = "{{title}} | {{ review_comments }} | {{branch}}";
    expect(buildRunPrompt(sampleTicket(), both, followUp)).toContain("| - alice: Please also cover");
    expect(buildRunPrompt(sampleTicket(), "Fix {{title}}", followUp)).toContain("Review comments:\n- alice");
    expect(buildRunPrompt(sampleTicket(), "Fix {{title}}")).toBe("Fix Parser crashes on empty input");
  });

  test("in a first run the follow-up placeholders read (none)", () => {
    expect(buildPrompt(sampleTicket(), "{{pull_request_url}}|{{branch}}|{{review_comments}}")).toBe(
      "(none)|(none)|(none)",
    );
  });
});
