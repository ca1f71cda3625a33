import { checkAnswerAmounts, defineTask } from "../../../envs/index.js";
import { hotelDomain } from "../domain.js";
import { TODAY_TEXT, noShowTotals } from "./expectations.js";
import { GUESSED_DATES_PY, HOTEL_PY } from "./python.js";

/** The no-shows of a month at one property: reservation listing (status filter) read in the property's date format. */
export const NO_SHOWS_PY = String.raw`
def no_shows(code, wanted_month):
    read = date_reader(code)
    rows = rows_of(f"/properties/{code}/reservations?status=no_show", "Reservations")
    return [row["Reservation"] for row in rows if month(read(row.get("Arrival") or row["Check-in"])) == wanted_month]
`;

function cells({ helpers = "", fee = 'terms[plan_code(res)]["no_show"]' }): string[] {
  return [
    HOTEL_PY + helpers,
    NO_SHOWS_PY +
      String.raw`
terms = fee_terms()
totals = {}
for code in property_codes():
    totals[code] = 0.0
    for rid in no_shows(code, LAST_MONTH):
        res = reservation(rid)
        totals[code] = cents(totals[code] + cents(${fee} / 100 * eur(res["Nightly rate"])))
print(json.dumps(totals))
`,
  ];
}

export const noShowFeesTask = defineTask({
  id: "hotel.no-show-fees",
  domain: hotelDomain,
  summary: "Total last month's no-show fees per property under the cancellation policy's plan terms.",
  instruction: `${TODAY_TEXT} Finance wants to know how much we're entitled to charge in no-show fees for guests who were due to arrive last month and never showed up, under our cancellation policy. Give me the total per property as a JSON object from property code to euros, with every property in it (0 where there's nothing), e.g. \`{"HBR": 412.5, "MDW": 0}\`.`,
  tools: ["pms_navigate"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer-totals", answer, noShowTotals(initial))],
  oracle: cells({}),
  nearMisses: [
    {
      id: "guessed-dates",
      description: "Parses 05/06/2025 as May 6 (US order) at the properties that print day first.",
      cells: cells({ helpers: GUESSED_DATES_PY }),
    },
    {
      id: "one-night-always",
      description: "Charges one night for every no-show, prepaid and group stays included.",
      cells: cells({ fee: "100" }),
    },
    {
      id: "departure-month",
      description: "Takes the no-shows departing last month instead of those due to arrive then.",
      cells: cells({}).map((cell) =>
        cell.replace('row.get("Arrival") or row["Check-in"]', 'row.get("Departure") or row["Check-out"]'),
      ),
    },
  ],
});
