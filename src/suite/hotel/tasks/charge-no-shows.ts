import { defineHotelTask } from "./python.js";
import { TODAY_TEXT, checkPostedFees, unchargedNoShows } from "./expectations.js";
import { NO_SHOWS_PY } from "./no-show-fees.js";
import { BLIND_POST_PY, GUESSED_DATES_PY } from "./python.js";

function cells({ charged = '"NOSHOW" in folio_codes(rid)' }): string[] {
  return [
    NO_SHOWS_PY +
      String.raw`
terms = fee_terms()
posted = []
for code in property_codes():
    for rid in no_shows(code, THIS_MONTH):
        res = reservation(rid)
        fee = cents(terms[plan_code(res)]["no_show"] / 100 * eur(res["Nightly rate"]))
        if fee <= 0 or ${charged}:
            continue
        post(f"/reservations/{rid}/folio/charges", code="NOSHOW", amount=f"{fee:.2f}", description="No-show fee")
        posted.append(fee)
print(f"Posted {len(posted)} no-show fees, total €{sum(posted):.2f}")
`,
  ];
}

export const chargeNoShowsTask = defineHotelTask({
  id: "hotel.charge-no-shows",
  summary: "Post this month's missing no-show fees (policy amount, code NOSHOW) on the folios.",
  instruction: `${TODAY_TEXT} Please go through this month's no-shows at every property and post the no-show fee on each folio where the cancellation policy says one is due and it hasn't been charged yet. Reply with how many fees you posted and their total, e.g. \`Posted 3 no-show fees, total €389.00\`.`,
  tools: ["pms_navigate", "pms_submit_form"],
  verify: ({ initial, final, answer }) =>
    checkPostedFees(initial, final, answer, "NOSHOW", unchargedNoShows(initial)),
  cells,
  nearMisses: {
    "charges-twice": [
      { charged: "False" },
      "Posts the fee without looking at the folio, so no-shows already charged are charged again.",
    ],
    "guessed-dates": [
      { helpers: GUESSED_DATES_PY },
      "Parses day-first dates in US order, so it charges last month's no-shows and misses this month's.",
    ],
    "blind-post": [
      { helpers: BLIND_POST_PY },
      "Never reads the page a post returns; posts that hit the error page are lost.",
    ],
  },
});
