import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEpisodeStore } from "../src/view/episode-store.js";
import { startViewServer, type ViewServer } from "../src/view/view-server.js";
import { syntheticTrajectory, trajectoriesJsonl } from "./helpers/view-trajectories.js";

// The Debian package's binary; /usr/bin/chromium is a shell wrapper around it.
const CHROMIUM_PATHS = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"];
const chromiumPath = CHROMIUM_PATHS.find((path) => existsSync(path));
if (!chromiumPath)
  console.warn(
    `Skipping the viewer's browser tests: no Chromium at ${CHROMIUM_PATHS.join(" or ")} (apt-get install -y chromium)`,
  );

/** Where screenshots go when asked for (PROGAGENT_VIEW_SCREENSHOTS=<dir>), to look at them. */
const screenshotDir = process.env.PROGAGENT_VIEW_SCREENSHOTS;

const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold?</b>`;
const TRUNCATION_MARKER =
  "\n\n... [61234 characters omitted: output truncated to 50000 characters. Print concise summaries (counts, aggregates, the few rows you need) instead of raw data.] ...\n\n";
const RICH_OUTPUT = [
  "found 3 late orders",
  "ORD-1 129.5",
  "{'total': 388.5}",
  "[stderr]:",
  "warning: slow listing",
].join("\n");
const FAILED_OUTPUT = [
  "[stderr]:",
  "Traceback (most recent call last):",
  '  File "<cell-4>", line 2, in <module>',
  "KeyError: 'ORD-77'",
  "[Execution timed out after 60 s and was interrupted. The kernel is still alive: variables and imports are preserved.]",
].join("\n");
const RICH_CODE = `orders = tools["list_orders"](status="late")\nprint("found", len(orders), "late orders")\n# the total\n{"total": 388.5}`;

const dir = mkdtempSync(join(tmpdir(), "view-browser-"));
let server: ViewServer;
let browser: Browser | undefined;

function rolloutRecord(step: number, index: number): unknown {
  const passed = index < step + 1;
  return syntheticTrajectory({
    task: `retail.rl-task-${index % 2}`,
    harness: "ptc",
    sample: index,
    turns: 3 + (index % 2),
    reward: passed ? 1 : 0,
    model: "rollout",
    runId: "rollout-test",
    statuses: step < 2 && index === 0 ? ["error"] : [],
    extra: {
      rollout: { step, endReason: passed ? "claim_done" : "deleted", episodeId: `ep-${step}-${index}` },
    },
  });
}

