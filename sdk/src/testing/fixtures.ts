import type { TaskResult, Ticket } from "../channel.js";

const base: Ticket = {
  id: "123",
  title: "Login button does nothing on Safari",
  description:
    "Steps to reproduce:\n\n1. Open https://app.example.com/login in Safari 17\n2. Enter valid credentials\n3. Click **Log in**\n\nExpected: the dashboard opens. Actual: nothing happens; the console shows `TypeError: undefined is not a function`.",
  ticketType: "issue",
  repoUrl: "https://codehost.example.com/acme/webapp",
  externalUrl: "https://codehost.example.com/acme/webapp/issues/123",
  labels: ["bug", "frontend", "p2"],
  source: "codehost_a",
  rawEvent: { action: "labeled", issue: { number: 123 }, label: { name: "errand" } },
};

// Every hard case of text in one place: emoji with skin tone, ZWJ family,
// flags, keycaps, RTL (Arabic, Hebrew), CJK, combining marks and zero-width
// characters.
const unicodeTitle = "🐛 Ошибка: 日本語のタイトル — עברית وعربي 👩🏽‍💻 👨‍👩‍👧‍👦 🇯🇵 1️⃣ e\u0301 n\u0303";
const unicodeDescription = [
  "Emoji: 👍🏿 🧑‍🤝‍🧑 🏳️‍🌈 ❤️‍🔥 🇺🇳🇩🇪",
  "RTL: مرحبا بالعالم — שלום עולם (mixed with LTR: version 2.0)",
  "CJK: 漢字かなカナ한국어 中文测试",
  "Combining: Z\u0351\u0352\u0353a\u0357\u0358l\u0359g\u035ao\u0300\u0301 a\u0308 o\u0308 u\u0308",
  "Zero-width: a\u200bb\u200cc\u200dd \ufeff",
  "Astral: 𝕳𝖊𝖑𝖑𝖔 𝄞 𠜎𠜱",
].join("\n");

const tickets = {
  /** A realistic issue from code host A with every field set. */
  basic: base,
  /** Emoji (skin tones, ZWJ sequences, flags), RTL, CJK, combining marks. */
  unicode: {
    ...base,
    id: "4711",
    title: unicodeTitle,
    description: unicodeDescription,
    labels: ["🐛 bug", "日本語", "עברית"],
    externalUrl: "https://tracker.example.com/browse/%E6%97%A5-4711",
  } satisfies Ticket,
  /** Title of 12 000 and description of 120 000 code units, far past any chat limit. */
  longText: {
    ...base,
    id: "999",
    title: `Very long title ${"lorem ipsum dolor sit amet 🚀 ".repeat(400)}`.slice(0, 12_000),
    description:
      `${"Paragraph with **markdown**, a link https://example.com/x and an emoji 👨‍👩‍👧.\n\n".repeat(1600)}`.slice(
        0,
        120_000,
      ),
    labels: Array.from({ length: 60 }, (_, i) => `label-${i}`),
  } satisfies Ticket,
  /** Only an id: every other field empty, as proto3 decodes unset fields; no rawEvent. */
  minimal: {
    id: "1",
    title: "",
    description: "",
    ticketType: "",
    repoUrl: "",
    externalUrl: "",
    labels: [],
    source: "",
  } satisfies Ticket,
};

const results = {
  /** A success with PR URL, cost, duration and token usage. */
  success: {
    success: true,
    summary:
      "Fixed the Safari click handler: replaced `Array.prototype.at` with an index lookup and added a regression test.",
    pullRequestUrl: "https://codehost.example.com/acme/webapp/pull/456",
    failureReason: "",
    costUsd: 0.4213,
    durationMs: 754_000,
    tokenUsage: { inputTokens: 123_456, outputTokens: 4_521, cachedInputTokens: 80_000 },
  } satisfies TaskResult,
  /** A failure with its reason. */
  failure: {
    success: false,
    summary: "Could not reproduce the bug; tests pass on main.",
    pullRequestUrl: "",
    failureReason:
      "The test suite failed after 3 attempts: `npm test` exited with code 1 (2 failing tests in login.spec.ts).",
    costUsd: 1.23,
    durationMs: 1_805_000,
    tokenUsage: { inputTokens: 250_000, outputTokens: 12_000, cachedInputTokens: 0 },
  } satisfies TaskResult,
  /** A success without cost, duration or token usage (all unknown). */
  minimalSuccess: {
    success: true,
    summary: "",
    pullRequestUrl: "",
    failureReason: "",
  } satisfies TaskResult,
  /** A success whose summary is about 50 000 code units of markdown. */
  longSummary: {
    success: true,
    summary: `## Changes\n\n${"- Refactored a module and updated its tests, see `src/module.ts` 🧪\n".repeat(800).slice(0, 50_000)}`,
    pullRequestUrl: "https://codehost.example.com/acme/webapp/pull/457",
    failureReason: "",
    costUsd: 0.004,
    durationMs: 850,
    tokenUsage: { inputTokens: 999_950, outputTokens: 1_234_567, cachedInputTokens: 12 },
  } satisfies TaskResult,
  /** A failure whose summary and reason are full of hard Unicode. */
  unicode: {
    success: false,
    summary: unicodeDescription,
    pullRequestUrl: "",
    failureReason: `原因: ${unicodeTitle}`,
    costUsd: 12.3,
    durationMs: 3_723_000,
    tokenUsage: { inputTokens: 12_300, outputTokens: 4_500, cachedInputTokens: 0 },
  } satisfies TaskResult,
};

type Fresh<T> = { readonly [K in keyof T]: T[K] };

function freshCopies<T extends Record<string, object>>(source: T): Fresh<T> {
  const out = {} as Fresh<T>;
  for (const key of Object.keys(source) as (keyof T)[]) {
    Object.defineProperty(out, key, { enumerable: true, get: () => structuredClone(source[key]) });
  }
  return Object.freeze(out);
}

/**
 * Realistic tickets and task results for channel tests. Every property
 * access returns a fresh deep copy, so a test that mutates one never
 * affects another.
 *
 * @example
 * await channel.notifyComplete(fixtures.tickets.unicode, fixtures.results.failure, ctx);
 */
export const fixtures: {
  readonly tickets: Fresh<typeof tickets>;
  readonly results: Fresh<typeof results>;
} = Object.freeze({ tickets: freshCopies(tickets), results: freshCopies(results) });
