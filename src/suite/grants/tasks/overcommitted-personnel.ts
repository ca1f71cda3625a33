import { allRows, checkAnswerAmounts, defineTask, type StateView } from "../../../envs/index.js";
import { grantsDomain } from "../domain.js";
import { readPolicies, nonEmpty } from "../facts.js";
import { grantsCells, nearMisses } from "./python.js";

/** People whose effort committed on active awards exceeds the cap for their appointment, with that total. */
export function overcommitted(state: StateView): Map<string, number> {
  const { effortCaps } = readPolicies(state);
  type Total = { person_id: string; appointment: string; total: number };
  const totals = allRows<Total>(
    state.db,
    `SELECT p.person_id, p.appointment, sum(c.committed_pct) AS total FROM personnel p
       JOIN commitments c ON c.person_id = p.person_id JOIN awards a ON a.award_id = c.award_id
      WHERE a.status = 'active' GROUP BY p.person_id`,
  );
  const over = totals.filter((row) => row.total > effortCaps.get(row.appointment)!);
  return nonEmpty(new Map(over.map((row) => [row.person_id, row.total])), "overcommitted person");
}

const cells = grantsCells(String.raw`
caps = policies()["caps"]
active = {a["award_id"] for a in fetch("list_awards", "awards", **({} if "counts-closed-awards" in NEAR else {"status": "active"}))}
result = {}
for staff in fetch("list_personnel", "personnel"):
    record = person(staff["person_id"])
    if record is None:
        continue
    total = sum(c["committed_pct"] for c in record["commitments"] if c["award_id"] in active)
    if total > (100 if "flat-100" in NEAR else caps[staff["appointment"]]):
        result[staff["person_id"]] = total
print(json.dumps(result))
`);

export const overcommittedPersonnelTask = defineTask({
  id: "grants.overcommitted-personnel",
  domain: grantsDomain,
  summary:
    "People whose effort committed across the awards active today exceeds the cap for their appointment (faculty, postdoc, staff, graduate student) in the procedures.",
  instruction:
    'Check effort commitments against our caps: who is committed, across the awards that are active today, to more total effort than their appointment allows? Reply with only a JSON object mapping each such person\'s ID to their total committed effort in percent, e.g. {"EMP-00123": 105}.',
  tools: ["list_awards", "list_personnel", "get_person"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, overcommitted(initial), 0.001)],
  oracle: cells([]),
  nearMisses: nearMisses(cells, [
    "flat-100: Uses a 100% cap for everyone instead of the cap for each appointment.",
    "counts-closed-awards: Adds up commitments on closed awards too.",
    "skips-error-records: Skips a person whose record came back as an error body instead of requesting it again.",
  ]),
});
