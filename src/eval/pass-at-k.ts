/**
 * The unbiased pass@k estimator: the chance that at least one of k episodes drawn without replacement from
 * n episodes (c of them successful) succeeds, `1 - C(n-c, k) / C(n, k)`.
 *
 * Computed as a running product rather than with binomial coefficients, which overflow for large n.
 *
 * @throws RangeError unless 0 <= c <= n and 1 <= k <= n (integers).
 */
export function passAtK(episodes: number, successes: number, k: number): number {
  const valid =
    Number.isInteger(episodes) &&
    Number.isInteger(successes) &&
    Number.isInteger(k) &&
    successes >= 0 &&
    successes <= episodes &&
    k >= 1 &&
    k <= episodes;
  if (!valid) {
    throw new RangeError(
      `pass@k needs integers 0 <= successes <= episodes and 1 <= k <= episodes; got episodes=${episodes}, successes=${successes}, k=${k}`,
    );
  }
  const failures = episodes - successes;
  if (failures < k) return 1;
  // C(f, k) / C(n, k) = prod over i in (f, n] of (1 - k / i)
  let allFail = 1;
  for (let i = failures + 1; i <= episodes; i += 1) allFail *= 1 - k / i;
  return 1 - allFail;
}
