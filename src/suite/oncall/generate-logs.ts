/** The log store: three days of raw, mixed-format log lines per service. */
import { weightedIndex } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { ZONES, seconds } from "./clock.js";
import { javaTrace, jsonLogLine, nginxAccessLine, pythonTraceback, syslogLine } from "./render-logs.js";
import type { JavaException } from "./render-logs.js";
import { LOG_DATES } from "./world.js";
import type { OncallWorld, Random, Service } from "./world.js";

const RESOURCES = ["items", "orders", "search", "session", "customers", "quotes"];
const AGENTS = ["okhttp/4.9.3", "Mozilla/5.0 (X11; Linux x86_64)", "python-requests/2.31.0", "curl/8.5.0"];
const JAVA_TOPS = [
  "com.acme.platform.UpstreamException",
  "org.springframework.web.client.ResourceAccessException",
  "java.lang.IllegalStateException",
];
const JAVA_CAUSES = [
  "java.net.SocketTimeoutException",
  "java.sql.SQLTransientConnectionException",
  "java.net.ConnectException",
  "javax.net.ssl.SSLHandshakeException",
];
const PYTHON_ERRORS: Array<[string, string]> = [
  ["KeyError", "'sku'"],
  ["TimeoutError", "timed out waiting for the ledger lock"],
  ["ConnectionResetError", "[Errno 104] Connection reset by peer"],
  ["redis.exceptions.ConnectionError", "Error 111 connecting to cache:6379. Connection refused."],
];
const APP_MESSAGES = [
  "retrying connection to cache",
  "consumer lag above 1000 messages",
  "feature flags refreshed",
  "slow query detected",
  "job finished",
];
const SYSLOG_MESSAGES = [
  "eth0: link up",
  "Started Daily apt download activities.",
  "cgroup: memory usage near limit",
];

function ip(random: Random): string {
  return `10.${random.int(0, 9)}.${random.int(0, 255)}.${random.int(1, 254)}`;
}

function exception(random: Random, className: string): JavaException {
  const frames = [
    "com.acme.core.http.Client.execute(Client.java:212)",
    "com.acme.core.jobs.Worker.run(Worker.java:88)",
    "java.base/java.lang.Thread.run(Thread.java:840)",
  ];
  return {
    className,
    message: random.pick(["request failed", "Read timed out", "pool exhausted", "connect failed"]),
    frames: frames.slice(0, random.int(1, 3)),
  };
}

function traceLines(random: Random, service: Service, at: number): string[] {
  if (service.runtime === "python")
    return pythonTraceback(
      at,
      "worker",
      "task failed",
      [
        ["/app/worker/tasks.py", random.int(20, 200), "run", "result = handler(payload)"],
        ["/app/worker/handlers.py", random.int(20, 200), "handle", "return client.apply(payload)"],
      ],
      ...random.pick(PYTHON_ERRORS),
    );
  const causes = Array.from({ length: weightedIndex(random, [3, 5, 2]) }, () =>
    exception(random, random.pick(JAVA_CAUSES)),
  );
  return javaTrace(
    at,
    ZONES[1],
    `http-nio-8080-exec-${random.int(1, 12)}`,
    `c.a.${service.name.split("-")[0]}.Handler`,
    "request failed",
    exception(random, random.pick(JAVA_TOPS)),
    causes,
  );
}

