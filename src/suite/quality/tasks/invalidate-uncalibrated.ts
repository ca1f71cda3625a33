import { REFERENCE_DATE, addDays, allRows, parseCsv, type Flags } from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import {
  CALIBRATION_HEADERS,
  CALIBRATION_HISTORY_PATH,
  certificate,
  writeCalibrationHistory,
} from "../generate.js";
import { CALIBRATION_DAYS } from "../rules.js";
import { qualityTask, checkRowChanges } from "./shared.js";

type Event = Record<string, string>;

/** Whether a gauge was in calibration on a date, per the SOP and the exported history. */
export function inCalibration(history: readonly Event[], gauge: string, type: string, on: string): boolean {
  const events = history.filter((event) => event.gauge_id === gauge && event.calibrated_on! <= on);
  const last = events.sort((a, b) => a.calibrated_on!.localeCompare(b.calibrated_on!)).at(-1);
  if (!last || last.result !== "pass") return false;
  return on <= addDays(last.calibrated_on!, CALIBRATION_DAYS[type]!);
}

/** Valid measurements taken with a gauge that was out of calibration that day. */
export function uncalibratedMeasurements(state: VerifyContext["initial"]): number[] {
  const history = parseCsv(state.readFile(CALIBRATION_HISTORY_PATH) ?? "");
  const rows = allRows<{ measurement_id: number; gauge_id: string; gauge_type: string; measured_on: string }>(
    state.db,
    "SELECT m.measurement_id, m.gauge_id, g.gauge_type, m.measured_on FROM measurements m JOIN gauges g USING (gauge_id) WHERE m.valid = 1 ORDER BY m.measurement_id",
  );
  return rows
    .filter((row) => !inCalibration(history, row.gauge_id, row.gauge_type, row.measured_on))
    .map((row) => row.measurement_id);
}

/**
 * Makes calibrations late (a lapse between the due day and the late calibration) and failed (out of service
 * until the next pass), moves measurement groups onto those gauges inside the windows, and puts one group
 * exactly on a due day (still in calibration).
 */
function prepare(context: GenerateContext): void {
  const { db, random, factors } = context;
  const history = parseCsv(context.readFile(CALIBRATION_HISTORY_PATH) ?? "");
  const gauges = random.shuffle(
    allRows<{ gauge_id: string; gauge_type: string }>(
      db,
      "SELECT gauge_id, gauge_type FROM gauges ORDER BY gauge_id",
    ),
  );
  const groups = db.prepare(
    `SELECT m.lot_id, m.char_id FROM measurements m JOIN gauges g USING (gauge_id)
      WHERE g.gauge_type = ? AND m.measured_on BETWEEN ? AND ? GROUP BY m.lot_id, m.char_id ORDER BY m.lot_id, m.char_id`,
  );
  const move = db.prepare("UPDATE measurements SET gauge_id = ? WHERE lot_id = ? AND char_id = ?");
  const moveTo = db.prepare(
    "UPDATE measurements SET gauge_id = ?, measured_on = ? WHERE lot_id = ? AND char_id = ?",
  );
  const wanted = Math.max(2, factors.rows);
  let planted = 0;
  for (const gauge of gauges) {
    if (planted >= wanted) break;
    const interval = CALIBRATION_DAYS[gauge.gauge_type]!;
    const events = history.filter((event) => event.gauge_id === gauge.gauge_id);
    const index = events.findIndex(
      (event, position) =>
        position > 0 && event.calibrated_on! >= "2025-04-10" && event.calibrated_on! <= "2025-06-15",
    );
    if (index < 0) continue;
    const previous = events[index - 1]!;
    const next = events[index + 1];
    const due = addDays(previous.calibrated_on!, interval);
    const failed = planted % 2 === 1;
    const start = failed ? addDays(events[index]!.calibrated_on!, -random.int(3, 10)) : addDays(due, 1);
    const end = addDays(failed ? start : due, random.int(5, 12));
    if (
      (next && end >= next.calibrated_on!) ||
      end > addDays(REFERENCE_DATE, -2) ||
      start <= previous.calibrated_on!
    )
      continue;
    if (failed)
      history.push({
        ...events[index]!,
        calibrated_on: start,
        result: "fail",
        certificate: certificate("CF", start, gauge.gauge_id),
      });
    const target = events[index]!;
    target.calibrated_on = end;
    target.certificate = certificate("CC", end, gauge.gauge_id);
    const inside = random.shuffle(
      groups.all(gauge.gauge_type, start, addDays(end, -1)) as Array<{ lot_id: string; char_id: string }>,
    );
    for (const group of inside.slice(0, 2)) move.run(gauge.gauge_id, group.lot_id, group.char_id);
    if (!failed) {
      const boundary = groups.all(gauge.gauge_type, addDays(due, -20), due) as Array<{
        lot_id: string;
        char_id: string;
      }>;
      const group = boundary.find(
        (item) =>
          !inside.slice(0, 2).some((used) => used.lot_id === item.lot_id && used.char_id === item.char_id),
      );
      if (group) moveTo.run(gauge.gauge_id, due, group.lot_id, group.char_id);
    }
    if (inside.length > 0) planted += 1;
  }
  writeCalibrationHistory(
    context,
    history.map((event) => CALIBRATION_HEADERS.map((header) => event[header] ?? "")),
  );
  const lastPass = db.prepare("UPDATE gauges SET last_calibrated = ? WHERE gauge_id = ?");
  for (const gauge of gauges) {
    const passes = history
      .filter((event) => event.gauge_id === gauge.gauge_id && event.result === "pass")
      .map((event) => event.calibrated_on!)
      .sort();
    lastPass.run(passes.at(-1), gauge.gauge_id);
  }
}

