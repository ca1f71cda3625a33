import { describe, expect, it } from "vitest";
import { passAtK } from "./pass-at-k.js";

describe("passAtK", () => {
  it("matches known values", () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 12);
    expect(passAtK(5, 2, 5)).toBe(1);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 5, 1)).toBe(1);
    // 1 - C(6,2)/C(8,2) = 1 - 15/28
    expect(passAtK(8, 2, 2)).toBeCloseTo(13 / 28, 12);
  });

  it("equals the pass rate at k = 1", () => {
    for (let successes = 0; successes <= 16; successes += 1) {
      expect(passAtK(16, successes, 1)).toBeCloseTo(successes / 16, 12);
    }
  });

  it("stays finite for large n where binomial coefficients would overflow", () => {
    const value = passAtK(2000, 10, 100);
    expect(value).toBeGreaterThan(0);
    expect(value).toBeLessThan(1);
  });

  it("rejects k larger than n and impossible counts", () => {
    expect(() => passAtK(4, 1, 8)).toThrow(RangeError);
    expect(() => passAtK(4, 5, 1)).toThrow(/successes <= episodes/);
    expect(() => passAtK(4, 1, 0)).toThrow(RangeError);
  });
});
