import { defineTask } from "../../../envs/index.js";
import { hotelDomain } from "../domain.js";
import { TODAY_TEXT, checkPostedFees, cityTaxDue } from "./expectations.js";
import { HOTEL_PY } from "./python.js";

function cells({
  people = "adults",
  nights = "min(nights, int(cap))",
  taxed = '"CTAX" in folio_codes(rid)',
}): string[] {
  return [
    HOTEL_PY,
    String.raw`
rules = {row[1]: row for row in md_table(read_text("policies/city-tax.md"), "Rates by property")}
posted = []
for code in property_codes():
    read = date_reader(code)
    name, _, basis, rate, cap = rules[code]
    rate = float(rate.strip("€%"))
    for row in rows_of(f"/properties/{code}/reservations?status=in_house", "Reservations"):
        rid = row["Reservation"]
        if read(row.get("Departure") or row["Check-out"]) != TODAY:
            continue
        res = reservation(rid)
        if ${taxed}:
            continue
        nights = int(res["Nights"])
        adults = int(re.search(r"(\d+) adult", res["Guests"]).group(1))
        kids = int((re.search(r"(\d+) child", res["Guests"]) or [0, 0])[1])
        if basis.startswith("percent"):
            tax = cents(rate / 100 * eur(res["Nightly rate"]) * nights)
        else:
            tax = cents(rate * (${people}) * (${nights}))
        post(f"/reservations/{rid}/folio/charges", code="CTAX", amount=f"{tax:.2f}", description="City tax")
        posted.append(tax)
print(f"Posted city tax on {len(posted)} folios, total €{sum(posted):.2f}")
`,
  ];
}

export const cityTaxTask = defineTask({
  id: "hotel.city-tax",
  domain: hotelDomain,
  summary:
    "Post the city tax (property rule, adults only, capped nights) on today's departures not yet taxed.",
  instruction: `${TODAY_TEXT} Before the check-out rush, please post the city tax on the folio of every guest departing today, at all properties, following the city-tax policy. Skip folios that already carry it. Reply with how many folios you charged and the total, e.g. \`Posted city tax on 5 folios, total €61.40\`.`,
  tools: ["pms_navigate", "pms_submit_form"],
  verify: ({ initial, final, answer }) =>
    checkPostedFees(initial, final, answer, "CTAX", cityTaxDue(initial)),
  oracle: cells({}),
  nearMisses: [
    {
      id: "taxes-children",
      description: "Counts children as taxable guests.",
      cells: cells({ people: "adults + kids" }),
    },
    {
      id: "no-night-cap",
      description: "Taxes every night of long stays, ignoring the longest taxed stay.",
      cells: cells({ nights: "nights" }),
    },
    {
      id: "taxes-twice",
      description: "Does not look at the folio and taxes departures already charged.",
      cells: cells({ taxed: "False" }),
    },
  ],
});
