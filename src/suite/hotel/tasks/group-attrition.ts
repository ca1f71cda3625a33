import { defineHotelTask } from "./python.js";
import { checkAnswerAmounts } from "../../../envs/index.js";
import { TODAY_TEXT, groupAttrition } from "./expectations.js";

function cells({
  picked = 'status not in ("Cancelled",)',
  cutoff = "read(info['Cutoff']) < TODAY",
}): string[] {
  return [
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

export const groupAttritionTask = defineHotelTask({
  id: "hotel.group-attrition",
  summary:
    "Attrition owed by group blocks past their cutoff: shortfall under the pickup threshold x rate x nights.",
  instruction: `${TODAY_TEXT} Sales needs the attrition charges for our group blocks: every block whose cutoff date has passed and that picked up too few rooms under the group-blocks policy. Reply with a JSON object from block code to the attrition fee in euros, listing only blocks that owe something, e.g. \`{"GB-4107": 612.0}\`.`,
  tools: ["pms_navigate"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer-fees", answer, groupAttrition(initial))],
  cells,
  nearMisses: {
    "cancelled-count": [{ picked: "True" }, "Counts cancelled rooming-list reservations as picked up."],
    "no-shows-not-picked": [
      { picked: 'status not in ("Cancelled", "No-show")' },
      "Leaves no-shows out of the pickup.",
    ],
    "ignores-cutoff": [{ cutoff: "True" }, "Charges blocks whose cutoff has not passed yet."],
  },
});
