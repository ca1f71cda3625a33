import type { AppContext } from "./app.js";
import { lineChart, type LineSeries } from "./charts.js";
import { h, link, replaceChildren } from "./dom.js";
import { formatCount, formatTokens } from "./format.js";
import type { ListRow } from "./list-model.js";

export interface StepPoint {
  step: number;
  harness: string;
  episodes: number;
  meanReward: number | null;
  meanRuntimeErrors: number;
  meanToolCalls: number;
  meanToolOutputTokens: number | null;
}

/** Per step (and harness): episodes, mean reward, PTC errors, tool calls and tool-output tokens per episode. */
export function stepPoints(rows: readonly ListRow[]): StepPoint[] {
  const groups = new Map<string, ListRow[]>();
  for (const row of rows) {
    if (row.step === null) continue;
    const key = `${row.harness}\u0000${row.step}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const mean = (values: number[]): number | null =>
    values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  return [...groups.values()]
    .map((group) => ({
      step: group[0]!.step!,
      harness: group[0]!.harness,
      episodes: group.length,
      meanReward: mean(group.flatMap((row) => (row.reward === null ? [] : [row.reward]))),
      meanRuntimeErrors: mean(group.map((row) => row.runtimeErrors)) ?? 0,
      meanToolCalls: mean(group.map((row) => row.toolCalls)) ?? 0,
      meanToolOutputTokens: mean(
        group.flatMap((row) => (row.toolOutputTokens === null ? [] : [row.toolOutputTokens])),
      ),
    }))
    .sort((left, right) => left.step - right.step || left.harness.localeCompare(right.harness));
}

/** One colour per harness, the same as the eval report's (PTC teal, DTC red, Hybrid yellow). */
const HARNESS_CLASSES: Record<string, string> = { ptc: "series-0", dtc: "series-1", hybrid: "series-2" };
const OTHER_CLASSES = ["series-3", "series-4"];

function chart(
  points: readonly StepPoint[],
  title: string,
  value: (point: StepPoint) => number | null,
  yMax?: number,
): HTMLElement {
  const harnesses = [...new Set(points.map((point) => point.harness))];
  const series: LineSeries[] = harnesses.map((harness, index) => ({
    name: harness,
    className: HARNESS_CLASSES[harness] ?? OTHER_CLASSES[index % OTHER_CLASSES.length]!,
    points: points
      .filter((point) => point.harness === harness)
      .map((point) => ({ x: point.step, y: value(point) })),
  }));
  return h(
    "figure",
    { class: "rl-chart" },
    h("figcaption", {}, title),
    lineChart({
      series,
      width: 560,
      height: 220,
      xLabel: "trainer step",
      yLabel: title,
      ...(yMax === undefined ? {} : { yMax }),
    }),
    h(
      "div",
      { class: "legend" },
      ...series.map((entry) =>
        h("span", {}, h("span", { class: `swatch ${entry.className}` }), ` ${entry.name}`),
      ),
    ),
  );
}

/** The training dynamics of recorded rollouts, by the trainer's step. */
export function renderRlPage(main: HTMLElement, app: AppContext): void {
  const points = stepPoints(app.rows);
  const recorded = app.rows.filter((row) => row.kind === "rollout").length;
  if (points.length === 0) {
    replaceChildren(
      main,
      h("h1", {}, "RL steps"),
      h(
        "p",
        {},
        recorded > 0
          ? `${formatCount(recorded)} rollout episodes are recorded, but none carries a trainer step: send "step" when creating episodes (POST /v1/episodes {..., "step": 80}).`
          : "No episode here carries a trainer step. Record a training run with `progagent rollout serve --record <dir>` (the trainer sends its step when it creates an episode), then open <dir> here.",
      ),
    );
    return;
  }
  replaceChildren(
    main,
    h(
      "h1",
      {},
      "RL steps",
      h(
        "span",
        { class: "note" },
        ` ${formatCount(points.reduce((sum, point) => sum + point.episodes, 0))} episodes over ${formatCount(new Set(points.map((point) => point.step)).size)} steps`,
      ),
    ),
    h(
      "div",
      { class: "rl-charts" },
      chart(points, "reward", (point) => point.meanReward, 1),
      chart(points, "PTC errors / episode", (point) => point.meanRuntimeErrors),
      chart(points, "tool calls / episode", (point) => point.meanToolCalls),
      chart(points, "tool-output tokens / episode", (point) => point.meanToolOutputTokens),
    ),
    h(
      "table",
      { class: "steps" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...["step", "harness", "episodes", "reward", "PTC errors", "tool calls", "tool-output tokens"].map(
            (label) => h("th", {}, label),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        ...points.map((point) =>
          h(
            "tr",
            {},
            h(
              "td",
              {},
              link(
                `/?f.step=${point.step}&f.harness=${encodeURIComponent(`=${point.harness}`)}`,
                {},
                String(point.step),
              ),
            ),
            h("td", {}, point.harness),
            h("td", { class: "number" }, formatCount(point.episodes)),
            h("td", { class: "number" }, point.meanReward === null ? "-" : point.meanReward.toFixed(3)),
            h("td", { class: "number" }, point.meanRuntimeErrors.toFixed(2)),
            h("td", { class: "number" }, point.meanToolCalls.toFixed(1)),
            h("td", { class: "number" }, formatTokens(point.meanToolOutputTokens)),
          ),
        ),
      ),
    ),
  );
}
