import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { functionSizes, functionSizesIn } from "./support/function-sizes.js";

// A function longer than a screen hides what it does; split it by concern instead.
const root = fileURLToPath(new URL("..", import.meta.url));
const MAX_LINES = 80;
const SOURCES = [
  "controller/src",
  "sdk/src",
  "cli/src",
  "channels/chat-kit/src",
  "channels/chat-a/src",
  "channels/chat-b/src",
  "examples/webhook-post/src",
];

/**
 * Functions still over the limit, with their size today: this list may only
 * shrink. Key: `path name` (no line number, so edits above it do not break it).
 */
const ALLOWED: Readonly<Record<string, number>> = {};

const keyOf = (where: string): string => where.replace(/:\d+ /, " ");

describe("function size", () => {
  const sizes = functionSizes(root, SOURCES);

  it(`no function in ${SOURCES.join(", ")} is over ${MAX_LINES} lines`, () => {
    const over = sizes.filter((s) => s.lines > MAX_LINES && (ALLOWED[keyOf(s.where)] ?? 0) < s.lines);
    expect(over.map((s) => `${s.where}: ${s.lines} lines`)).toEqual([]);
  });

  it("the allow-list names only functions still over the limit, at their size", () => {
    const stale = Object.entries(ALLOWED).filter(
      ([key, lines]) => !sizes.some((s) => keyOf(s.where) === key && s.lines === lines && s.lines > MAX_LINES),
    );
    expect(stale.map(([key, lines]) => `${key}: ${lines} (shrink or remove this entry)`)).toEqual([]);
  });

  it("counts a function from its first line to its last, nested functions and methods included", () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    const text = [
      `export function outer() {\n${body(5)}\n  const inner = () => {\n${body(83)}\n  };\n}`,
      `class K {\n  m() {\n${body(82)}\n  }\n}`,
    ].join("\n");
    const over = functionSizesIn("x.ts", text).filter((s) => s.lines > MAX_LINES);
    expect(over.map((s) => `${s.where}: ${s.lines}`)).toEqual([
      "x.ts:1 outer: 88",
      "x.ts:5 inner: 83",
      "x.ts:90 m: 82",
    ]);
  });
});
