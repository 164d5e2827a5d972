import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";
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

test("docs/engines.md lists every placeholder", () => {
  for (const name of PROMPT_PLACEHOLDERS) expect(doc).toContain(`| \`{{${name}}}\` |`);
});

test("docs/engines.md shows the built-in prompt for a controller-made checkout as it is", () => {
  const shown = /the built-in template is this one instead:\n\n```text\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(shown).toBe(CHECKOUT_PROMPT_TEMPLATE);
});
