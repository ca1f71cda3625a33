import { defineHotelTask } from "./python.js";
import { TODAY_TEXT, checkPostedFees, lateCancellations } from "./expectations.js";

function cells({ late = "days < term['free']", pct = 'term["late"]', made = "cancelled" }): string[] {
  return [
    String.raw`
terms = fee_terms()
posted = []
for code in property_codes():
    read = date_reader(code)
    for row in rows_of(f"/properties/{code}/reservations?status=cancelled", "Reservations"):
        rid = row["Reservation"]
        res = reservation(rid)
        cancelled = read(res["Cancelled on"])
        term = terms[plan_code(res)]
        if month(${made}) != THIS_MONTH or term["free"] is None:
            continue
        days = (read(res["Arrival"]) - cancelled).days
        fee = cents(${pct} / 100 * eur(res["Nightly rate"]))
        if not (${late}) or fee <= 0 or "LATECXL" in folio_codes(rid):
            continue
        post(f"/reservations/{rid}/folio/charges", code="LATECXL", amount=f"{fee:.2f}")
        posted.append(fee)
print(f"Posted {len(posted)} late-cancellation fees, total €{sum(posted):.2f}")
`,
  ];
}

export const lateCancellationsTask = defineHotelTask({
  id: "hotel.late-cancellations",
  summary:
    "Charge the late-cancellation fee on this month's cancellations made inside the plan's free window.",
  instruction: `${TODAY_TEXT} Some of this month's cancellations came in too late to be free. Please check every cancellation made this month at all our properties against the cancellation policy and post the late-cancellation fee where one is due and not yet on the folio. Reply with how many fees you posted and the total, e.g. \`Posted 2 late-cancellation fees, total €201.50\`.`,
  tools: ["pms_navigate", "pms_submit_form"],
  verify: ({ initial, final, answer }) =>
    checkPostedFees(initial, final, answer, "LATECXL", lateCancellations(initial)),
  cells,
  nearMisses: {
    "edge-day-late": [
      { late: "days <= term['free']" },
      "Treats a cancellation made exactly on the last free day as late.",
    ],
    "full-night-corporate": [
      { pct: "100" },
      "Charges a full night on every late cancellation, ignoring the corporate plan's 50%.",
    ],
    "arrival-month": [
      { made: 'read(res["Arrival"])' },
      "Takes the cancellations of stays arriving this month instead of those made this month.",
    ],
  },
});
