import type { Config, TopLevelSpec } from "vega-lite";
import { HARNESSES, SCALES, harnessLabel } from "./dimensions.js";
import { buildReportContent, type ReportInput, type ReportTable } from "./report-content.js";
import type { SummaryRow } from "./results-file.js";

// One colour per harness in every chart, so a reader matches lines and bars at a glance.
const HARNESS_COLORS: Record<(typeof HARNESSES)[number], string> = {
  dtc: "#c8553d",
  ptc: "#1d7874",
  hybrid: "#e0a100",
};

type SummaryField = "passRate" | "meanToolOutputTokens" | "meanToolCalls";

interface ChartDefinition {
  id: string;
  caption: string;
  spec: (data: ChartDatum[], colors: ColorScale) => TopLevelSpec;
}

interface ChartDatum {
  harness: string;
  scale: string;
  // null where every episode of the cell ended with a model error; Vega-Lite leaves such points out.
  passRate: number | null;
  meanToolOutputTokens: number | null;
  meanToolCalls: number | null;
  /** `32% context limit` where some episodes of the cell stopped at the context limit, else "". */
  contextLimitLabel: string;
}

interface ColorScale {
  domain: string[];
  range: string[];
}

const CHARTS: readonly ChartDefinition[] = [
  {
    id: "pass-rate",
    caption: "Pass rate by environment scale, one line per harness (share of episodes with reward 1).",
    spec: (data, colors) => lineChart(data, colors, "passRate", "Pass rate", [0, 1]),
  },
  {
    id: "tool-output-tokens",
    caption: "Tool-output tokens appended to the model's context per episode, by scale and harness.",
    spec: (data, colors) => lineChart(data, colors, "meanToolOutputTokens", "Tool-output tokens / episode"),
  },
  {
    id: "tool-calls",
    caption:
      "Tool calls per episode (direct and from code), by scale and harness. A label over a bar gives the share of its episodes that stopped at the context limit, which cuts their calls short.",
    spec: (data, colors) => {
      const x = {
        field: "scale",
        type: "ordinal" as const,
        title: "Environment scale",
        sort: [...SCALES],
        axis: { labelAngle: 0 },
      };
      const xOffset = { field: "harness", type: "nominal" as const, sort: colors.domain };
      const y = { field: "meanToolCalls", type: "quantitative" as const, title: "Tool calls / episode" };
      return {
        data: { values: data },
        width: 240,
        height: 200,
        config: CHART_CONFIG,
        layer: [
          {
            mark: { type: "bar" },
            encoding: {
              x,
              xOffset,
              y,
              color: {
                field: "harness",
                type: "nominal",
                title: "Harness",
                scale: colors,
                sort: colors.domain,
              },
            },
          },
          {
            mark: { type: "text", angle: 270, align: "left", dx: 3, fontSize: 9, color: "#59636e" },
            encoding: { x, xOffset, y, text: { field: "contextLimitLabel", type: "nominal" } },
          },
        ],
      };
    },
  },
];

/**
 * Renders a run's metrics as one self-contained HTML page: the same tables as the Markdown report and three
 * charts rendered here to inline SVG, with no scripts, external styles or fonts, so it opens offline and can
 * be mailed or archived as a single file.
 */
export async function renderHtmlReport(input: ReportInput): Promise<string> {
  const content = buildReportContent(input);
  const figures = await renderCharts(input.summary);
  const info = content.runInfo
    .map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join("");
  const notes = (items: readonly string[]): string =>
    items.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join("\n");
  const codeStyle = content.codeStyle
    ? `${htmlTable(content.codeStyle)}\n<p class="note">${escapeHtml(content.codeStyleNote)}</p>`
    : `<p class="note">No code blocks in this run.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(content.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>
<h1>${escapeHtml(content.title)}</h1>
<dl class="run-info">${info}</dl>
</header>
<section id="summary">
<h2>Summary by harness and scale</h2>
${htmlTable(content.summary)}
${notes(content.summaryNotes)}
</section>
<section id="charts">
<h2>Charts</h2>
<div class="charts">
${figures.join("\n")}
</div>
</section>
<section id="code-style">
<h2>Code style (PTC and Hybrid)</h2>
${codeStyle}
</section>
<section id="per-task">
<h2>Per task</h2>
${htmlTable(content.perTask)}
</section>
${
  content.failures
    ? `<section id="failures">
<h2>Failed episodes</h2>
${htmlTable(content.failures)}
<p class="note">${escapeHtml(content.failuresNote)}</p>
</section>`
    : ""
}
${
  content.benchmark
    ? `<section id="benchmark" class="paper">
<h2>${escapeHtml(content.benchmark.heading)}</h2>
${htmlTable(content.benchmark.run)}
${htmlTable(content.benchmark.paper)}
<ul>${content.benchmark.notes.map((note) => `<li>${escapeHtml(note)}</li>`).join("")}</ul>
</section>`
    : ""
}
${
  content.cost
    ? `<section id="cost">
<h2>What the run cost</h2>
${htmlTable(content.cost)}
</section>`
    : ""
}
<section id="paper-reference" class="paper">
<h2>${escapeHtml(content.paperHeading)}</h2>
${htmlTable(content.paperPassAtEight)}
<ul>${content.paperNotes.map((note) => `<li>${escapeHtml(note)}</li>`).join("")}</ul>
</section>
</main>
</body>
</html>
`;
}

