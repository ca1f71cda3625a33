import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEpisodeStore } from "../src/view/episode-store.js";
import { linkReportRows } from "../src/view/report-links.js";
import { startViewServer, type ViewServer } from "../src/view/view-server.js";
import { syntheticTrajectory, trajectoriesJsonl } from "./helpers/view-trajectories.js";

const dir = mkdtempSync(join(tmpdir(), "view-server-"));
const TOKEN = "test-token-1234";
let server: ViewServer;
let open: ViewServer;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so that the Host header and others can be anything (fetch would fix them). */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}

beforeAll(async () => {
  const runDir = join(dir, "run");
  mkdirSync(runDir);
  writeFileSync(
    join(runDir, "trajectories.jsonl"),
    trajectoriesJsonl([
      syntheticTrajectory({ harness: "ptc", firstOutput: "needle-in-output" }),
      syntheticTrajectory({ harness: "dtc", reward: 0 }),
    ]),
  );
  writeFileSync(
    join(runDir, "report.html"),
    '<section id="per-task">\n<table><tbody>\n<tr class="failed"><td>retail.refund-late-orders</td><td>v0</td><td>DTC</td><td class="number">1</td></tr>\n</tbody></table></section>',
  );
  const store = createEpisodeStore([runDir], { indexCacheDir: null });
  await store.update();
  server = await startViewServer({ store, port: 0, token: TOKEN });
  open = await startViewServer({ store, port: 0, token: null });
});

afterAll(async () => {
  await server.close();
  await open.close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = { authorization: `Bearer ${TOKEN}` };

describe("the viewer's server", () => {
  it("prints a URL with its token on 127.0.0.1, and none with --no-token", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${TOKEN}`);
    expect(open.url).toBe(`http://127.0.0.1:${open.port}/`);
  });

  it("refuses a foreign Host (DNS rebinding), cross-site fetches and anything but reads", async () => {
    const rebinding = await get(server.port, "/api/status", { ...auth, host: `evil.example:${server.port}` });
    expect(rebinding.status).toBe(421);
    expect(rebinding.body).toMatch(/DNS rebinding/);
    expect(
      (await get(server.port, "/api/status", { ...auth, host: `localhost:${server.port + 1}` })).status,
    ).toBe(421);
    expect(
      (await get(server.port, "/api/status", { ...auth, host: `localhost:${server.port}` })).status,
    ).toBe(200);
    expect((await get(server.port, "/api/status", { ...auth, "sec-fetch-site": "cross-site" })).status).toBe(
      403,
    );
    expect((await get(server.port, "/api/status", auth, "POST")).status).toBe(405);
  });

  it("needs the token: the URL's sets an HttpOnly cookie and drops it from the address", async () => {
    expect((await get(server.port, "/api/status")).status).toBe(401);
    expect((await get(server.port, "/?token=wrong")).status).toBe(401);
    const entry = await get(server.port, `/episode?key=0.1&token=${TOKEN}`);
    expect(entry.status).toBe(303);
    expect(entry.headers.location).toBe("/episode?key=0.1");
    const cookie = String(entry.headers["set-cookie"]);
    expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
    const withCookie = await get(server.port, "/api/status", { cookie: cookie.split(";")[0]! });
    expect(withCookie.status).toBe(200);
    expect((await get(open.port, "/api/status", { host: `127.0.0.1:${open.port}` })).status).toBe(200);
  });

  it("sends a strict Content-Security-Policy and no-sniff on the page, its files and the API", async () => {
    for (const path of ["/", "/static/app.js", "/static/view.css", "/api/status", "/api/episode?key=0.1"]) {
      const answer = await get(server.port, path, auth);
      expect(answer.status, path).toBe(200);
      expect(answer.headers["content-security-policy"]).toMatch(
        /default-src 'none'; script-src 'self'; style-src 'self'/,
      );
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["referrer-policy"]).toBe("no-referrer");
    }
    const script = await get(server.port, "/static/app.js", auth);
    expect(script.headers["content-type"]).toMatch(/text\/javascript/);
    expect(script.body).toMatch(/from "\.\/list-page\.js"/);
    expect(script.body).not.toMatch(/: AppContext/);
  });

  it("serves only the page's own files", async () => {
    for (const path of [
      "/static/..%2Fepisode-store.ts",
      "/static/episode-store.ts",
      "/static/app.ts",
      "/static/.hidden.js",
      "/etc/passwd",
    ])
      expect((await get(server.port, path, auth)).status, path).toBe(404);
  });

  it("lists episodes column by column, reads one, searches", async () => {
    const list = JSON.parse((await get(server.port, "/api/episodes", auth)).body);
    expect(list.count).toBe(2);
    expect(list.columns.harness).toEqual(["ptc", "dtc"]);
    expect(list.columns.reward).toEqual([1, 0]);
    const episode = JSON.parse((await get(server.port, "/api/episode?key=0.2", auth)).body);
    expect(episode.trajectory.harness).toBe("dtc");
    expect(episode.trajectory.checks[1]).toEqual({ id: "total", passed: false, message: null });
    expect((await get(server.port, "/api/episode?key=0.9", auth)).status).toBe(404);
    const search = JSON.parse((await get(server.port, "/api/search?q=NEEDLE-in", auth)).body);
    expect(search.keys).toEqual(["0.1"]);
    expect((await get(server.port, "/api/search?q=", auth)).status).toBe(400);
  });

  it("serves report.html with each per-task row linked to the list's filter for it", async () => {
    const report = await get(server.port, "/report/0", auth);
    expect(report.status).toBe(200);
    expect(report.headers["content-security-policy"]).toMatch(
      /default-src 'none'; style-src 'unsafe-inline'/,
    );
    expect(report.body).toContain(
      '<tr class="failed"><td><a href="/?f.source=%3D0&#38;f.task=%3Dretail.refund-late-orders&#38;f.scale=%3Dv0&#38;f.harness=%3Ddtc">retail.refund-late-orders</a></td><td>v0</td><td>DTC</td>',
    );
    expect((await get(server.port, "/report/1", auth)).status).toBe(404);
  });

  it("links report rows without letting cell text out of its attribute", () => {
    const html =
      '<section id="per-task"><tr><td>a&#34;&#62;&#60;script&#62;</td><td>v0</td><td>PTC</td></section>';
    const linked = linkReportRows(html, 2);
    expect(linked).toContain('href="/?f.source=%3D2&#38;f.task=%3Da%22%3E%3Cscript%3E&#38;');
    expect(linked).not.toContain("<script>");
  });
});
