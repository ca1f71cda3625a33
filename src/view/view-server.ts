import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { loadClientAsset, preloadClientAssets } from "./client-assets.js";
import { SUMMARY_COLUMNS } from "./episode-summary.js";
import type { EpisodeStore } from "./episode-store.js";
import { linkReportRows } from "./report-links.js";
import { guardRequest, REPORT_CONTENT_SECURITY_POLICY, securityHeaders, sendText } from "./request-guard.js";

export interface ViewServerOptions {
  store: EpisodeStore;
  /** 0 picks a free port. */
  port: number;
  /** Null: no token (`--no-token`). */
  token: string | null;
  /** A status request reads appended lines when the last reading is older than this (default 2 s). */
  refreshAfterMs?: number;
}

export interface ViewServer {
  /** The address to open, with the token when there is one. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Paths the page handles itself (the same HTML; the script reads the path and the query). */
const PAGE_PATHS = new Set(["/", "/episode", "/compare", "/rl", "/sources"]);
const MAX_SEARCH_CHARACTERS = 500;

/**
 * Serves the viewer on 127.0.0.1: the page, a JSON API over the store (list, one episode, search, the
 * sources' status) and each run's report.html with its rows linked to the list. The server only lists,
 * indexes and streams; all rendering happens in the page.
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const { store } = options;
  const refreshAfterMs = options.refreshAfterMs ?? 2_000;
  let port = options.port;
  let lastUpdate = 0;
  let updating = false;
  const closing = new AbortController();

  const refresh = (): void => {
    if (updating || closing.signal.aborted || Date.now() - lastUpdate < refreshAfterMs) return;
    updating = true;
    void store.update(closing.signal).finally(() => {
      updating = false;
      lastUpdate = Date.now();
    });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const verdict = guardRequest(request, { port, token: options.token });
    if (verdict.kind === "refuse") return sendText(response, verdict.status, verdict.message);
    if (verdict.kind === "redirect") {
      response.writeHead(303, {
        ...securityHeaders(),
        location: verdict.location,
        "set-cookie": verdict.cookie,
        "cache-control": "no-store",
      });
      return void response.end();
    }
    const url = new URL(request.url ?? "/", "http://localhost");
    const path = url.pathname;
    if (PAGE_PATHS.has(path)) return await sendAsset(response, "index.html");
    if (path.startsWith("/static/")) return await sendAsset(response, path.slice("/static/".length));
    if (path === "/api/status") {
      refresh();
      return sendJson(request, response, {
        episodes: store.episodeCount,
        generation: store.generation,
        sources: store.sources,
      });
    }
    if (path === "/api/episodes") {
      const from = Math.max(0, Number.parseInt(url.searchParams.get("from") ?? "0", 10) || 0);
      const summaries = store.summaries(from);
      return sendJson(request, response, {
        generation: store.generation,
        from,
        count: summaries.length,
        // Column by column: 10,000 episodes are a few hundred kilobytes instead of megabytes of repeated keys.
        columns: Object.fromEntries(
          SUMMARY_COLUMNS.map((column) => [column, summaries.map((summary) => summary[column])]),
        ),
      });
    }
    if (path === "/api/episode") {
      const episode = await store.readEpisode(url.searchParams.get("key") ?? "");
      if (!episode) return sendJson(request, response, { error: "no such episode" }, 404);
      return sendJson(request, response, episode);
    }
    if (path === "/api/search") {
      const text = url.searchParams.get("q") ?? "";
      if (text.length === 0 || text.length > MAX_SEARCH_CHARACTERS)
        return sendJson(
          request,
          response,
          { error: `search text of 1 to ${MAX_SEARCH_CHARACTERS} characters expected` },
          400,
        );
      return sendJson(request, response, await store.search(text));
    }
    const report = /^\/report\/(\d+)$/.exec(path);
    if (report) {
      const source = Number(report[1]);
      const file = store.reportPath(source);
      if (!file) return sendText(response, 404, "This source has no report.html");
      const html = linkReportRows(await readFile(file, "utf8"), source);
      response.writeHead(200, {
        ...securityHeaders(REPORT_CONTENT_SECURITY_POLICY),
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
      });
      return void response.end(html);
    }
    sendText(response, 404, `Not found: ${path.slice(0, 200)}`);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.end();
      sendText(response, 500, `The viewer failed: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  void preloadClientAssets();
  const base = `http://127.0.0.1:${port}/`;
  return {
    url: options.token === null ? base : `${base}?token=${options.token}`,
    port,
    async close() {
      closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function sendAsset(response: ServerResponse, name: string): Promise<void> {
  const asset = await loadClientAsset(name);
  if (!asset) return sendText(response, 404, `Not found: ${name.slice(0, 200)}`);
  response.writeHead(200, {
    ...securityHeaders(),
    "content-type": asset.contentType,
    "cache-control": "no-cache",
  });
  response.end(asset.body);
}

/** JSON, gzipped when the client accepts it (an episode of 120k tokens is about 0.5 MB of text). */
function sendJson(request: IncomingMessage, response: ServerResponse, value: unknown, status = 200): void {
  const body = Buffer.from(JSON.stringify(value));
  const gzip = body.length > 16_384 && /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""));
  response.writeHead(status, {
    ...securityHeaders(),
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    ...(gzip ? { "content-encoding": "gzip" } : {}),
  });
  response.end(gzip ? gzipSync(body, { level: 1 }) : body);
}