async function renderCharts(summary: readonly SummaryRow[]): Promise<string[]> {
  const present = HARNESSES.filter((harness) => summary.some((row) => row.harness === harness));
  const colors: ColorScale = {
    domain: present.map(harnessLabel),
    range: present.map((harness) => HARNESS_COLORS[harness]),
  };
  const data: ChartDatum[] = summary.map((row) => ({
    harness: harnessLabel(row.harness),
    scale: row.scale,
    passRate: row.passRate,
    meanToolOutputTokens: row.meanToolOutputTokens,
    meanToolCalls: row.meanToolCalls,
    contextLimitLabel:
      row.contextLimitShare !== null && row.contextLimitShare > 0
        ? `${Math.round(row.contextLimitShare * 100)}% ctx limit`
        : "",
  }));
  const figures: string[] = [];
  for (const chart of CHARTS) {
    const svg = await renderSvg(chart.spec(data, colors));
    figures.push(
      `<figure data-chart="${escapeHtml(chart.id)}">\n${svg}\n<figcaption>${escapeHtml(chart.caption)}</figcaption>\n</figure>`,
    );
  }
  return figures;
}

async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // Loaded when a report is rendered, not by every command that imports the evaluation layer (about 0.25 s).
  const [vega, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const CHART_CONFIG: Config = {
  font: "Helvetica, Arial, sans-serif",
  view: { stroke: null },
  axis: { labelFontSize: 12, titleFontSize: 12, titleFontWeight: "normal", gridColor: "#e6e6e6" },
  legend: { orient: "top", labelFontSize: 12, titleFontSize: 12, titleFontWeight: "normal" },
};

function lineChart(
  data: ChartDatum[],
  colors: ColorScale,
  field: SummaryField,
  title: string,
  domain?: [number, number],
): TopLevelSpec {
  return {
    data: { values: data },
    width: 240,
    height: 200,
    config: CHART_CONFIG,
    mark: { type: "line", point: { size: 60, filled: true }, strokeWidth: 2.5 },
    encoding: {
      x: {
        field: "scale",
        type: "ordinal",
        title: "Environment scale",
        sort: [...SCALES],
        axis: { labelAngle: 0 },
      },
      y: { field, type: "quantitative", title, scale: domain ? { domain, zero: true } : { zero: true } },
      color: { field: "harness", type: "nominal", title: "Harness", scale: colors, sort: colors.domain },
    },
  };
}

function htmlTable(table: ReportTable): string {
  const cell = (tag: "th" | "td", value: string, numeric: boolean): string =>
    `<${tag}${numeric ? ' class="number"' : ""}>${escapeHtml(value)}</${tag}>`;
  const head = table.columns.map((column) => cell("th", column.label, column.numeric)).join("");
  const body = table.rows
    .map(
      (row, rowIndex) =>
        `<tr${table.highlighted?.[rowIndex] ? ' class="failed"' : ""}>${row.map((value, index) => cell("td", value, table.columns[index]?.numeric ?? false)).join("")}</tr>`,
    )
    .join("\n");
  return `<div class="table-wrap"><table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const STYLE = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --band: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1200px; margin: 0 auto; padding: 24px 24px 48px; }
h1 { font-size: 1.6rem; margin: 0 0 12px; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 32px 0 12px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
.run-info { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
.run-info dt { color: var(--muted); }
.run-info dd { margin: 0; overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
/* Long headers wrap so that wide tables fit the page; values never do. */
th { background: var(--band); font-weight: 600; white-space: normal; max-width: 9em; vertical-align: bottom; }
tbody tr:nth-child(even) td { background: #fbfcfd; }
tbody tr.failed td { background: #fdecea; }
/* Answers and check lists are model data of any length: they wrap instead of widening the table. */
#failures td:nth-child(n+6) { white-space: normal; min-width: 16em; max-width: 40em; overflow-wrap: anywhere; }
.number { text-align: right; }
.note { color: var(--muted); font-size: 0.85rem; max-width: 80ch; }
.charts { display: flex; flex-wrap: wrap; gap: 24px; }
figure { margin: 0; padding: 12px; border: 1px solid var(--line); border-radius: 6px; max-width: 100%; }
figure svg { display: block; max-width: 100%; height: auto; }
/* The caption takes the chart's width instead of widening the figure. */
figcaption { color: var(--muted); font-size: 0.85rem; margin-top: 8px; width: 0; min-width: 100%; }
.paper { background: #fff8e6; border: 1px solid #f0d58a; border-radius: 6px; padding: 4px 16px 12px; margin-top: 32px; }
.paper h2 { border-bottom-color: #f0d58a; }
`;
