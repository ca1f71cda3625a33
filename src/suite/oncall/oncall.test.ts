import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  allRows,
  buildInstance,
  listWorkspaceFiles,
  openStateView,
  openToolBench,
  instanceContents,
} from "../../envs/index.js";
import type { ToolBench } from "../../envs/index.js";
import { seconds } from "./clock.js";
import { counterIncrease, requestDurationMs, rootCauses } from "./facts.js";
import { javaTrace, nginxAccessLine } from "./render-logs.js";
import { onCallHandle, parseSchedule } from "./schedule.js";
import { ackSlaBreachesTask, expectedBreaches } from "./tasks/ack-sla-breaches.js";
import { expectedActionItems } from "./tasks/file-action-items.js";
import { minutesToAcknowledge } from "./tasks/mtta-by-severity.js";
import { expectedP95 } from "./tasks/p95-latency.js";
import { oncallTools, replicaTimesOut, trackerConflicts } from "./tools.js";
import { ZONES } from "./clock.js";

let bench: ToolBench;

beforeAll(() => (bench = openToolBench(ackSlaBreachesTask, oncallTools)));
afterAll(() => bench.close());

describe("oncall generator", () => {
  it("is deterministic per seed and differs across seeds", () => {
    const contents = instanceContents(bench.instance);
    expect(instanceContents(bench.rebuild())).toEqual(contents);
    expect(instanceContents(bench.rebuild({ seed: 4 })).tables).not.toEqual(contents.tables);
  });

  it("writes the policies, the schedule, one export per service, postmortems and cover requests", () => {
    const paths = listWorkspaceFiles(bench.instance.workspaceDir);
    expect(paths.filter((path) => path.startsWith("policies/"))).toEqual([
      "policies/paging-policy.md",
      "policies/slo-policy.md",
    ]);
    expect(paths).toContain("oncall/schedule.md");
    expect(paths.filter((path) => path.startsWith("metrics/"))).toHaveLength(3);
    expect(paths.filter((path) => path.endsWith(".prom")).length).toBeGreaterThan(0);
    expect(paths.filter((path) => path.endsWith(".csv")).length).toBeGreaterThan(0);
    expect(paths.filter((path) => path.startsWith("postmortems/"))).toHaveLength(3);
    expect(paths.filter((path) => path.startsWith("inbox/override-requests/"))).toHaveLength(3);
  });
});

