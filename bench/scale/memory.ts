/** bench:scale's memory guard: how much a burst of live episodes is expected to take. */
/** Bursts smaller than this measure too little memory to estimate from alone. */
export const SMALL_BURST = 512;

/**
 * What a burst of `size` is expected to take at its peak, from the peaks of the earlier bursts: the largest one
 * plus, for each episode beyond it, the largest cost per further episode between two earlier bursts (each burst's
 * peak also holds what does not grow with N: the host's caches, the spawner, allocator slack), with a quarter's
 * margin. The peak per episode of a small burst (11-16 MB at N = 16 here, against 4-5 MB per further episode
 * from 512 to 1,024) overstated a 2,048 burst by 2-3x and skipped it for memory it never needed. Before any
 * burst: `firstGuessBytes` (--memory-per-episode) for each episode, which stays the least per further episode
 * until a burst of `SMALL_BURST` has been measured.
 */
export function memoryEstimate(
  peaks: ReadonlyArray<{ size: number; peakBytes: number }>,
  size: number,
  firstGuessBytes: number,
): { neededBytes: number; perEpisodeBytes: number } {
  const margin = 1.25;
  const measured = peaks.filter((peak) => peak.size > 0 && peak.peakBytes > 0);
  if (measured.length === 0) return { neededBytes: size * firstGuessBytes, perEpisodeBytes: firstGuessBytes };
  const largest = measured.reduce((a, b) => (b.size > a.size ? b : a));
  let perEpisode = 0;
  for (const a of measured)
    for (const b of measured)
      if (b.size > a.size) perEpisode = Math.max(perEpisode, (b.peakBytes - a.peakBytes) / (b.size - a.size));
  // One burst alone (or peaks that did not grow): all of its peak is counted as per-episode cost.
  if (perEpisode <= 0) perEpisode = largest.peakBytes / largest.size;
  // The peaks of small bursts are within MemAvailable's noise (0.0 GB at 64 in one run, then 0.4 GB taken at
  // 256 against 0.2 GB estimated): until a burst of SMALL_BURST episodes has been measured, the first guess
  // stays the least cost per further episode.
  if (largest.size < SMALL_BURST) perEpisode = Math.max(perEpisode, firstGuessBytes);
  const beyond = Math.max(0, size - largest.size);
  const neededBytes =
    (size <= largest.size
      ? (largest.peakBytes * size) / largest.size
      : largest.peakBytes + beyond * perEpisode) * margin;
  return { neededBytes, perEpisodeBytes: perEpisode * margin };
}
