import { describe, expect, test } from "vitest";
import { MAX_SUMMARY_CHARS, readPullRequest } from "../../src/engines/output/pull-request.js";

describe("readPullRequest", () => {
  test.each([
    ["Done.\nPR: https://github.com/a/b/pull/1", "https://github.com/a/b/pull/1", "Done."],
    ["Done.\n**PR:** <https://github.com/a/b/pull/2>.", "https://github.com/a/b/pull/2", "Done."],
    [
      "PR: https://github.com/a/b/pull/1\nThen a better one.\npr: https://github.com/a/b/pull/3",
      "https://github.com/a/b/pull/3",
      "PR: https://github.com/a/b/pull/1\nThen a better one.",
    ],
    [
      "See https://github.com/a/b/pull/4 and https://gitlab.com/g/p/-/merge_requests/5, done.",
      "https://gitlab.com/g/p/-/merge_requests/5",
      "See https://github.com/a/b/pull/4 and https://gitlab.com/g/p/-/merge_requests/5, done.",
    ],
    [
      "Opened (https://bitbucket.org/a/b/pull-requests/6).",
      "https://bitbucket.org/a/b/pull-requests/6",
      "Opened (https://bitbucket.org/a/b/pull-requests/6).",
    ],
    ["PR: https://git.internal.example/team/app/pull/7", "https://git.internal.example/team/app/pull/7", ""],
    [
      "No pull request: tests fail on main. See https://github.com/a/b/issues/8.",
      "",
      "No pull request: tests fail on main. See https://github.com/a/b/issues/8.",
    ],
    ["PR: none", "", "PR: none"],
    ["", "", ""],
  ])("%j", (text, url, summary) => {
    expect(readPullRequest(text)).toEqual({ url, summary });
  });

  test("a very long final text is cut for the summary", () => {
    const { summary } = readPullRequest("a".repeat(MAX_SUMMARY_CHARS + 10));
    expect(summary).toHaveLength(MAX_SUMMARY_CHARS + 1);
    expect(summary.endsWith("…")).toBe(true);
  });
});