describe("oncall tools", () => {
  it("rate-limits the first request for a page listing's first page, then pages normally", async () => {
    expect(bench.errorText(await bench.call("list_pages", { severity: "sev1" }))).toMatch(
      /429 Too Many Requests/,
    );
    const first = await bench.value("list_pages", { severity: "sev1" });
    expect(Object.keys(first)).toEqual(["pages", "page", "per_page", "total", "has_more"]);
    expect((first.pages as Array<{ severity: string }>).every((page) => page.severity === "sev1")).toBe(true);
  });

  it("answers some page lookups with an error body without isError, then the same call succeeds", async () => {
    const failed = await bench.call("get_page", { page_id: "PG-00004" });
    expect(failed.isError).toBeFalsy();
    expect(failed.structuredContent).toMatchObject({ status: "error" });
    expect(await bench.value("get_page", { page_id: "PG-00004" })).toHaveProperty("page.page_id", "PG-00004");
  });

  it("pages raw log lines, marks a slow shard's page partial once, and splits a trace across pages", async () => {
    const service = (await bench.value("list_services", {})).services as Array<{ service: string }>;
    const name = service.find((item) => item.service === "checkout-api")!.service;
    const first = await bench.value("fetch_logs", { service: name, date: "2025-06-29" });
    expect(first.lines).toHaveLength(20);
    expect(first.has_more).toBe(true);
    expect((first.lines as string[])[16]).toMatch(/ ERROR \[/);
    const partial = await bench.value("fetch_logs", { service: name, date: "2025-06-29", page: 2 });
    expect(partial).toMatchObject({ status: "partial", lines: [], has_more: false });
    const second = await bench.value("fetch_logs", { service: name, date: "2025-06-29", page: 2 });
    expect((second.lines as string[])[0]).toMatch(/^Caused by: java\.net\.SocketTimeoutException/);
  });

  it("teaches what a log query needs", async () => {
    expect(
      bench.errorText(await bench.call("fetch_logs", { service: "nope-api", date: "2025-06-29" })),
    ).toMatch(/use list_services/);
    expect(
      bench.errorText(await bench.call("fetch_logs", { service: "checkout-api", date: "2025-06-01" })),
    ).toMatch(/log store keeps 2025-06-28/);
    expect(bench.errorText(await bench.call("get_incident", { incident_id: "INC-12" }))).toMatch(/INC-0123/);
  });

  it("refuses an override for an engineer of another team and an escalation of a resolved incident", async () => {
    const engineers = (await bench.value("list_engineers", { team: "growth" })).engineers as Array<{
      engineer_id: string;
    }>;
    const refused = await bench.call("set_schedule_override", {
      team: "platform",
      role: "secondary",
      engineer_id: engineers[0]!.engineer_id,
      starts_at: "2025-07-01T00:00:00Z",
      ends_at: "2025-07-01T08:00:00Z",
    });
    expect(bench.errorText(refused)).toMatch(/is on team growth/);
    const resolved = (await bench.value("list_incidents", { status: "resolved" })).incidents as Array<{
      incident_id: string;
    }>;
    const incident = resolved.find((item) => Number(item.incident_id.slice(4)) % 5 !== 2)!;
    expect(
      bench.errorText(
        await bench.call("escalate_incident", {
          incident_id: incident.incident_id,
          engineer_id: engineers[0]!.engineer_id,
        }),
      ),
    ).toMatch(/only triggered incidents/);
  });
});

describe("oncall readers", () => {
  it("hands over on Monday at 09:00 UTC and applies only live overrides", () => {
    const schedule = parseSchedule(
      [
        "| 2025-06-09 | growth | @ann | @bob |",
        "| 2025-06-16 | growth | @cid | @dee |",
        "- 2025-06-17 10:00 → 2025-06-17 12:00 UTC · growth · primary: @bob covers for @cid (travel)",
        "- ~~2025-06-18 10:00 → 2025-06-18 12:00 UTC · growth · primary: @ann covers for @cid~~ (cancelled)",
      ].join("\n"),
    );
    expect(onCallHandle(schedule, "growth", "primary", seconds("2025-06-16T08:59:59Z"))).toBe("ann");
    expect(onCallHandle(schedule, "growth", "primary", seconds("2025-06-16T09:00:00Z"))).toBe("cid");
    expect(onCallHandle(schedule, "growth", "primary", seconds("2025-06-17T11:00:00Z"))).toBe("bob");
    expect(onCallHandle(schedule, "growth", "primary", seconds("2025-06-17T12:00:00Z"))).toBe("cid");
    expect(onCallHandle(schedule, "growth", "primary", seconds("2025-06-18T11:00:00Z"))).toBe("cid");
  });

  it("finds the innermost cause of a Java trace and skips probes when measuring latency", () => {
    const at = seconds("2025-06-29T10:00:00Z");
    const trace = javaTrace(
      at,
      ZONES[1],
      "main",
      "c.a.Handler",
      "failed",
      { className: "a.Outer", message: "x", frames: ["a.B.c(B.java:1)"] },
      [
        { className: "b.Middle", message: "y", frames: ["b.C.d(C.java:2)"] },
        { className: "c.Inner", message: "z", frames: [] },
      ],
    );
    expect(rootCauses([...trace, '{"ts":"2025-06-29T10:00:01.000Z","level":"info","msg":"ok"}'])).toEqual([
      "c.Inner",
    ]);
    const request = {
      at,
      clientIp: "10.0.0.1",
      method: "GET",
      status: 200,
      bytes: 2,
      userAgent: "kube-probe/1.29",
      durationMs: 87,
    };
    expect(requestDurationMs(nginxAccessLine({ ...request, path: "/api/v1/items" }))).toBe(87);
    expect(requestDurationMs(nginxAccessLine({ ...request, path: "/healthz" }))).toBeNull();
  });

  it("counts a sample lower than the one before as a restart", () => {
    expect(counterIncrease([100, 150, 20, 50])).toBe(50 + 20 + 30);
  });
});

describe("oncall plants", () => {
  // Each assertion fails at seed 0 without its plant (checked by disabling each one).
  it("plants the cases the near-misses need", () => {
    const built = buildInstance(ackSlaBreachesTask, "v0", 0, join(bench.dir, "seed-0"));
    const state = openStateView(built.dbPath, built.workspaceDir);
    const view = state.view;
    try {
      expect(expectedBreaches(view).some(replicaTimesOut)).toBe(true);
      const files = listWorkspaceFiles(built.workspaceDir);
      const postmortem = view.readFile(files.find((path) => path.startsWith("postmortems/"))!)!;
      const undated = /^- \[ \] (.+?) — owner @\S+ \(date to be agreed\)$/m.exec(postmortem)![1]!;
      expect(trackerConflicts(undated)).toBe(true);
      expect(expectedActionItems(view).some((item) => item.title === undated)).toBe(true);
      const request = view.readFile(files.find((path) => path.startsWith("inbox/"))!)!;
      expect(request).toMatch(/^1\. .*\(UTC[+-](?!00:00)/m);
      expect(expectedP95(view).get("checkout-api")).toBeGreaterThanOrEqual(3000);
      const incidents = allRows<{ timeline: string; fired_at: string; acked_at: string }>(
        view.db,
        "SELECT timeline, fired_at, acked_at FROM incidents JOIN pages USING (page_id) WHERE status = 'resolved'",
      );
      for (const incident of incidents)
        expect(minutesToAcknowledge(incident.timeline)).toBe(
          (seconds(incident.acked_at) - seconds(incident.fired_at)) / 60,
        );
    } finally {
      state.close();
    }
  });
});
