/** A one-line progress bar on stderr (redrawn in a terminal, a line every 10% otherwise). */
export function createProgressBar(label: string): {
  update(done: number, total: number, note?: string): void;
  finish(): void;
} {
  const interactive = process.stderr.isTTY === true;
  let lastDecile = -1;
  let started = Date.now();
  return {
    update(done, total, note = "") {
      if (done === 0) started = Date.now();
      const fraction = total === 0 ? 1 : done / total;
      const elapsedSeconds = (Date.now() - started) / 1000;
      const eta =
        done > 0 && total > done ? ` eta ${Math.round((elapsedSeconds / done) * (total - done))}s` : "";
      const width = 30;
      const filled = Math.round(fraction * width);
      const line = `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}${eta} ${note}`;
      if (interactive) {
        process.stderr.write(
          `\r${line.slice(0, (process.stderr.columns ?? 120) - 1).padEnd(Math.min(119, (process.stderr.columns ?? 120) - 1))}`,
        );
      } else {
        const decile = Math.floor(fraction * 10);
        if (decile !== lastDecile) {
          lastDecile = decile;
          process.stderr.write(`${line}\n`);
        }
      }
    },
    finish() {
      if (interactive) process.stderr.write("\n");
    },
  };
}
