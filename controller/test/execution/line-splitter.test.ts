import { describe, expect, it } from "vitest";
import { createLineSplitter, type SplitLine } from "../../src/execution/local/line-splitter.js";

function split(chunks: Array<string | Buffer>, max = 1024): SplitLine[] {
  const lines: SplitLine[] = [];
  const splitter = createLineSplitter(max, (line) => lines.push(line));
  for (const chunk of chunks) splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  splitter.end();
  splitter.end();
  return lines;
}

describe("line splitter", () => {
  it("joins lines cut across chunks and keeps empty lines", () => {
    expect(split(["ab", "c\n\nd", "e\r\n", "f"]).map((l) => l.text)).toEqual(["abc", "", "de", "f"]);
  });

  it("emits nothing for output that ended with a newline, once for one that did not", () => {
    expect(split(["a\n"])).toHaveLength(1);
    expect(split(["a"])).toEqual([{ text: "a", bytes: 1, truncated: false }]);
    expect(split([])).toEqual([]);
  });

  it("cuts a long line at the cap, counts all of it, and goes on with the next", () => {
    const lines = split(["x".repeat(700), "y".repeat(700), "\nnext\n"], 1000);
    expect(lines).toEqual([
      { text: "x".repeat(700) + "y".repeat(300), bytes: 1400, truncated: true },
      { text: "next", bytes: 4, truncated: false },
    ]);
  });

  it("never cuts inside a UTF-8 character", () => {
    // "é" is 2 bytes and "€" 3: a cap inside either drops the whole character.
    expect(split(["aé€\n"], 2)[0]?.text).toBe("a");
    expect(split(["aé€\n"], 4)[0]?.text).toBe("aé");
    expect(split(["aé€\n"], 6)[0]?.text).toBe("aé€");
  });

  it("decodes a character split across chunks", () => {
    const euro = Buffer.from("€");
    expect(split([euro.subarray(0, 1), euro.subarray(1), "\n"])[0]?.text).toBe("€");
  });
});
