import { checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import type { Check, VerifyContext } from "../../../envs/index.js";
import { readScaleLogs } from "../logs.js";
import { defineCoopTask } from "./common.js";
import { expectedReconciliation } from "./scale-reconciliation.js";

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const { tickets } = readScaleLogs(initial);
  const missing = expectedReconciliation(initial).missing.map((id) => tickets.get(id)!);
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "tickets",
        key: "ticket_id",
        added: missing.map((t) => ({
          ticket_id: t.ticket_id,
          elevator_id: t.elevator_id,
          member_id: t.member_id,
          crop: t.crop,
          ticket_date: t.ticket_date,
          gross_lb: Math.round(t.gross_lb),
          tare_lb: Math.round(t.tare_lb),
          moisture: t.moisture,
          test_weight: t.test_weight,
          fm: t.fm,
          designation: t.designation,
          status: "active",
        })),
      },
    ]),
    checkAnswerCount(answer, missing.length),
  ];
}

type Variant = { kgAsLb?: boolean; voided?: boolean; firstProbe?: boolean; skipReissues?: boolean };

function cell(v: Variant): string {
  return String.raw`
tickets, voided = scale_tickets(kg_as_lb=${v.kgAsLb ? "True" : "False"}, first_probe=${v.firstProbe ? "True" : "False"}, skip_reissues=${v.skipReissues ? "True" : "False"})
first = min(t["ticket_date"] for t in tickets.values())
keyed = {t["ticket_id"] for t in fetch("list_tickets", "tickets", date_from=first)}
created = 0
for tid, t in sorted(tickets.items()):
    if tid in keyed or (tid in voided and not ${v.voided ? "True" : "False"}):
        continue
    call("create_ticket", ticket_id=tid, elevator_id=t["elevator_id"], member_id=t["member_id"], crop=t["crop"],
         ticket_date=t["ticket_date"], gross_lb=round(t["gross_lb"]), tare_lb=round(t["tare_lb"]),
         moisture=t["moisture"], test_weight=t["test_weight"], fm=t["fm"], designation=t["designation"])
    created += 1
print(f"Keyed {created} missing tickets")
`;
}

export const recordMissingTicketsTask = defineCoopTask<Variant>({
  id: "coop.record-missing-tickets",
  summary: "Key the tickets the scale journals printed but the office never entered.",
  instruction:
    "Some tickets printed at the truck scales never made it into the accounting system. Go through the scale journals in logs/ (scale/scale-house-procedures.md explains them) and key every printed ticket that is missing with create_ticket: same ticket number, elevator, member, crop, date, account, grade, and the weights in whole pounds. Don't key voided tickets and don't change anything else. Reply with the number of tickets you keyed, e.g. `Keyed 3 missing tickets`.",
  tools: ["list_tickets", "get_ticket", "create_ticket"],
  verify,
  cells: cell,
  nearMisses: [
    ["kg-as-lb", "Keys kilogram weights as pounds.", { kgAsLb: true }],
    ["keys-voided", "Also keys voided tickets that were never entered.", { voided: true }],
    ["first-probe", "Keys a re-probed load's first probe as its grade.", { firstProbe: true }],
    [
      "skips-reissues",
      "Reads IN lines only, missing tickets printed on a REISSUE line.",
      { skipReissues: true },
    ],
  ],
});
