import { describe, expect, it } from "vitest";
import { memoryEstimate } from "../bench/scale/memory.js";

const MB = 1024 ** 2;

describe("bench:scale's memory guard", () => {
  it("uses the first guess for every episode before any burst", () => {
    expect(memoryEstimate([], 16, 8 * MB)).toEqual({ neededBytes: 128 * MB, perEpisodeBytes: 8 * MB });
  });

  it("counts a lone burst's whole peak per episode, with a quarter's margin", () => {
    const { neededBytes } = memoryEstimate([{ size: 16, peakBytes: 160 * MB }], 64, 8 * MB);
    expect(neededBytes).toBe((160 + 48 * 10) * MB * 1.25);
    const large = memoryEstimate([{ size: 512, peakBytes: 1024 * MB }], 1024, 8 * MB);
    expect(large.neededBytes).toBe((1024 + 512 * 2) * MB * 1.25);
  });

  it("keeps the first guess as the least per further episode until a burst of 512 was measured", () => {
    // MemAvailable's noise: 64 episodes measured as nothing, 256 as 0.4 GB.
    const peaks = [
      { size: 16, peakBytes: 30 * MB },
      { size: 64, peakBytes: 1 * MB },
      { size: 256, peakBytes: 400 * MB },
    ];
    const { neededBytes, perEpisodeBytes } = memoryEstimate(peaks, 512, 8 * MB);
    expect(perEpisodeBytes).toBe(8 * MB * 1.25);
    expect(neededBytes).toBe((400 + 256 * 8) * MB * 1.25);
    // Once 512 is measured, the measured steps decide, even below the first guess.
    const measured = memoryEstimate([...peaks, { size: 512, peakBytes: 1700 * MB }], 1024, 8 * MB);
    expect(measured.perEpisodeBytes).toBeCloseTo((1300 / 256) * MB * 1.25, 0);
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
