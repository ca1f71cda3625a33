import { defineTask } from "../../../envs/index.js";
import { hotelDomain } from "../domain.js";
import { TODAY_TEXT, checkPostedFees, lateCancellations } from "./expectations.js";
import { HOTEL_PY } from "./python.js";

function cells({ late = "days < term['free']", pct = 'term["late"]', made = "cancelled" }): string[] {
  return [
    HOTEL_PY,
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

export const lateCancellationsTask = defineTask({
  id: "hotel.late-cancellations",
  domain: hotelDomain,
  summary:
    "Charge the late-cancellation fee on this month's cancellations made inside the plan's free window.",
  instruction: `${TODAY_TEXT} Some of this month's cancellations came in too late to be free. Please check every cancellation made this month at all our properties against the cancellation policy and post the late-cancellation fee where one is due and not yet on the folio. Reply with how many fees you posted and the total, e.g. \`Posted 2 late-cancellation fees, total €201.50\`.`,
  tools: ["pms_navigate", "pms_submit_form"],
  verify: ({ initial, final, answer }) =>
    checkPostedFees(initial, final, answer, "LATECXL", lateCancellations(initial)),
  oracle: cells({}),
  nearMisses: [
    {
      id: "edge-day-late",
      description: "Treats a cancellation made exactly on the last free day as late.",
      cells: cells({ late: "days <= term['free']" }),
    },
    {
      id: "full-night-corporate",
      description: "Charges a full night on every late cancellation, ignoring the corporate plan's 50%.",
      cells: cells({ pct: "100" }),
    },
    {
      id: "arrival-month",
      description: "Takes the cancellations of stays arriving this month instead of those made this month.",
      cells: cells({ made: 'read(res["Arrival"])' }),
    },
  ],
});
