import { describe, expect, test } from "vitest";
import { buildPrompt, checkPromptTemplate } from "../../src/engines/prompt.js";
import { DEFAULT_PROMPT_TEMPLATE, PROMPT_PLACEHOLDERS } from "../../src/engines/prompt-template.js";
import { sampleTicket } from "./helpers/run-engine.js";

describe("buildPrompt", () => {
  test("the built-in template names the ticket, its links and labels, and asks for a pull request and a PR line", () => {
    const prompt = buildPrompt(sampleTicket());
    expect(prompt).toContain("Ticket 1234 (bug_fix): Parser crashes on empty input");
    expect(prompt).toContain("Ticket link: https://tracker.example/acme/1234");
    expect(prompt).toContain("Repository: https://github.com/acme/widgets");
    expect(prompt).toContain("Labels: bug, errand");
    expect(prompt).toContain('Description:\nCalling parse("") throws.\nExpected: an empty list.');
    expect(prompt).toContain("You are resolving a ticket from generic.");
    expect(prompt).toContain("clone https://github.com/acme/widgets into it");
    expect(prompt).toContain("open a pull request");
    expect(prompt).toMatch(/\nPR: <the URL of the pull request>\n/);
    expect(prompt).not.toMatch(/\{\{/);
  });

  test("the built-in template uses every ticket placeholder and passes its own check", () => {
    const followUpOnly = ["pull_request_url", "branch", "review_comments"];
    for (const name of PROMPT_PLACEHOLDERS.filter((p) => !followUpOnly.includes(p)))
      expect(DEFAULT_PROMPT_TEMPLATE).toContain(`{{${name}}}`);
    expect(checkPromptTemplate(DEFAULT_PROMPT_TEMPLATE)).toEqual([]);
  });

  test("empty values read (none)", () => {
    const prompt = buildPrompt(
      sampleTicket({ description: "  ", labels: [], externalUrl: "" }),
      "{{description}}|{{labels}}|{{external_url}}",
    );
    expect(prompt).toBe("(none)|(none)|(none)");
  });

  test("a user template is filled in one pass: ticket text that looks like a placeholder stays as written", () => {
    const ticket = sampleTicket({ title: "Rename {{description}} to {{ repo_url }}", description: "D" });
    expect(buildPrompt(ticket, "{{ title }} / {{description}} / {{id}}")).toBe(
      "Rename {{description}} to {{ repo_url }} / D / 1234",
    );
  });

  test("an unknown placeholder is left as written (the config check refuses it first)", () => {
    expect(buildPrompt(sampleTicket(), "{{titel}}: {{title}}")).toBe("{{titel}}: Parser crashes on empty input");
  });
});

describe("checkPromptTemplate", () => {
  const known =
    "the placeholders are {{id}}, {{title}}, {{description}}, {{ticket_type}}, {{repo_url}}, {{external_url}}, {{labels}}, {{source}}, {{pull_request_url}}, {{branch}}, {{review_comments}}";

  test.each([
    ["Fix {{titel}}", [`unknown placeholder {{titel}} on line 1 (did you mean {{title}}?); ${known}`]],
    ["Repo:\n{{repoUrl}}", [`unknown placeholder {{repoUrl}} on line 2 (did you mean {{repo_url}}?); ${known}`]],
    ["{{ Ticket-Type }}", [`unknown placeholder {{Ticket-Type}} on line 1 (did you mean {{ticket_type}}?); ${known}`]],
    ["{{assignee}}", [`unknown placeholder {{assignee}} on line 1; ${known}`]],
    ["{{}} and {{ }}", [`empty placeholder {{}} on line 1; ${known}`, `empty placeholder {{ }} on line 1; ${known}`]],
    ["Title: {{title}}\nBody: {{description", ['"{{" on line 2 has no closing "}}"; write placeholders as {{title}}']],
    ["   \n", ["the prompt template is empty; remove it to use the built-in one"]],
    ["{{title}} {{description}} {{ labels }}", []],
  ])("%j", (template, problems) => {
    expect(checkPromptTemplate(template)).toEqual(problems);
  });
});
