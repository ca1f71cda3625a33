import { defineHotelTask } from "./python.js";
import { TODAY_TEXT, checkPostedFees, cityTaxDue } from "./expectations.js";

function cells({
  people = "adults",
  nights = "min(nights, int(cap))",
  taxed = '"CTAX" in folio_codes(rid)',
}): string[] {
  return [
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

export const cityTaxTask = defineHotelTask({
  id: "hotel.city-tax",
  summary:
    "Post the city tax (property rule, adults only, capped nights) on today's departures not yet taxed.",
  instruction: `${TODAY_TEXT} Before the check-out rush, please post the city tax on the folio of every guest departing today, at all properties, following the city-tax policy. Skip folios that already carry it. Reply with how many folios you charged and the total, e.g. \`Posted city tax on 5 folios, total €61.40\`.`,
  tools: ["pms_navigate", "pms_submit_form"],
  verify: ({ initial, final, answer }) =>
    checkPostedFees(initial, final, answer, "CTAX", cityTaxDue(initial)),
  cells,
  nearMisses: {
    "taxes-children": [{ people: "adults + kids" }, "Counts children as taxable guests."],
    "no-night-cap": [
      { nights: "nights" },
      "Taxes every night of long stays, ignoring the longest taxed stay.",
    ],
    "taxes-twice": [{ taxed: "False" }, "Does not look at the folio and taxes departures already charged."],
  },
});
