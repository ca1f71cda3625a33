/** What a progress line shows: counts, a summary that must stay visible, and a detail that may be cut. */
export interface ProgressState {
  done: number;
  total: number;
  /** Always shown in full (e.g. `pass 11/12 reward=1`). */
  summary?: string;
  /** Shown as far as the width allows, cut first (e.g. the last episode's task id). */
  detail?: string;
  etaSeconds?: number;
}

const MAX_BAR_WIDTH = 30;
const MIN_BAR_WIDTH = 8;
const DETAIL_RESERVE = 24;

/**
 * One progress line that fits in `columns - 1` characters (a full last column makes terminals wrap): the
 * label, counts, ETA and summary are kept; the bar shrinks, then goes; the detail is cut last with "…".
 */
export function formatProgressLine(label: string, state: ProgressState, columns: number): string {
  const fraction = state.total === 0 ? 1 : state.done / state.total;
  const eta = state.etaSeconds === undefined ? "" : ` eta ${Math.round(state.etaSeconds)}s`;
  const head = `${label} ${state.done}/${state.total}`;
  const summary = state.summary ? ` ${state.summary}` : "";
  const detail = state.detail ? ` ${state.detail}` : "";
  const width = Math.max(20, columns - 1);
  const fixed = head.length + eta.length + summary.length;
  // The detail keeps a readable start (a task id) before the bar takes what is left.
  const room = width - fixed - Math.min(detail.length, DETAIL_RESERVE) - 3; // " [" and "]"
  const barWidth = Math.min(MAX_BAR_WIDTH, room);
  const bar =
    barWidth >= MIN_BAR_WIDTH
      ? ` [${"#".repeat(Math.round(fraction * barWidth))}${"-".repeat(barWidth - Math.round(fraction * barWidth))}]`
      : "";
  const line = `${head}${bar}${eta}${summary}`;
  const left = width - line.length;
  if (detail.length <= left) return `${line}${detail}`;
  return left >= 2 ? `${line}${detail.slice(0, left - 1)}…` : line;
}

/** A one-line progress bar on stderr (redrawn in a terminal, a line every 10% otherwise). */
export function createProgressBar(label: string): {
  update(state: ProgressState): void;
  finish(): void;
} {
  const interactive = process.stderr.isTTY === true;
  let lastDecile = -1;
  let started = Date.now();
  return {
    update(state) {
      if (state.done === 0) started = Date.now();
      const fraction = state.total === 0 ? 1 : state.done / state.total;
      const elapsedSeconds = (Date.now() - started) / 1000;
      const withEta: ProgressState =
        state.done > 0 && state.total > state.done
          ? { ...state, etaSeconds: (elapsedSeconds / state.done) * (state.total - state.done) }
          : state;
      if (interactive) {
        const columns = process.stderr.columns ?? 80;
        process.stderr.write(`\r${formatProgressLine(label, withEta, columns).padEnd(columns - 1)}`);
      } else {
        const decile = Math.floor(fraction * 10);
        if (decile !== lastDecile) {
          lastDecile = decile;
          process.stderr.write(`${formatProgressLine(label, withEta, Number.POSITIVE_INFINITY)}\n`);
        }
      }
    },
    finish() {
      if (interactive) process.stderr.write("\n");
    },
  };
}
