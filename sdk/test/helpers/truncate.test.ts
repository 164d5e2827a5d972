import { describe, expect, it } from "vitest";
import { type LengthUnit, measure, truncate } from "../../src/helpers/truncate.js";

const units: LengthUnit[] = ["code-units", "code-points", "bytes", "graphemes"];
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const graphemes = (text: string) => [...segmenter.segment(text)].map((s) => s.segment);

const hardTexts = {
  zwjFamily: "👨‍👩‍👧‍👦 family 👩🏽‍💻 coder",
  flags: "🇯🇵🇩🇪🇺🇳 flags",
  combining: "Ze\u0301\u0301lgo\u0308\u0300 a\u0351\u0352\u0353b",
  rtl: "مرحبا بالعالم — שלום עולם",
  cjk: "漢字かなカナ한국어 中文测试",
  astral: "𝕳𝖊𝖑𝖑𝖔 𝄞 𠜎𠜱",
  keycaps: "1️⃣2️⃣#️⃣ ❤️‍🔥 🏳️‍🌈",
  mixed: "🐛 Ошибка: 日本語 — עברית وعربي 👨‍👩‍👧 e\u0301 n\u0303 ok",
};

describe("measure", () => {
  it("counts each unit", () => {
    const text = "a👨‍👩‍👧é";
    expect(measure(text, "code-units")).toBe(1 + 8 + 1);
    expect(measure(text, "code-points")).toBe(1 + 5 + 1);
    expect(measure(text, "bytes")).toBe(1 + 18 + 2);
    expect(measure(text, "graphemes")).toBe(3);
    expect(measure(text)).toBe(10);
  });
});

describe("truncate", () => {
  it("returns text that fits unchanged, in every unit", () => {
    for (const unit of units) {
      expect(truncate("hello", 5, { unit })).toBe("hello");
      expect(truncate("", 0, { unit })).toBe("");
    }
  });

  it("cuts plain text and appends the ellipsis within the limit", () => {
    expect(truncate("Hello, world", 8)).toBe("Hello, …");
    expect(truncate("Hello, world", 8, { ellipsis: "..." })).toBe("Hello...");
    expect(truncate("Hello, world", 8, { ellipsis: "" })).toBe("Hello, w");
  });

  it("counts the ellipsis in the unit (… is 3 UTF-8 bytes)", () => {
    expect(truncate("abcdefgh", 5, { unit: "bytes" })).toBe("ab…");
  });

  it("cuts without an ellipsis when even the ellipsis does not fit", () => {
    expect(truncate("abcdef", 2, { unit: "bytes" })).toBe("ab");
    expect(truncate("abcdef", 0)).toBe("");
    expect(truncate("abcdef", 2, { ellipsis: "[more]" })).toBe("ab");
  });

  it("never splits an emoji ZWJ sequence, a flag or a base letter from its marks", () => {
    // The family is 11 code units: it fits in 12 with the ellipsis, not in 11.
    expect(truncate("👨‍👩‍👧‍👦 family", 12)).toBe("👨‍👩‍👧‍👦…");
    expect(truncate("👨‍👩‍👧‍👦 family", 11)).toBe("…");
    expect(truncate("ab👨‍👩‍👧‍👦cd", 6)).toBe("ab…");
    expect(truncate("🇯🇵🇩🇪", 3)).toBe("…");
    expect(truncate("🇯🇵🇩🇪", 5)).toBe("🇯🇵…");
    expect(truncate("🇯🇵🇩🇪", 8)).toBe("🇯🇵🇩🇪");
    expect(truncate("e\u0301e\u0301e\u0301", 4)).toBe("e\u0301…");
    expect(truncate("👨‍👩‍👧 family", 3, { unit: "graphemes" })).toBe("👨‍👩‍👧 …");
  });

  it("drops a single cluster larger than the limit instead of splitting it", () => {
    const zalgo = `a${"\u0301".repeat(50)}`;
    expect(truncate(`${zalgo}b`, 20)).toBe("…");
  });

  it("cuts the 100 kB description of a ticket quickly", () => {
    const long = "Paragraph 👨‍👩‍👧 with text. ".repeat(5000);
    const start = performance.now();
    const cut = truncate(long, 4096);
    expect(performance.now() - start).toBeLessThan(200);
    expect(cut.length).toBeLessThanOrEqual(4096);
    expect(cut.endsWith("…")).toBe(true);
  });

  it("counts and cuts graphemes of long text quickly and exactly", () => {
    const long = "Paragraph 👨‍👩‍👧 with text. e\u0301 🇯🇵 ".repeat(4000);
    const start = performance.now();
    expect(measure(long, "graphemes")).toBe(4000 * graphemes("Paragraph 👨‍👩‍👧 with text. e\u0301 🇯🇵 ").length);
    const cut = truncate(long, 3000, { unit: "graphemes" });
    expect(performance.now() - start).toBeLessThan(1000);
    expect(measure(cut, "graphemes")).toBe(3000);
    expect(graphemes(cut).slice(0, -1)).toEqual(graphemes(long.slice(0, 8000)).slice(0, 2999));
    const zalgo = `x${"\u0301".repeat(10_000)}y`;
    expect(measure(zalgo, "graphemes")).toBe(2);
  });

  // Property-style: every text, every unit, every limit from 0 to past the end.
  for (const [name, text] of Object.entries(hardTexts)) {
    it(`keeps ${name} well-formed and within every limit, cutting only between graphemes`, () => {
      const clusters = graphemes(text);
      for (const unit of units) {
        const total = measure(text, unit);
        for (let limit = 0; limit <= total + 2; limit++) {
          for (const ellipsis of ["…", "...", ""]) {
            const cut = truncate(text, limit, { unit, ellipsis });
            expect(cut.isWellFormed(), `${unit} ${limit}`).toBe(true);
            expect(measure(cut, unit), `${unit} ${limit} ${JSON.stringify(cut)}`).toBeLessThanOrEqual(limit);
            if (limit >= total) {
              expect(cut).toBe(text);
              continue;
            }
            const kept =
              cut.endsWith(ellipsis) && measure(ellipsis, unit) <= limit
                ? cut.slice(0, cut.length - ellipsis.length)
                : cut;
            // The kept part is a whole number of the text's grapheme clusters.
            const keptClusters = graphemes(kept);
            expect(keptClusters, `${unit} ${limit}`).toEqual(clusters.slice(0, keptClusters.length));
            // And it is the longest such prefix: one more cluster would not fit.
            const next = clusters[keptClusters.length];
            const room = limit - (kept === cut ? 0 : measure(ellipsis, unit));
            if (next !== undefined) expect(measure(kept + next, unit)).toBeGreaterThan(room);
          }
        }
      }
    });
  }
});
