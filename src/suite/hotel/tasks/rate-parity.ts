import { checkAnswerIdLists, defineTask, pythonClientHelpers } from "../../../envs/index.js";
import { hotelDomain } from "../domain.js";
import { TODAY_TEXT, parityMismatches } from "./expectations.js";
import { HOTEL_PY } from "./python.js";

const CAREFUL_FEED = `${pythonClientHelpers()}
def feed(**filters):
    return fetch("list_reservations", "reservations", **filters)
`;
const TRUSTING_FEED = String.raw`
def feed(**filters):
    items, page = [], 1
    while True:
        result = tools.list_reservations(page=page, per_page=50, **filters)
        items.extend(result.get("reservations", []))
        if not result.get("has_more"):
            return items
        page += 1
`;

function cells({
  reader = CAREFUL_FEED,
  net = "1 - commission / 100",
  skip = 'booking["status"] != "confirmed"',
}): string[] {
  return [
    HOTEL_PY + reader,
    String.raw`
commission = float(re.search(r"less its (\d+)% commission", read_text("rates/rate-plans.md")).group(1))
wrong = []
for booking in feed(arrival_from=TODAY.isoformat()):
    if ${skip}:
        continue
    res = reservation(booking["reservation_id"])
    gross = eur(res["Nightly rate"]) * int(res["Nights"])
    expected = cents(gross * (${net})) if booking["channel"] == "Expedia" else cents(gross)
    if abs(expected - booking["amount"]) > 0.005:
        wrong.append(booking["reservation_id"])
print(json.dumps({"mismatched": sorted(wrong)}))
`,
  ];
}

export const rateParityTask = defineTask({
  id: "hotel.rate-parity",
  domain: hotelDomain,
  summary:
    "Upcoming confirmed online bookings whose channel amount disagrees with the PMS rate (Expedia net of commission).",
  instruction: `${TODAY_TEXT} Revenue suspects the channel manager and the PMS disagree on some upcoming online bookings. Check every booking in the channel feed arriving today or later against the PMS reservation, the way our rate-plan notes describe parity, and reply with a JSON object listing the PMS reservation numbers that are out of parity, e.g. \`{"mismatched": ["R-104233", "R-104388"]}\`.`,
  tools: ["pms_navigate", "list_reservations"],
  verify: ({ initial, answer }) => [
    checkAnswerIdLists(answer, new Map([["mismatched", parityMismatches(initial)]])),
  ],
  oracle: cells({}),
  nearMisses: [
    {
      id: "gross-for-expedia",
      description: "Compares Expedia's net amounts with the gross rate, flagging every Expedia booking.",
      cells: cells({ net: "1" }),
    },
    {
      id: "trusts-the-feed",
      description: "Takes the feed's error body for an empty page and stops reading.",
      cells: cells({ reader: TRUSTING_FEED }),
    },
    {
      id: "checks-cancelled",
      description: "Checks cancelled bookings too.",
      cells: cells({ skip: "False" }),
    },
  ],
});
