import { describe, expect, it } from "vitest";
import { toTicket } from "../../../src/vendors/codehost-a/codehost-a-rules.js";
import { issueOf } from "../../../src/vendors/codehost-a/issue-comment-target.js";

const issue = { number: 12, title: "Fix it", html_url: "https://github.com/acme/shop/issues/12", labels: [] };

describe("the issue a progress comment goes to", () => {
  it("is the same for a polled ticket and a webhook ticket: the repository URL's owner and name, the ticket's number", () => {
    const polled = toTicket(issue, "https://github.com/acme/shop");
    expect(issueOf(polled)).toEqual({ owner: "acme", repo: "shop", number: 12 });
    const hooked = { ...polled, repoUrl: "https://ghe.example.com/acme/shop.git" };
    expect(issueOf(hooked)).toEqual({ owner: "acme", repo: "shop", number: 12 });
  });

  it("is none for another source's ticket, a ticket id that is no issue number, or no repository URL", () => {
    const polled = toTicket(issue, "https://github.com/acme/shop");
    expect(issueOf({ ...polled, source: "tracker_a" })).toBeUndefined();
    expect(issueOf({ ...polled, id: "ENG-12" })).toBeUndefined();
    expect(issueOf({ ...polled, repoUrl: "" })).toBeUndefined();
    expect(issueOf({ ...polled, repoUrl: "https://github.com/acme" })).toBeUndefined();
  });
});
