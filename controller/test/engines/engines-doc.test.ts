import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";
import { DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE } from "../../src/engines/follow-up-prompt.js";
import { DEFAULT_PROMPT_TEMPLATE, PROMPT_PLACEHOLDERS } from "../../src/engines/prompt-template.js";

const doc = readFileSync(resolve(import.meta.dirname, "../../../docs/engines.md"), "utf8");

test("docs/engines.md shows the built-in prompt template as it is", () => {
  const shown = /The built-in template:\n\n```text\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(shown).toBe(DEFAULT_PROMPT_TEMPLATE);
});

test("docs/engines.md shows the built-in follow-up template as it is", () => {
  const shown = /The built-in follow-up template:\n\n```text\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(shown).toBe(DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE);
});

test("docs/engines.md lists every placeholder", () => {
  for (const name of PROMPT_PLACEHOLDERS) expect(doc).toContain(`| \`{{${name}}}\` |`);
});
