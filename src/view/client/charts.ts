import { svg } from "./dom.js";
import { formatCount } from "./format.js";

/** Small SVG charts drawn by the page itself: no chart library to load for a bar per turn or a line per step. */

const MARGIN = { top: 12, right: 12, bottom: 34, left: 56 };

/** Round tick values from 0 to at least `max`. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((value) => value >= rough)!;
  const ticks: number[] = [];
  for (let value = 0; value < max + step * 0.999; value += step) ticks.push(Math.round(value * 1e6) / 1e6);
  return ticks;
}

function frame(width: number, height: number, ticks: number[], yLabel: string, xLabel: string): SVGElement[] {
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const top = ticks[ticks.length - 1]!;
  const parts: SVGElement[] = [];
  for (const tick of ticks) {
    const y = MARGIN.top + plotHeight - (tick / top) * plotHeight;
    parts.push(svg("line", { x1: MARGIN.left, x2: width - MARGIN.right, y1: y, y2: y, class: "grid" }));
    parts.push(
      svg("text", { x: MARGIN.left - 6, y: y + 4, "text-anchor": "end", class: "tick" }, formatCount(tick)),
    );
  }
  parts.push(
    svg(
      "text",
      {
        x: 12,
        y: MARGIN.top + plotHeight / 2,
        transform: `rotate(-90 12 ${MARGIN.top + plotHeight / 2})`,
        "text-anchor": "middle",
        class: "axis-label",
      },
      yLabel,
    ),
  );
  parts.push(
    svg(
      "text",
      {
        x: MARGIN.left + (width - MARGIN.left - MARGIN.right) / 2,
        y: height - 4,
        "text-anchor": "middle",
        class: "axis-label",
      },
      xLabel,
    ),
  );
  return parts;
}

export interface BarSegment {
  value: number;
  className: string;
}

export interface StackedBar {
  label: string;
  segments: BarSegment[];
  /** Shown on hover. */
  title: string;
}

/** Stacked bars, one per item (a turn), with hover titles. */
export function stackedBarChart(options: {
  bars: readonly StackedBar[];
  width: number;
  height: number;
  yLabel: string;
  xLabel: string;
  /** A horizontal line (the context window) drawn when it is within twice the tallest bar. */
  limit?: { value: number; label: string };
  /** The top of the y axis at least (two charts side by side share a scale). */
  yMax?: number;
}): SVGElement {
  const { bars, width, height } = options;
  const tallest = Math.max(
    1,
    options.yMax ?? 0,
    ...bars.map((bar) => bar.segments.reduce((sum, segment) => sum + segment.value, 0)),
  );
  const showLimit = options.limit !== undefined && options.limit.value <= tallest * 2;
  const ticks = niceTicks(showLimit ? Math.max(tallest, options.limit!.value) : tallest);
  const top = ticks[ticks.length - 1]!;
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.max(1, Math.min(slot * 0.8, 56));
  const parts = frame(width, height, ticks, options.yLabel, options.xLabel);
  const labelEvery = Math.max(1, Math.ceil(bars.length / 12));
  bars.forEach((bar, index) => {
    const x = MARGIN.left + index * slot + (slot - barWidth) / 2;
    let base = MARGIN.top + plotHeight;
    const group = svg("g", { class: "bar" }, svg("title", {}, bar.title));
    for (const segment of bar.segments) {
      const segmentHeight = (segment.value / top) * plotHeight;
      base -= segmentHeight;
      group.append(
        svg("rect", {
          x,
          y: base,
          width: barWidth,
          height: Math.max(0, segmentHeight),
          class: segment.className,
        }),
      );
    }
    parts.push(group);
    if (index % labelEvery === 0)
      parts.push(
        svg(
          "text",
          { x: x + barWidth / 2, y: MARGIN.top + plotHeight + 14, "text-anchor": "middle", class: "tick" },
          bar.label,
        ),
      );
  });
  if (showLimit) {
    const y = MARGIN.top + plotHeight - (options.limit!.value / top) * plotHeight;
    parts.push(svg("line", { x1: MARGIN.left, x2: width - MARGIN.right, y1: y, y2: y, class: "limit" }));
    parts.push(
      svg(
        "text",
        { x: width - MARGIN.right, y: y - 4, "text-anchor": "end", class: "limit-label" },
        options.limit!.label,
      ),
    );
  }
  return svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, width, height, class: "chart", role: "img" },
    ...parts,
  );
}

export interface LineSeries {
  name: string;
  className: string;
  points: ReadonlyArray<{ x: number; y: number | null }>;
}

/** Lines over a numeric x axis (training steps), a point per value, hover titles. */
export function lineChart(options: {
  series: readonly LineSeries[];
  width: number;
  height: number;
  yLabel: string;
  xLabel: string;
  /** A fixed y range top (1 for a reward). */
  yMax?: number;
}): SVGElement {
  const { width, height } = options;
  const values = options.series.flatMap((series) => series.points.map((point) => point.y ?? 0));
  const ticks = niceTicks(options.yMax ?? Math.max(0, ...values));
  const top = ticks[ticks.length - 1]!;
  const xs = options.series.flatMap((series) => series.points.map((point) => point.x));
  const xMin = Math.min(...xs, 0);
  const xMax = Math.max(...xs, xMin + 1);
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const xOf = (x: number): number => MARGIN.left + ((x - xMin) / (xMax - xMin)) * plotWidth;
  const yOf = (y: number): number => MARGIN.top + plotHeight - (y / top) * plotHeight;
  const parts = frame(width, height, ticks, options.yLabel, options.xLabel);
  // Steps are whole numbers: no tick between two of them.
  for (const tick of niceTicks(xMax - xMin, 5).filter((value) => Number.isInteger(value))) {
    const x = xOf(xMin + tick);
    if (x > width - MARGIN.right + 1) continue;
    parts.push(
      svg(
        "text",
        { x, y: MARGIN.top + plotHeight + 14, "text-anchor": "middle", class: "tick" },
        formatCount(xMin + tick),
      ),
    );
  }
  for (const series of options.series) {
    const points = series.points.filter((point): point is { x: number; y: number } => point.y !== null);
    if (points.length === 0) continue;
    const path = points
      .map(
        (point, index) => `${index === 0 ? "M" : "L"}${xOf(point.x).toFixed(1)},${yOf(point.y).toFixed(1)}`,
      )
      .join(" ");
    parts.push(svg("path", { d: path, class: `line ${series.className}` }));
    for (const point of points)
      parts.push(
        svg(
          "circle",
          { cx: xOf(point.x), cy: yOf(point.y), r: 3, class: `point ${series.className}` },
          svg("title", {}, `${series.name}, step ${point.x}: ${formatCount(point.y)}`),
        ),
      );
  }
  return svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, width, height, class: "chart", role: "img" },
    ...parts,
  );
}
