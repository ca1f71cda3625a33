import {
  REFERENCE_DATE,
  allRows,
  checkAnswerCount,
  checkStateDiff,
  type Flags,
} from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { readControlledRules, readCountSheets } from "../workspace-facts.js";
import { pharmacyTask, stockRows, unitsBy } from "./pharmacy-task.js";

/** The discrepancy rows the count sheets and the reporting rule call for. */
export function expectedDiscrepancies(state: StateView): Array<Record<string, string | number>> {
  const { threshold } = readControlledRules(state);
  const system = unitsBy(stockRows(state), (row) => `${row.location_id}/${row.drug_id}`);
  const schedule = new Map(
    allRows<{ drug_id: string; schedule: string | null }>(
      state.db,
      "SELECT drug_id, schedule FROM drugs",
    ).map((row) => [row.drug_id, row.schedule]),
  );
  const rows: Array<Record<string, string | number>> = [];
  for (const sheet of readCountSheets(state))
    for (const [drug, counted] of sheet.counts) {
      const expected = system.get(`${sheet.cabinet}/${drug}`) ?? 0;
      const difference = counted - expected;
      const reportable = schedule.get(drug) === "II" ? difference !== 0 : Math.abs(difference) >= threshold;
      if (reportable)
        rows.push({
          location_id: sheet.cabinet,
          drug_id: drug,
          count_date: sheet.date,
          counted_quantity: counted,
          system_quantity: expected,
          difference,
          reported_on: REFERENCE_DATE,
        });
    }
  return rows;
}

function cells(variant: Flags<"sameRuleForAll" | "strictThreshold" | "ignoreRecounts">): string[] {
  return [
    String.raw`
threshold = policy_number("policies/controlled-substances.md", r"reportable when it is (\d+) units or more")
schedule = {drug["drug_id"]: drug["schedule"] for drug in fetch("list_drugs", "drugs", controlled=True)}
sheets = []
for path in workspace_files("counts"):
    text = read_text(path)
    cabinet = re.search(r"^Cabinet: (LOC-\d+)", text, re.M).group(1)
    count_date = re.search(r"^Count date: (\d{4}-\d{2}-\d{2})", text, re.M).group(1)
    counts = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(D-\d{4}) .*?\.+\s+(\d+)$", text, re.M)}
    if ${variant.ignoreRecounts ? "False" : "True"}:
        for m in re.finditer(r"^RECOUNT (D-\d{4}) .*? = (\d+)", text, re.M):
            counts[m.group(1)] = int(m.group(2))
    sheets.append((cabinet, count_date, counts))
print(threshold, len(sheets))
`,
    String.raw`
recorded = 0
for cabinet, count_date, counts in sheets:
    system = {}
    for row in fetch("list_inventory", "stock", location_id=cabinet):
        system[row["drug_id"]] = system.get(row["drug_id"], 0) + row["quantity"]
    for drug, counted in counts.items():
        difference = counted - system.get(drug, 0)
        if ${variant.sameRuleForAll ? "False" : 'schedule[drug] == "II"'}:
            reportable = difference != 0
        else:
            reportable = abs(difference) ${variant.strictThreshold ? ">" : ">="} threshold
        if reportable:
            call("record_discrepancy", location_id=cabinet, drug_id=drug, count_date=count_date, counted_quantity=counted)
            recorded += 1
print(f"Recorded {recorded} discrepancies")
`,
  ];
}

export const countDiscrepanciesTask = pharmacyTask({
  id: "pharmacy.count-discrepancies",
  summary:
    "Compare last night's controlled-substance shift counts with the cabinets' system quantities and record the reportable discrepancies (schedule II: any; III-V: at the threshold or more; recounts replace first counts).",
  instruction:
    "Last night's controlled-substance shift count sheets for the dispensing cabinets are in counts/. Compare each count with the system quantity and record every discrepancy our controlled substances policy says is reportable, with record_discrepancy. Change nothing else. Reply with the number of discrepancies you recorded, e.g. `Recorded 5 discrepancies`.",
  tools: ["list_drugs", "get_drug", "list_locations", "list_inventory", "record_discrepancy"],
  expected: expectedDiscrepancies,
  nothing: "reportable discrepancy",
  checks: (expected, { initial, final, answer }) => [
    ...checkStateDiff(initial.db, final.db, [
      { table: "discrepancies", key: "discrepancy_id", added: expected },
    ]),
    checkAnswerCount(answer, expected.length),
  ],
  cells,
  nearMisses: {
    "one-threshold-for-all": [
      { sameRuleForAll: true },
      "Applies the schedule III-V threshold to schedule II drugs too, missing one-unit schedule II miscounts.",
    ],
    "threshold-exclusive": [
      { strictThreshold: true },
      "Reports only differences above the threshold, not those exactly at it.",
    ],
    "ignores-recounts": [
      { ignoreRecounts: true },
      "Uses the first count even where the sheet records a recount.",
    ],
  },
});
