import { describe, expect, it } from "vitest";
import { isRunId, newRunId } from "../../src/store/run-id.js";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

describe("newRunId", () => {
  it("makes run_ + 26 lowercase Crockford base32 characters, unique and in creation order", () => {
    const ids = Array.from({ length: 10_000 }, () => newRunId());
    for (const id of ids.slice(0, 50)) expect(id).toMatch(/^run_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("stays ordered within one millisecond and when the clock steps back", () => {
    const later = Date.now() + 3_600_000;
    const ids = [newRunId(later), newRunId(later), newRunId(later - 5000), newRunId(later)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
  });

  it("puts the time first, so a later millisecond sorts after", () => {
    const base = Date.now() + 7_200_000;
    const a = newRunId(base);
    const b = newRunId(base + 1);
    expect(a.slice(0, 14) < b.slice(0, 14)).toBe(true);
    const time = [...newRunId(base + 2).slice(4, 14)].reduce((n, c) => n * 32 + ALPHABET.indexOf(c), 0);
    expect(time).toBe(base + 2);
  });

  it("recognises its own shape only", () => {
    expect(isRunId(newRunId())).toBe(true);
    for (const bad of [
      "run_",
      "run_0123456789abcdefghjkmnpqrs".toUpperCase(),
      "run_0123456789abcdefghjkmnpqri",
      "job_0123456789abcdefghjkmnpqrs",
    ]) {
      expect(isRunId(bad), bad).toBe(false);
    }
  });
});
