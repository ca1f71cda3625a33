import { describe, expect, it } from "vitest";
import { memoryEstimate } from "../bench/scale/memory.js";

const MB = 1024 ** 2;

describe("bench:scale's memory guard", () => {
  it("uses the first guess for every episode before any burst", () => {
    expect(memoryEstimate([], 16, 8 * MB)).toEqual({ neededBytes: 128 * MB, perEpisodeBytes: 8 * MB });
  });

  it("counts a lone burst's whole peak per episode, with a quarter's margin", () => {
    const { neededBytes } = memoryEstimate([{ size: 16, peakBytes: 160 * MB }], 64, 8 * MB);
    expect(neededBytes).toBe(64 * 10 * MB * 1.25);
  });

  it("grows from the largest burst by the largest cost per further episode, not by the small bursts' average", () => {
    // A fixed 150 MB plus 5 MB per episode: 16 -> 230 MB (14.4 MB per episode), 1,024 -> 5,270 MB.
    const peaks = [16, 64, 256, 512, 1024].map((size) => ({ size, peakBytes: (150 + 5 * size) * MB }));
    const { neededBytes, perEpisodeBytes } = memoryEstimate(peaks, 2048, 8 * MB);
    expect(perEpisodeBytes).toBeCloseTo(5 * MB * 1.25, 0);
    expect(neededBytes).toBeCloseTo((150 + 5 * 2048) * MB * 1.25, 0);
    // The old rule (largest peak per episode x N x 1.25) said 36.9 GB for what takes 10.1 GB.
    expect(neededBytes).toBeLessThan((14.375 * 2048 * MB * 1.25) / 2.5);
  });

  it("takes the steepest step between any two bursts, so memory that grows faster than linearly is not missed", () => {
    const peaks = [
      { size: 256, peakBytes: 1000 * MB },
      { size: 512, peakBytes: 2000 * MB },
      { size: 1024, peakBytes: 6000 * MB },
    ];
    const { perEpisodeBytes, neededBytes } = memoryEstimate(peaks, 2048, 8 * MB);
    expect(perEpisodeBytes).toBeCloseTo((4000 / 512) * MB * 1.25, 0);
    expect(neededBytes).toBeCloseTo((6000 + 1024 * (4000 / 512)) * MB * 1.25, 0);
  });

  it("scales down from the largest burst for a smaller one", () => {
    const { neededBytes } = memoryEstimate([{ size: 512, peakBytes: 2560 * MB }], 256, 8 * MB);
    expect(neededBytes).toBe(1280 * MB * 1.25);
  });
});