function verify(context: VerifyContext): Check[] {
  const expected = uncalibratedMeasurements(context.initial);
  if (expected.length === 0) throw new Error("generation planted no out-of-calibration measurement");
  return checkRowChanges(context, {
    table: "measurements",
    key: "measurement_id",
    changed: new Map(expected.map((id) => [id, { valid: 0 }])),
    ignoreColumns: ["invalid_reason"],
  });
}

type Variant = Flags<"dueDayLate" | "ignoreFailures" | "registerOnly">;

function cells(variant: Variant): string[] {
  return [
    String.raw`
sop = read_text("quality/calibration-sop.md")
intervals = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\| (\w+) \| (\d+) \|", sop, re.M)}
history = list(csv.DictReader(io.StringIO(read_text("exports/gauge-calibration-history.csv"))))
${variant.ignoreFailures ? 'history = [e for e in history if e["result"] == "pass"]' : ""}
gauges = all_pages("list_gauges", "gauges")
print(intervals, len(history), "calibration events,", len(gauges), "gauges")
`,
    String.raw`
def in_cal(gauge, on):
    ${variant.registerOnly ? 'return on <= day(gauge["last_calibrated"]) + timedelta(days=intervals[gauge["gauge_type"]])' : ""}
    events = sorted((e for e in history if e["gauge_id"] == gauge["gauge_id"] and day(e["calibrated_on"]) <= on), key=lambda e: e["calibrated_on"])
    if not events or events[-1]["result"] != "pass":
        return False
    due = day(events[-1]["calibrated_on"]) + timedelta(days=intervals[gauge["gauge_type"]])
    return on ${variant.dueDayLate ? "<" : "<="} due

first, today = date(2025, 3, 1), date.fromisoformat("${REFERENCE_DATE}")
windows = []
for gauge in gauges:
    start = None
    d = first
    while d <= today + timedelta(days=1):
        out = d <= today and not in_cal(gauge, d)
        if out and start is None:
            start = d
        if not out and start is not None:
            windows.append((gauge["gauge_id"], start, d - timedelta(days=1)))
            start = None
        d += timedelta(days=1)
print(windows)
`,
    String.raw`
invalid = []
for gauge_id, start, end in windows:
    for m in all_pages("list_measurements", "measurements", gauge_id=gauge_id, measured_from=start.isoformat(), measured_to=end.isoformat(), valid=True):
        invalid.append(m["measurement_id"])
        call("invalidate_measurement", measurement_id=m["measurement_id"], reason="%s out of calibration on %s" % (gauge_id, m["measured_on"]))
print(len(invalid))
`,
  ];
}

export const invalidateUncalibratedTask = qualityTask({
  id: "quality.invalidate-uncalibrated",
  summary:
    "Invalidate every measurement taken with a gauge out of calibration, from the SOP intervals and the exported calibration history.",
  instruction:
    "Metrology found gaps in our calibration record. Using the calibration SOP (quality/calibration-sop.md) and the calibration history export, find every valid measurement taken with a gauge that was not in calibration on the day it was measured, and mark each one invalid with a reason naming the gauge. Do not touch any other measurement. Reply with only the number of measurements you invalidated.",
  tools: ["list_gauges", "list_measurements", "invalidate_measurement", "list_lots"],
  prepare,
  verify,
  cells,
  nearMisses: {
    "due-day-is-late": [
      { dueDayLate: true },
      "Treats a measurement on the calibration due day as out of calibration.",
    ],
    "ignores-failed-calibrations": [
      { ignoreFailures: true },
      "Drops failed calibrations from the history, so out-of-service periods go unnoticed.",
    ],
    "register-only": [
      { registerOnly: true },
      "Uses only the register's latest calibration date instead of the history.",
    ],
  },
});
