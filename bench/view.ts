/**
 * npm run bench:view [-- --episodes 10000 --gigabytes 2 --keep] — how fast `progagent view` opens a large run
 * and renders a long episode, against a naive whole-file load.
 *
 * Writes a trajectories.jsonl of synthetic episodes in the harness's exact shape (PTC and DTC, tool outputs of
 * a few kilobytes; 10,000 episodes and about 2 GB by default; kept in the temp folder between runs with
 * --keep), then measures:
 *  - naive: every line parsed with JSON.parse (what a reader that loads the file does; holding the parsed
 *    episodes would need several times the file in memory, so only the list fields are kept);
 *  - the viewer's index, cold (first time) and warm (from its cache): time to the first 100 episodes and to
 *    all of them;
 *  - in Chromium: from the server's start to a usable list (the first rows drawn), cold and warm;
 *  - an episode of about 120k tokens: time to draw it in the page (and the whole navigation).
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { chromium, type Browser } from "playwright-core";
import { formatTable } from "../src/cli/format-table.js";
import { preloadClientAssets } from "../src/view/client-assets.js";
import { createEpisodeStore } from "../src/view/episode-store.js";
import { createJsonlIndex } from "../src/view/jsonl-index.js";
import { startViewServer } from "../src/view/view-server.js";
import { syntheticTrajectory } from "../test/helpers/view-trajectories.js";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(process.argv[at + 1]);
}
const episodes = option("episodes", 10_000);
const gigabytes = option("gigabytes", 2);
const keep = process.argv.includes("--keep");
const CHROMIUM = ["/usr/lib/chromium/chromium", "/usr/bin/chromium"].find((path) => existsSync(path));

const benchDir = join(tmpdir(), "progagent-bench-view");
const dataPath = join(benchDir, `trajectories-${episodes}-${gigabytes}gb.jsonl`);
const longDir = join(benchDir, "long-episode");
const seconds = (milliseconds: number): string => (milliseconds / 1000).toFixed(2);

/** Episode sizes that reach the target: PTC lines hold each output twice (message and code block). */
async function writeData(): Promise<void> {
  if (existsSync(dataPath)) return;
  mkdirSync(benchDir, { recursive: true });
  const bytesPerEpisode = (gigabytes * 1e9) / episodes;
  const out = createWriteStream(`${dataPath}.tmp`);
  for (let index = 0; index < episodes; index += 1) {
    const harness = index % 2 === 0 ? "ptc" : "dtc";
    const turns = harness === "ptc" ? 12 : 30;
    const outputChars = Math.round(bytesPerEpisode / (harness === "ptc" ? 2 * turns : turns));
    const line = `${JSON.stringify(
      syntheticTrajectory({
        harness,
        turns,
        outputChars,
        sample: index,
        task: `domain${index % 15}.task-${index % 127}`,
        scale: (["v0", "v1", "v2", "v3"] as const)[index % 4],
        reward: index % 5 === 0 ? 0 : 1,
      }),
    )}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  renameSync(`${dataPath}.tmp`, dataPath);
}

/** An episode of about 120k tokens: PTC, 60 turns, outputs of 8,000 characters. */
function writeLongEpisode(): string {
  mkdirSync(longDir, { recursive: true });
  const trajectory = syntheticTrajectory({
    harness: "ptc",
    turns: 60,
    outputChars: 8_000,
    task: "retail.long",
  });
  const path = join(longDir, "trajectories.jsonl");
  writeFileSync(path, `${JSON.stringify(trajectory)}\n`);
  return path;
}

async function naiveLoad(): Promise<{ totalMs: number; firstMs: number; count: number }> {
  const started = performance.now();
  let first = 0;
  let count = 0;
  const lines = createInterface({ input: createReadStream(dataPath), crlfDelay: Infinity });
  for await (const line of lines) {
    const value = JSON.parse(line) as { task: string; reward: number; turns: unknown[] };
    if (value.task.length > 0) count += 1;
    if (count === 100) first = performance.now() - started;
  }
  return { totalMs: performance.now() - started, firstMs: first, count };
}

async function viewerIndex(cacheDir: string): Promise<{ totalMs: number; firstMs: number; count: number }> {
  const started = performance.now();
  let first = 0;
  let count = 0;
  const index = createJsonlIndex(dataPath, 0, { cacheDir });
  await index.update({
    onSummary: () => {
      count += 1;
      if (count === 100) first = performance.now() - started;
    },
  });
  const totalMs = performance.now() - started;
  return { totalMs, firstMs: index.restoredFromCache ? totalMs : first, count: index.summaries.length };
}

/** From the server's start to the first rows in Chromium, and until every episode is listed. */
async function browserOpen(
  browser: Browser,
  cacheDir: string,
): Promise<{ usableMs: number; allMs: number; rows: string }> {
  const started = performance.now();
  const store = createEpisodeStore([dataPath], { indexCacheDir: cacheDir });
  const server = await startViewServer({ store, port: 0, token: null });
  const indexing = store.update();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(server.url);
    await page.locator("#episodes tbody tr").first().waitFor({ timeout: 120_000 });
    const usableMs = performance.now() - started;
    await indexing;
    await page.waitForFunction(
      (total) =>
        document
          .querySelector("#counts")
          ?.textContent?.startsWith(`${total.toLocaleString("en-US")} episodes`),
      episodes,
      { timeout: 120_000, polling: 100 },
    );
    return {
      usableMs,
      allMs: performance.now() - started,
      rows: (await page.locator("#counts strong").textContent()) ?? "",
    };
  } finally {
    await page.close();
    await server.close();
  }
}

async function longEpisode(
  browser: Browser,
  path: string,
): Promise<{ renderMs: number; navigationMs: number; tokens: number }> {
  const store = createEpisodeStore([path], { indexCacheDir: null });
  await store.update();
  const server = await startViewServer({ store, port: 0, token: null });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(server.url);
    await page.locator("#episodes tbody tr").first().waitFor();
    const started = performance.now();
    await page.locator("a.episode-link").first().click();
    await page.locator("#verdict").waitFor({ timeout: 60_000 });
    const navigationMs = performance.now() - started;
    const renderMs = Number(await page.locator("main").getAttribute("data-render-ms"));
    return { renderMs, navigationMs, tokens: store.summaries()[0]?.contextTokens ?? 0 };
  } finally {
    await page.close();
    await server.close();
  }
}

async function main(): Promise<void> {
  process.stdout.write(`writing or reusing ${dataPath}\n`);
  await writeData();
  const sizeBytes = statSync(dataPath).size;
  process.stdout.write(
    `${episodes} episodes, ${(sizeBytes / 1e9).toFixed(2)} GB; load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}\n\n`,
  );
  const cacheDir = mkdtempSync(join(tmpdir(), "progagent-bench-view-cache-"));
  const rows: string[][] = [];
  try {
    const naive = await naiveLoad();
    rows.push([
      "naive: JSON.parse every line",
      seconds(naive.firstMs),
      seconds(naive.totalMs),
      String(naive.count),
    ]);
    const cold = await viewerIndex(cacheDir);
    rows.push(["viewer index, cold", seconds(cold.firstMs), seconds(cold.totalMs), String(cold.count)]);
    const warm = await viewerIndex(cacheDir);
    rows.push([
      "viewer index, warm (cache)",
      seconds(warm.firstMs),
      seconds(warm.totalMs),
      String(warm.count),
    ]);
    if (CHROMIUM) {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--no-sandbox", "--headless", "--disable-gpu"],
      });
      try {
        // The browser's first page costs its renderer's start, which is not the viewer's.
        const warmup = await browser.newPage();
        await warmup.goto("about:blank");
        await warmup.close();
        // The page as the package serves it (compiled files): a clone's first start also transpiles them (about 1 s).
        await preloadClientAssets();
        rmSync(cacheDir, { recursive: true, force: true });
        mkdirSync(cacheDir);
        const coldPage = await browserOpen(browser, cacheDir);
        rows.push([
          "Chromium list, cold",
          seconds(coldPage.usableMs),
          seconds(coldPage.allMs),
          coldPage.rows,
        ]);
        const warmPage = await browserOpen(browser, cacheDir);
        rows.push([
          "Chromium list, warm (cache)",
          seconds(warmPage.usableMs),
          seconds(warmPage.allMs),
          warmPage.rows,
        ]);
        const long = await longEpisode(browser, writeLongEpisode());
        process.stdout.write(
          `${formatTable(["what", "usable list s", "all episodes s", "episodes"], rows)}\n\n` +
            `an episode of ${long.tokens.toLocaleString("en-US")} context tokens: drawn in ${Math.round(long.renderMs)} ms (click to drawn page: ${Math.round(long.navigationMs)} ms)\n`,
        );
      } finally {
        await browser.close();
      }
    } else
      process.stdout.write(
        `${formatTable(["what", "usable list s", "all episodes s", "episodes"], rows)}\n(no Chromium: page timings skipped)\n`,
      );
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    if (!keep) rmSync(benchDir, { recursive: true, force: true });
  }
}

await main();
