import { defineHotelTask } from "./python.js";
import { checkAnswerAmounts } from "../../../envs/index.js";
import { TODAY_TEXT, openBalances } from "./expectations.js";
import { GUESSED_DATES_PY } from "./python.js";

function cells({
  floor = 'float(re.search(r"Balances below €([\\d.]+)", policy).group(1))',
  billed = '"Direct bill" in reservation(rid)["Payment"]',
}): string[] {
  return [
    String.raw`
policy = read_text("policies/accounts-receivable.md")
floor = ${floor}
totals = {}
for code in property_codes():
    read = date_reader(code)
    totals[code] = 0.0
    for row in rows_of(f"/properties/{code}/reservations?status=checked_out", "Reservations"):
        rid, balance = row["Reservation"], eur(row["Balance"])
        if month(read(row.get("Departure") or row["Check-out"])) != LAST_MONTH or balance < floor or balance <= 0:
            continue
        if ${billed}:
            continue
        totals[code] = cents(totals[code] + balance)
print(json.dumps(totals))
`,
  ];
}

export const openBalancesTask = defineHotelTask({
  id: "hotel.open-balances",
  summary:
    "Guest balances still owed on last month's departures, per property, under the receivables policy.",
  instruction: `${TODAY_TEXT} For the month-end report, how much do guests who checked out last month still owe us at each property, counted the way our receivables policy says? Reply with a JSON object from property code to euros, every property included, e.g. \`{"HBR": 1260.4, "MDW": 88.0}\`.`,
  tools: ["pms_navigate"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer-totals", answer, openBalances(initial))],
  cells,
  nearMisses: {
    "small-balances": [{ floor: "0.01" }, "Counts the small balances the policy writes off."],
    "direct-bill-too": [{ billed: "False" }, "Counts folios transferred to the city ledger (direct bill)."],
    "guessed-dates": [{ helpers: GUESSED_DATES_PY }, "Parses day-first departure dates in US order."],
  },
});