/** One log entry (one or more lines) of a given kind. */
function entry(random: Random, service: Service, at: number, kind: number): string[] {
  const millis = random.int(0, 999);
  const resource = random.pick(RESOURCES);
  switch (kind) {
    case 0: {
      const slow = random.chance(0.04);
      return [
        nginxAccessLine({
          at,
          clientIp: ip(random),
          method: random.pick(["GET", "GET", "POST", "PUT"]),
          path: `/api/v1/${resource}${random.chance(0.4) ? `/${random.int(100, 9999)}` : ""}`,
          status: random.pick([200, 200, 200, 200, 201, 304, 404, 500, 503]),
          bytes: random.int(2, 40_000),
          userAgent: random.pick(AGENTS),
          durationMs: slow ? random.int(500, 1800) : random.int(4, 420),
        }),
      ];
    }
    case 1: {
      const health = random.chance(0.6);
      return [
        nginxAccessLine({
          at,
          clientIp: ip(random),
          method: "GET",
          path: health ? "/healthz" : "/metrics",
          status: 200,
          bytes: health ? 2 : random.int(3000, 9000),
          userAgent: health ? "kube-probe/1.29" : "Prometheus/2.51.0",
          durationMs: random.int(0, 6),
        }),
      ];
    }
    case 2:
      return [
        jsonLogLine(at, millis, {
          level: "info",
          service: service.name,
          event: "http_request",
          method: "POST",
          path: `/api/v1/${resource}`,
          status: random.pick([200, 201, 202, 502]),
          duration_ms: random.int(150, 2600),
        }),
      ];
    case 3:
      return [
        jsonLogLine(at, millis, {
          level: random.pick(["info", "warn"]),
          service: service.name,
          msg: random.pick(APP_MESSAGES),
        }),
      ];
    case 4: {
      const host = `ip-10-0-${random.int(1, 9)}-${random.int(10, 250)}`;
      const program = random.pick(["kernel", "systemd[1]", "containerd"]);
      return [syslogLine(at, ZONES[1], host, program, random.pick(SYSLOG_MESSAGES))];
    }
    default:
      return traceLines(random, service, at);
  }
}

const KIND_WEIGHTS = [55, 15, 12, 8, 3, 7];

export function generateLogs(context: GenerateContext, world: OncallWorld): void {
  const { db, random, factors } = context;
  const insert = db.prepare("INSERT INTO log_lines (service, log_date, line_no, text) VALUES (?, ?, ?, ?)");
  const mostEntries = 18 + 8 * factors.rows; // entries a service logs a day, at most
  for (const service of world.services)
    for (const date of LOG_DATES) {
      const start = seconds(`${date}T00:00:00Z`);
      const count = mostEntries - random.int(0, 4);
      const times = Array.from({ length: count }, () => start + random.int(0, 86_399)).sort((a, b) => a - b);
      // One trace with a cause straddles the first page break, so a reader must join pages before parsing.
      const planted = service === world.services[0] && date === LOG_DATES[1];
      // After it, more than 5% of the service's requests are slower than any other (a lock pile-up), all on
      // pages after the first: the p95 is one of them, and code that stops at the partial page misses them.
      const slowRequests = Math.floor(0.05 * LOG_DATES.length * mostEntries) + 1;
      const lines: string[] = [];
      times.forEach((at, index) => {
        if (planted && index < 16) lines.push(...entry(random, service, at, random.pick([0, 1, 2, 3])));
        else if (planted && index === 16)
          lines.push(
            ...javaTrace(
              at,
              ZONES[1],
              "http-nio-8080-exec-3",
              "c.a.checkout.Handler",
              "request failed",
              {
                className: "java.lang.IllegalStateException",
                message: "checkout aborted",
                frames: [
                  "com.acme.checkout.Flow.place(Flow.java:77)",
                  "com.acme.core.http.Client.execute(Client.java:212)",
                ],
              },
              [
                {
                  className: "java.net.SocketTimeoutException",
                  message: "Read timed out",
                  frames: ["java.base/java.net.SocketInputStream.read(SocketInputStream.java:168)"],
                },
              ],
            ),
          );
        else if (planted && index <= 16 + slowRequests)
          lines.push(
            jsonLogLine(at, random.int(0, 999), {
              level: "warn",
              service: service.name,
              event: "http_request",
              method: "POST",
              path: "/api/v1/orders",
              status: 200,
              duration_ms: random.int(3000, 6000),
            }),
          );
        else lines.push(...entry(random, service, at, weightedIndex(random, KIND_WEIGHTS)));
      });
      lines.forEach((text, index) => insert.run(service.name, date, index + 1, text));
    }
}
