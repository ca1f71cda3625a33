import { allRows, checkAnswerAmounts, roundCents } from "../../../envs/index.js";
import type { StateView, VerifyContext } from "../../../envs/index.js";
import { LAST_WEEK, catalogue, policyTable, unitCost } from "./facts.js";
import { defineRestaurantTask } from "./common.js";

/** Last week's waste in dollars for the locations over their limit (staff meals excluded). */
export function expectedOverLimit(state: StateView): Map<string, number> {
  const items = catalogue(state);
  const limits = new Map(
    policyTable(state, "policies/waste.md", "Weekly waste limits").map((row) => [row[0]!, Number(row[2])]),
  );
  const logs = allRows<{ location_id: string; item_id: string; quantity: number; reason: string }>(
    state.db,
    "SELECT location_id, item_id, quantity, reason FROM waste_logs WHERE logged_on BETWEEN ? AND ? AND reason <> 'staff meal'",
    [LAST_WEEK.from, LAST_WEEK.to],
  );
  const totals = new Map<string, number>();
  for (const log of logs)
    totals.set(
      log.location_id,
      (totals.get(log.location_id) ?? 0) + log.quantity * unitCost(items.get(log.item_id)!),
    );
  return new Map(
    [...totals]
      .filter(([location, total]) => total > limits.get(location)!)
      .map(([l, t]) => [l, roundCents(t)]),
  );
}

function verify({ initial, answer }: VerifyContext) {
  const expected = expectedOverLimit(initial);
  if (expected.size === 0) throw new Error("no location over its waste limit");
  return [checkAnswerAmounts("answer", answer, expected, 0.011)];
}

interface Variant {
  staffMeals?: boolean;
  casePrice?: boolean;
  noStatusCheck?: boolean;
}

function cells(variant: Variant): string {
  const fetchLogs = variant.noStatusCheck
    ? String.raw`
def week_logs(location):
    rows, page = [], 1
    while True:
        result = tools.list_waste_logs(location_id=location, date_from=week_from, date_to=week_to, page=page, per_page=50)
        rows.extend(result.get("waste_logs", []))
        if not result.get("has_more"):
            return rows
        page += 1`
    : String.raw`
def week_logs(location):
    return fetch("list_waste_logs", "waste_logs", location_id=location, date_from=week_from, date_to=week_to)`;
  return String.raw`
load_catalogue()
limits = {row[0]: float(row[2]) for row in md_table(read_text("policies/waste.md"), "Weekly waste limits")}
week_from, week_to = add_days(today, -7), add_days(today, -1)
${fetchLogs}
over = {}
for location in fetch("list_locations", "locations"):
    lid = location["location_id"]
    total = 0.0
    for log in week_logs(lid):
        if log["reason"] == "staff meal" and ${variant.staffMeals ? "False" : "True"}:
            continue
        item = catalogue[log["item_id"]]
        total += log["quantity"] * item["case_price"] ${variant.casePrice ? "" : '/ item["pack_size"]'}
    if total > limits[lid]:
        over[lid] = round(total, 2)
print(json.dumps(over))
`;
}

export const wasteLimitsTask = defineRestaurantTask({
  id: "restaurant.waste-limits",
  summary:
    "Value last week's waste per location per the waste policy and report the locations over their limit.",
  instruction:
    'Which locations went over their weekly waste limit last week (Monday to Sunday)? Value the waste log as our waste policy (policies/waste.md) says. Reply with a JSON object mapping each location over its limit to its waste for the week in dollars (rounded to cents), e.g. {"LOC-02": 512.4}; leave out locations within their limit.',
  tools: ["list_locations", "list_items", "get_item", "list_waste_logs"],
  verify,
  cells,
  nearMisses: {
    "counts-staff-meals": [{ staffMeals: true }, "Counts staff meals as waste."],
    "case-price-per-unit": [{ casePrice: true }, "Values each logged unit at the full case price."],
    "trusts-error-body": [
      { noStatusCheck: true },
      "Reads a listing without checking for an error body, losing a location's entries.",
    ],
  },
});