beforeAll(async () => {
  const runDir = join(dir, "run-main");
  mkdirSync(runDir);
  writeFileSync(
    join(runDir, "trajectories.jsonl"),
    trajectoriesJsonl([
      syntheticTrajectory({
        harness: "ptc",
        turns: 5,
        firstContent: `Looking at ${HOSTILE}`,
        firstOutput: `tool says ${HOSTILE}`,
        outputs: [
          undefined,
          RICH_OUTPUT,
          `head of a long listing${TRUNCATION_MARKER}tail of it`,
          FAILED_OUTPUT,
        ],
        codes: [undefined, RICH_CODE],
        statuses: [undefined, "ok", "ok", "timeout"],
        reward: 0,
      }),
      syntheticTrajectory({
        harness: "dtc",
        turns: 7,
        firstArgs: { note: HOSTILE, page: 1, status: "late and unpaid, over the threshold" },
        reward: 1,
      }),
      syntheticTrajectory({ harness: "ptc", task: "hr.payroll-audit", turns: 3 }),
      syntheticTrajectory({ harness: "dtc", task: "hr.payroll-audit", turns: 9, reward: 0 }),
    ]),
  );
  writeFileSync(join(runDir, "run-config.json"), JSON.stringify({ revealVerdict: false }));
  const recordDir = join(dir, "rollouts");
  mkdirSync(recordDir);
  const records = [];
  for (let step = 0; step < 5; step += 1)
    for (let index = 0; index < 4; index += 1) records.push(rolloutRecord(step, index));
  writeFileSync(join(recordDir, "trajectories.jsonl"), trajectoriesJsonl(records));
  const broken = join(dir, "broken.jsonl");
  writeFileSync(
    broken,
    `${JSON.stringify(syntheticTrajectory({ task: "it_support.reset", harness: "hybrid" }))}\n${JSON.stringify({ metric: 1 })}\n${JSON.stringify(syntheticTrajectory()).slice(0, 500)}`,
  );
  const store = createEpisodeStore([runDir, recordDir, broken, join(dir, "missing-run")], {
    indexCacheDir: null,
  });
  await store.update();
  server = await startViewServer({ store, port: 0, token: "browser-test-token" });
  if (chromiumPath)
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
      ],
      timeout: 60_000,
    });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A page that records every console error, page error and failed request: any of them fails the test. */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning")
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()}`));
  await page.goto(server.url, { waitUntil: "load" });
  await page.locator("#episodes tbody tr").first().waitFor();
  return { page, problems };
}

async function screenshot(page: Page, name: string): Promise<void> {
  if (!screenshotDir) return;
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
}

const rowCount = (page: Page): Promise<number> => page.locator("#episodes tbody tr").count();

describe.skipIf(!chromiumPath)("the viewer in Chromium", () => {
  it("lists, filters, sorts and searches, and the address keeps the filter", async () => {
    const { page, problems } = await openPage();
    expect(new URL(page.url()).search).toBe(""); // the token moved to a cookie
    expect(await rowCount(page)).toBe(25);
    await expect.poll(() => page.locator("#counts").textContent()).toContain("25 episodes");
    await screenshot(page, "list");
    await page.selectOption('select[data-column="harness"]', "ptc");
    await expect.poll(() => rowCount(page)).toBe(22);
    await page.fill('input[data-column="task"]', "retail.*");
    await expect.poll(() => rowCount(page)).toBe(21);
    await page.fill('input[data-column="turns"]', ">=4");
    await expect.poll(() => rowCount(page)).toBe(11);
    expect(decodeURIComponent(page.url())).toContain("f.task=retail.*&f.harness==ptc&f.turns=>=4");
    await page.reload();
    await page.locator("#episodes tbody tr").first().waitFor();
    await expect.poll(() => rowCount(page)).toBe(11);
    expect(await page.inputValue('select[data-column="harness"]')).toBe("=ptc");
    expect(await page.inputValue('input[data-column="turns"]')).toBe(">=4");
    await page.click('button.sort[data-sort="turns"]');
    expect(await page.locator("#episodes tbody tr td:nth-child(11)").first().textContent()).toBe("5");
    await page.goto(new URL("/", page.url()).href);
    await page.fill("#search", "keyerror: 'ord-77'");
    await page.click("form.search button[type=submit]");
    await expect.poll(() => rowCount(page)).toBe(1);
    await expect.poll(() => page.locator("#search-note").textContent()).toContain("found in 1 episodes");
    expect(page.url()).toContain("q=keyerror");
    expect(problems).toEqual([]);
  });

  it("shows an episode: reasoning collapsed, code highlighted, output sections, hostile text as text", async () => {
    const { page, problems } = await openPage();
    await page.locator("a.episode-link").first().click();
    await page.locator("section.turn").first().waitFor();
    expect(page.url()).toContain("/episode?key=0.1");
    expect(await page.locator("section.turn").count()).toBe(5);
    expect(await page.locator("details.reasoning").count()).toBe(5);
    expect(await page.locator("details.reasoning[open]").count()).toBe(0);
    expect(await page.locator("pre.code .tok-keyword").count()).toBeGreaterThan(0);
    expect(await page.locator("pre.code .tok-string").count()).toBeGreaterThan(0);
    const turn = page.locator("#turn-1");
    expect(await turn.locator(".section-stdout pre").textContent()).toBe("found 3 late orders\nORD-1 129.5");
    expect(await turn.locator(".section-value pre").textContent()).toBe("{'total': 388.5}");
    expect(await turn.locator(".section-stderr pre").textContent()).toBe("warning: slow listing");
    const failed = page.locator("#turn-3");
    expect(await failed.locator(".section-traceback pre").textContent()).toMatch(
      /^Traceback[\s\S]*KeyError: 'ORD-77'$/,
    );
    expect(await failed.locator(".section-note pre").textContent()).toContain("Execution timed out");
    expect(await failed.locator(".badge.status").textContent()).toBe("timeout");
    expect(await page.locator("#turn-2 pre.truncation").textContent()).toContain("61234 characters omitted");
    // Hostile model text and tool output: shown, never run, never markup.
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("main img, main script, main b").count()).toBe(0);
    expect(await page.locator("#turn-0 pre.assistant-text").textContent()).toBe(`Looking at ${HOSTILE}`);
    expect(await page.locator("#turn-0 .output pre").textContent()).toBe(`tool says ${HOSTILE}`);
    // The verdict: pass/fail per check, expected values hidden for a run without --reveal-verdict.
    expect(await page.locator("#verdict table.checks tbody tr.failed").count()).toBe(1);
    expect(await page.locator("#verdict").textContent()).not.toContain("expected 388.5");
    expect(await page.locator("figure.context-chart svg g.bar").count()).toBe(5);
    await screenshot(page, "episode");
    await page.locator("#turn-1").scrollIntoViewIfNeeded();
    await screenshot(page, "episode-output");
    expect(problems).toEqual([]);
  });

  it("shows an environment call's JSON arguments folded, and compares two episodes turn by turn", async () => {
    const { page, problems } = await openPage();
    await page.goto(new URL("/episode?key=0.2", page.url()).href);
    await page.locator("section.turn").first().waitFor();
    const argumentsBox = page.locator("#turn-0 details.json").first();
    expect(await argumentsBox.getAttribute("open")).toBeNull();
    expect(await argumentsBox.locator("summary").textContent()).toContain("<script>");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.locator(".compare-with a", { hasText: "ptc" }).first().click();
    await page.locator(".compare-row .compare-cell").first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/compare");
    expect(await page.locator(".compare-row:not(.compare-heads)").count()).toBe(7);
    expect(await page.locator("table.compare-counts tbody tr").first().textContent()).toBe("turns75-2");
    await screenshot(page, "compare");
    expect(problems).toEqual([]);
  });

  it("plots recorded rollouts by trainer step", async () => {
    const { page, problems } = await openPage();
    await page.click("header nav a >> text=RL steps");
    await page.locator(".rl-chart").first().waitFor();
    expect(await page.locator(".rl-chart").count()).toBe(4);
    expect(await page.locator(".rl-chart svg path.line").count()).toBe(4);
    expect(await page.locator(".rl-chart").first().locator("circle.point").count()).toBe(5);
    const rows = await page.locator("table.steps tbody tr").allTextContents();
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(/^0ptc40\.250/);
    expect(rows[4]).toMatch(/^4ptc41\.000/);
    await screenshot(page, "rl");
    await page.locator("table.steps tbody tr a").first().click();
    await expect.poll(() => rowCount(page)).toBe(4);
    expect(problems).toEqual([]);
  });

  it("says what it could not read: a missing input, another schema, a line cut short", async () => {
    const { page, problems } = await openPage();
    expect(await page.locator("header .badge.warn").textContent()).toBe(
      "1 unreadable, 1 line skipped, 1 cut short",
    );
    await page.click("header nav a >> text=Sources");
    await page.locator("section.source").first().waitFor();
    const text = await page.locator("main").textContent();
    expect(text).toContain("missing-run: no such file or directory");
    expect(text).toMatch(/1 × another schema/);
    expect(text).toMatch(/Line 3 has no newline/);
    await screenshot(page, "sources");
    expect(problems).toEqual([]);
  });
});
