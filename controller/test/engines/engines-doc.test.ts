import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";
import {
  CHECKOUT_FOLLOW_UP_PROMPT_TEMPLATE,
  DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE,
} from "../../src/engines/follow-up-prompt.js";
import {
  CHECKOUT_PROMPT_TEMPLATE,
  DEFAULT_PROMPT_TEMPLATE,
  PROMPT_PLACEHOLDERS,
} from "../../src/engines/prompt-template.js";

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

test("docs/engines.md shows the built-in prompt for a controller-made checkout as it is", () => {
  const shown = /the built-in template is this one instead:\n\n```text\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(shown).toBe(CHECKOUT_PROMPT_TEMPLATE);
});

test("docs/engines.md shows the built-in follow-up prompt for a controller-made checkout as it is", () => {
  expect(CHECKOUT_FOLLOW_UP_PROMPT_TEMPLATE).not.toBe(DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE);
  const shown = /the follow-up template is this one instead:\n\n```text\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(shown).toBe(CHECKOUT_FOLLOW_UP_PROMPT_TEMPLATE);
});
