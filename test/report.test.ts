import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trajectorySchema, type Trajectory } from "../src/harness/trajectory.js";
import { formatSummaryTable, resultsFileSchema, writeReports } from "../src/eval/index.js";

// The Debian package's binary; /usr/bin/chromium is a shell wrapper around it.
const CHROMIUM_PATHS = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"];
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const chromiumPath = CHROMIUM_PATHS.find((path) => existsSync(path));
if (!chromiumPath) {
  console.warn(
    `Skipping the browser check of report.html: no Chromium at ${CHROMIUM_PATHS.join(" or ")}; install it with: apt-get install -y chromium`,
  );
}

const TASKS = ["refund_late_orders", "reconcile_inventory"];
const SAMPLES = 3;

/** A valid trajectory whose numbers follow the paper's trend: DTC degrades with scale, PTC does not. */
function syntheticTrajectory(
  task: string,
  scale: "v0" | "v1",
  harness: "dtc" | "ptc",
  sample: number,
): Trajectory {
  const large = scale === "v1";
  const direct = harness === "dtc";
  const passed = direct ? sample < (large ? 1 : 2) : sample < (large ? 2 : 3);
  const callCount = direct ? (large ? 14 : 9) : large ? 6 : 5;
  const code = [
    "orders = tools.list_orders(status='late')\nfor order in orders:\n    if order['total'] > 100:\n        print(order['id'])",
    "print(tools.get_order(id=3))",
    "try:\n    r = tools['refund_order'](id=3)\nexcept Exception as error:\n    print('failed', error)",
  ];
  return trajectorySchema.parse({
    schemaVersion: 1,
    runId: "run-e2e",
    episodeId: `${task}-${scale}-${harness}-${sample}`,
    task,
    scale,
    seed: 7,
    harness,
    model: "qwen3-8b",
    sample,
    messages: [
      { role: "system", content: "You are an agent." },
      { role: "user", content: `Solve ${task}.` },
    ],
    turns: Array.from({ length: direct ? callCount + 1 : 4 }, (_, index) => ({
      index,
      contextTokens: 1000 * (index + 1),
      completionTokens: 50,
      toolOutputTokens: 300,
      durationMs: 200,
    })),
    toolCalls: Array.from({ length: callCount }, (_, index) => ({
      turn: index,
      name: "get_order",
      args: { id: index },
      via: direct ? "direct" : "code",
      isError: false,
      durationMs: 3,
    })),
    codeBlocks: direct
      ? []
      : code.map((source, turn) => ({
          turn,
          code: source,
          status: turn === 2 && sample === 0 ? "error" : "ok",
          output: "",
          errorType: turn === 2 && sample === 0 ? "KeyError" : null,
          toolCallCount: 1,
          durationMs: 40,
        })),
    runtimeErrors: direct ? 0 : sample === 0 ? 1 : 0,
    refusedDirectCalls: 0,
    toolOutputTokens: direct ? (large ? 30_000 : 12_000) : large ? 4_000 : 3_000,
    finalContextTokens: 20_000,
    endReason: direct && large && sample === 2 ? "context_limit" : "claim_done",
    answer: passed ? "done" : null,
    reward: passed ? 1 : 0,
    checks: [{ id: "answer", passed, message: passed ? "ok" : "wrong answer" }],
    verifierError: null,
    error: null,
    startedAt: "2026-10-20T10:00:00.000Z",
    durationMs: 12_000,
  });
}

