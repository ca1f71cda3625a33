import { checkAnswerAmounts, defineTask } from "../../../envs/index.js";
import { hotelDomain } from "../domain.js";
import { TODAY_TEXT, groupAttrition } from "./expectations.js";
import { HOTEL_PY } from "./python.js";

function cells({
  picked = 'status not in ("Cancelled",)',
  cutoff = "read(info['Cutoff']) < TODAY",
}): string[] {
  return [
    HOTEL_PY,
    String.raw`
pct = float(re.search(r"fewer than (\d+)%", read_text("policies/group-blocks.md")).group(1))
owed = {}
for code in property_codes():
    read = date_reader(code)
    for row in rows_of(f"/properties/{code}/groups", "Group blocks"):
        snap = open_page(f"/groups/{row['Block']}")
        info = fields(snap)
        if not (${cutoff}):
            continue
        picked = sum(1 for member in table(snap, "Rooming list") if (lambda status: ${picked})(member["Status"]))
        short = math.ceil(int(info["Rooms blocked"]) * pct / 100) - picked
        nights = (read(info["Departure"]) - read(info["Arrival"])).days
        if short > 0:
            owed[row["Block"]] = cents(short * eur(info["Group rate"].split()[0]) * nights)
print(json.dumps(owed))
`,
  ];
}

export const groupAttritionTask = defineTask({
  id: "hotel.group-attrition",
  domain: hotelDomain,
  summary:
    "Attrition owed by group blocks past their cutoff: shortfall under the pickup threshold x rate x nights.",
  instruction: `${TODAY_TEXT} Sales needs the attrition charges for our group blocks: every block whose cutoff date has passed and that picked up too few rooms under the group-blocks policy. Reply with a JSON object from block code to the attrition fee in euros, listing only blocks that owe something, e.g. \`{"GB-4107": 612.0}\`.`,
  tools: ["pms_navigate"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer-fees", answer, groupAttrition(initial))],
  oracle: cells({}),
  nearMisses: [
    {
      id: "cancelled-count",
      description: "Counts cancelled rooming-list reservations as picked up.",
      cells: cells({ picked: "True" }),
    },
    {
      id: "no-shows-not-picked",
      description: "Leaves no-shows out of the pickup.",
      cells: cells({ picked: 'status not in ("Cancelled", "No-show")' }),
    },
    {
      id: "ignores-cutoff",
      description: "Charges blocks whose cutoff has not passed yet.",
      cells: cells({ cutoff: "True" }),
    },
  ],
});
