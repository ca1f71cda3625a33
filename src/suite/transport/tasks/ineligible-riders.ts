import { allRows, requireFile, checkAnswerIds } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { POLICY } from "../documents.js";
import { parseMarkdownTable } from "../../../envs/index.js";
import { gradeNumber } from "../world.js";
import { defineTransportTask, nonEmpty } from "./common.js";

/** The policy's minimum distance for a grade, and the zones it rates hazardous. */
export function readEligibility(state: StateView): { limit: (grade: string) => number; hazard: string[] } {
  const text = requireFile(state, POLICY);
  const bands = parseMarkdownTable(text, "Eligibility").map((row) => {
    const [low, high] = row[1]!.split("-").map(gradeNumber);
    return { low: low!, high: high!, miles: Number(row[2]) };
  });
  const hazard = /students living in (.+?) are eligible at any distance/.exec(text)?.[1]?.split(" or ") ?? [];
  if (bands.length === 0 || hazard.length === 0) throw new Error("cannot read the eligibility rules");
  const limit = (grade: string): number =>
    bands.find((b) => b.low <= gradeNumber(grade) && gradeNumber(grade) <= b.high)!.miles;
  return { limit, hazard };
}

/** Students assigned to a stop whom the policy does not make eligible. */
export function expectedIneligible(state: StateView): string[] {
  const { limit, hazard } = readEligibility(state);
  const riders = allRows<{
    student_id: string;
    grade: string;
    home_zone: string;
    distance_miles: number;
    transport_needs: string;
  }>(
    state.db,
    "SELECT student_id, grade, home_zone, distance_miles, transport_needs FROM students WHERE stop_id IS NOT NULL ORDER BY student_id",
  );
  const eligible = (s: (typeof riders)[number]): boolean =>
    s.distance_miles >= limit(s.grade) || hazard.includes(s.home_zone) || s.transport_needs !== "none";
  return nonEmpty(
    riders.filter((s) => !eligible(s)).map((s) => s.student_id),
    "ineligible rider",
  );
}

type Variant = { singleLimit?: boolean; strict?: boolean; noHazard?: boolean };

function cell(variant: Variant): string {
  return String.raw`
policy = read_text(POLICY)
bands = []
for band, grades, miles in md_table(policy, "Eligibility"):
    low, high = [0 if g == "K" else int(g) for g in grades.split("-")]
    bands.append((low, high, float(miles)))
hazard = re.search(r"students living in (.+?) are eligible at any distance", policy).group(1).split(" or ")${variant.noHazard ? "\nhazard = []" : ""}
def limit(grade):
    g = 0 if grade == "K" else int(grade)
    ${variant.singleLimit ? "return bands[0][2]" : "return next(m for low, high, m in bands if low <= g <= high)"}
ineligible = []
for school in fetch("list_schools", "schools"):
    for s in fetch("list_students", "students", school_id=school["school_id"], riding=True):
        far = s["distance_miles"] ${variant.strict ? ">" : ">="} limit(s["grade"])
        if not (far or s["home_zone"] in hazard or s["transport_needs"] != "none"):
            ineligible.append(s["student_id"])
print(json.dumps(sorted(ineligible)))
`;
}

export const ineligibleRidersTask = defineTransportTask<Variant>({
  id: "transport.ineligible-riders",
  summary: "List the students assigned to a stop who are not eligible for bus service under the policy.",
  instruction:
    'Before we renew next year\'s routes, find every student currently assigned to a bus stop who is not eligible for bus service under our transportation policy (policies/transportation-policy.md). Reply with a JSON array of their student ids, e.g. ["STU-00012", "STU-00340"].',
  tools: ["list_schools", "list_students", "list_stops"],
  verify: ({ initial, answer }) => [checkAnswerIds(answer, expectedIneligible(initial))],
  cells: cell,
  nearMisses: [
    ["single-limit", "Applies the elementary walk distance to every grade.", { singleLimit: true }],
    ["strict-boundary", "Treats a student exactly at the minimum distance as ineligible.", { strict: true }],
    ["ignores-hazard-zones", "Forgets the hazardous walking zones.", { noHazard: true }],
  ],
});
