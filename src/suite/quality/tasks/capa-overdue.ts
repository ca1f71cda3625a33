import { REFERENCE_DATE, addDays, allRows, type Flags } from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import { CAPA_DAYS, capaDeadline, capaId, ncrId } from "../rules.js";
import { qualityTask, checkAnswerIdList } from "./shared.js";

/** NCRs whose linked CAPA is not closed although today is past the deadline of the NCR's severity. */
export function overdueNcrs(db: VerifyContext["initial"]["db"], today: string): string[] {
  const rows = allRows<{ ncr_id: string; opened_on: string; severity: string }>(
    db,
    `SELECT n.ncr_id, n.opened_on, n.severity FROM ncrs n JOIN capas c ON c.capa_id = n.capa_id
      WHERE c.status != 'closed' ORDER BY n.ncr_id`,
  );
  return rows.filter((row) => today > capaDeadline(row.opened_on, row.severity)).map((row) => row.ncr_id);
}

/**
 * Plants the look-alikes: a CAPA due exactly today (on time), an `implemented` CAPA past its deadline
 * (overdue), a minor NCR past 45 but within 90 days, and a critical one past 20 but within 45 days.
 */
function prepare({ db, random, factors, referenceDate }: GenerateContext): void {
  const plans: Array<{ severity: string; age: number; status: string }> = [];
  for (let round = 0; round < Math.max(1, factors.rows / 2); round += 1)
    plans.push(
      { severity: "major", age: CAPA_DAYS.major!, status: "open" },
      { severity: "critical", age: CAPA_DAYS.critical!, status: "implemented" },
      { severity: "major", age: CAPA_DAYS.major! + random.int(2, 20), status: "implemented" },
      { severity: "minor", age: random.int(CAPA_DAYS.major! + 3, CAPA_DAYS.minor! - 5), status: "open" },
      {
        severity: "critical",
        age: random.int(CAPA_DAYS.critical! + 2, CAPA_DAYS.major! - 3),
        status: "open",
      },
    );
  const lots = allRows<{ lot_id: string; end_date: string; quantity: number }>(
    db,
    "SELECT lot_id, end_date, quantity FROM production_lots WHERE end_date IS NOT NULL ORDER BY lot_id",
  );
  const insertNcr = db.prepare(
    "INSERT INTO ncrs VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, 'dispositioned', ?)",
  );
  const insertCapa = db.prepare("INSERT INTO capas VALUES (?, ?, ?, ?, ?, NULL)");
  for (const plan of plans) {
    const opened = addDays(referenceDate, -plan.age);
    const options = lots.filter((lot) => lot.end_date <= opened);
    if (options.length === 0) continue;
    const lot = random.pick(options);
    const capa = capaId.next(db, "capas");
    insertCapa.run(
      capa,
      addDays(opened, 2),
      random.pick(["R. Kowalski", "M. Osei", "J. Tanaka"]),
      "Tool wear not detected",
      plan.status,
    );
    insertNcr.run(
      ncrId.next(db, "ncrs"),
      lot.lot_id,
      opened,
      plan.severity,
      "COS",
      random.int(1, Math.max(1, Math.round(lot.quantity / 10))),
      "Chatter marks on turned face",
      "rework",
      capa,
    );
  }
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = overdueNcrs(initial.db, REFERENCE_DATE);
  if (expected.length === 0) throw new Error("generation produced no overdue CAPA");
  return checkAnswerIdList(answer, "overdue", "overdue-ncrs", expected, "not overdue");
}

type Variant = Flags<"deadlineDayLate" | "implementedIsClosed" | "uniformDays">;

function cells(variant: Variant): string[] {
  return [
    String.raw`
manual = read_text("quality/quality-manual.md")
section = manual.split("## 8.6")[1].split("## 8.7")[0]
days = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\| (critical|major|minor) \| (\d+) \|", section, re.M)}
${variant.uniformDays ? "days = {k: 45 for k in days}" : ""}
today = date.fromisoformat("${REFERENCE_DATE}")
linked = [n for n in all_pages("list_ncrs", "ncrs") if n["capa_id"]]
print(days, len(linked), "NCRs with a CAPA")
`,
    String.raw`
overdue = []
for n in linked:
    capa = call("get_capa", capa_id=n["capa_id"])["capa"]
    closed = capa["status"] == "closed"${variant.implementedIsClosed ? ' or capa["status"] == "implemented"' : ""}
    deadline = day(n["opened_on"]) + timedelta(days=days[n["severity"]])
    if not closed and today ${variant.deadlineDayLate ? ">=" : ">"} deadline:
        overdue.append(n["ncr_id"])
print(json.dumps({"overdue": sorted(overdue)}))
`,
  ];
}

export const capaOverdueTask = qualityTask({
  id: "quality.capa-overdue",
  summary:
    "List NCRs whose CAPA is still not closed past the severity-dependent deadline of the quality manual.",
  instruction: `For the monthly management review (today is ${REFERENCE_DATE}), list every NCR whose linked CAPA is past its closing deadline and still not closed. The deadlines and what counts as closed are in the quality manual (section 8.6). Reply with only a JSON object {"overdue": ["NCR-0001", ...]} listing each such NCR once.`,
  tools: ["list_ncrs", "get_ncr", "list_capas", "get_capa"],
  prepare,
  verify,
  cells,
  nearMisses: {
    "deadline-day-late": [{ deadlineDayLate: true }, "Counts a CAPA due today as already overdue."],
    "implemented-is-closed": [
      { implementedIsClosed: true },
      "Treats implemented (not yet verified) CAPAs as closed.",
    ],
    "uniform-deadline": [
      { uniformDays: true },
      "Uses 45 days for every severity instead of the manual's table.",
    ],
  },
});
