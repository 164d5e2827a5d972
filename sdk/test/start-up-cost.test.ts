import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// What a plugin process loads before its handshake line is its start-up
// time; these checks keep costly pieces out of it.

const dist = (path: string) => new URL(`../dist/${path}`, import.meta.url).href;

describe("plugin start-up cost", () => {
  it("makes no Intl.Segmenter until a text is cut by graphemes (it costs 10–17 ms to build)", () => {
    const script = `
      let made = 0;
      const Segmenter = Intl.Segmenter;
      Intl.Segmenter = class extends Segmenter { constructor(...a) { super(...a); made++; } };
      await import(${JSON.stringify(dist("index.js"))});
      const { truncate } = await import(${JSON.stringify(dist("helpers/index.js"))});
      const before = made;
      const cut = truncate("👨‍👩‍👧 family", 3, { unit: "graphemes" });
      truncate("a longer text to cut", 5, { unit: "graphemes" });
      console.log(JSON.stringify({ before, after: made, cut }));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({ before: 0, after: 1, cut: "👨‍👩‍👧 …" });
  });
});