describe("writeReports end to end", () => {
  let dir: string;
  let written: Awaited<ReturnType<typeof writeReports>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "progagent-report-e2e-"));
    const lines: string[] = [];
    for (const task of TASKS)
      for (const scale of ["v0", "v1"] as const)
        for (const harness of ["dtc", "ptc"] as const)
          for (let sample = 0; sample < SAMPLES; sample += 1)
            lines.push(JSON.stringify(syntheticTrajectory(task, scale, harness, sample)));
    writeFileSync(join(dir, "trajectories.jsonl"), `${lines.join("\n")}\n`);
    written = await writeReports(dir, { createdAt: "2026-10-20T12:00:00.000Z" });
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes results.json with one row per task x scale x harness and a summary per harness x scale", () => {
    expect(written.resultsPath).toBe(join(dir, "results.json"));
    expect(written.markdownPath).toBe(join(dir, "report.md"));
    expect(written.htmlPath).toBe(join(dir, "report.html"));
    const results = resultsFileSchema.parse(JSON.parse(readFileSync(written.resultsPath, "utf8")));
    expect(results).toMatchObject({ schemaVersion: 2, runId: "run-e2e", model: "qwen3-8b" });
    expect(results.rows).toHaveLength(8);
    for (const row of results.rows) {
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining([
          "task",
          "scale",
          "harness",
          "episodes",
          "passRate",
          "meanToolCalls",
          "meanToolOutputTokens",
          "runtimeErrorsPerEpisode",
        ]),
      );
      expect(row.episodes).toBe(SAMPLES);
    }
    expect(results.summary.map((row) => `${row.harness} ${row.scale}`)).toEqual([
      "dtc v0",
      "dtc v1",
      "ptc v0",
      "ptc v1",
    ]);
    const ptcLarge = results.summary.find((row) => row.harness === "ptc" && row.scale === "v1");
    expect(ptcLarge).toMatchObject({ tasks: 2, episodes: 6, codeBlockCount: 18 });
    expect(ptcLarge?.loopShare).toBeCloseTo(1 / 3, 12);
    expect(ptcLarge?.dtcLikeShare).toBeCloseTo(1 / 3, 12);
    const dtcLarge = results.summary.find((row) => row.harness === "dtc" && row.scale === "v1");
    expect(dtcLarge?.passRate).toBeCloseTo(1 / 3, 12);
    expect(dtcLarge?.contextLimitShare).toBeCloseTo(1 / 3, 12);
    expect(dtcLarge?.loopShare).toBeNull();
  });

  it("writes a Markdown report and a console table with the same summary", () => {
    const markdown = readFileSync(written.markdownPath, "utf8");
    expect(markdown).toContain("- **Episodes:** 24");
    expect(markdown).toContain("| DTC | v1 | 2 | 6 | 0 | 0.33 |");
    // Rows with a failed episode come first, marked.
    expect(markdown).toMatch(/\| (✗ )?refund_late_orders \| v0 \| DTC \| 3 \|/);
    const table = formatSummaryTable(written.summary);
    expect(table.split("\n")).toHaveLength(2 + 4);
    expect(table).toMatch(/^PTC\s+v1\s+2\s+6\s+0\s+0\.67/m);
  });

  it.skipIf(!chromiumPath)(
    "report.html renders offline in Chromium with three charts and no errors",
    async () => {
      let browser: Browser | undefined;
      try {
        browser = await chromium.launch({
          executablePath: chromiumPath,
          args: CHROMIUM_ARGS,
          timeout: 30_000,
        });
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const problems: string[] = [];
        const requests: string[] = [];
        page.on("console", (message) => {
          if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
        });
        page.on("pageerror", (error) => problems.push(error.message));
        page.on("request", (request) => requests.push(request.url()));
        const url = pathToFileURL(written.htmlPath).href;
        await page.goto(url, { waitUntil: "load", timeout: 15_000 });

        const charts = page.locator("figure[data-chart] svg");
        expect(await charts.count()).toBe(3);
        for (const chart of await charts.all()) {
          const box = await chart.boundingBox();
          expect(box?.width ?? 0).toBeGreaterThan(100);
          expect(box?.height ?? 0).toBeGreaterThan(100);
        }
        const chartIds = await page
          .locator("figure[data-chart]")
          .evaluateAll((figures) => figures.map((figure) => figure.getAttribute("data-chart")));
        expect(chartIds).toEqual(["pass-rate", "tool-output-tokens", "tool-calls"]);
        expect(await page.locator("#per-task tbody tr").count()).toBe(8);
        // Self-contained: the page itself is the only thing loaded.
        expect(requests).toEqual([url]);
        expect(problems).toEqual([]);
        await page.screenshot({ path: "/tmp/report.png", fullPage: true });
      } finally {
        await browser?.close();
      }
    },
    60_000,
  );
});
