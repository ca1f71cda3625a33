import { allRows, checkAnswerCount, checkStateDiff } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { round2 } from "../world.js";
import { defineCoopTask } from "./common.js";

interface Contract {
  contract_id: string;
  member_id: string;
  elevator_id: string;
  crop: string;
  contract_type: string;
  signed_on: string;
  delivery_start: string;
  delivery_end: string;
  open: number;
}

/** The delivery rules run over the unapplied contract tickets, as apply_ticket would store them. */
export function expectedApplications(state: StateView): {
  added: Array<{ ticket_id: string; contract_id: string; bushels: number }>;
  filled: string[];
} {
  const tickets = allRows<{
    ticket_id: string;
    member_id: string;
    elevator_id: string;
    crop: string;
    ticket_date: string;
    net_bu: number;
  }>(
    state.db,
    "SELECT * FROM tickets t WHERE status = 'active' AND designation = 'contract' AND NOT EXISTS (SELECT 1 FROM applications a WHERE a.ticket_id = t.ticket_id) ORDER BY ticket_date, ticket_id",
  );
  const contracts = allRows<Contract>(
    state.db,
    "SELECT c.*, c.bushels - COALESCE((SELECT SUM(bushels) FROM applications a WHERE a.contract_id = c.contract_id), 0) AS open FROM contracts c WHERE status = 'open'",
  ).map((c) => ({ ...c, open: round2(c.open) }));
  const order = (a: Contract, b: Contract): number =>
    Number(a.contract_type === "deferred_price") - Number(b.contract_type === "deferred_price") ||
    a.signed_on.localeCompare(b.signed_on) ||
    a.contract_id.localeCompare(b.contract_id);
  const added: Array<{ ticket_id: string; contract_id: string; bushels: number }> = [];
  const filled: string[] = [];
  for (const t of tickets) {
    let left = round2(t.net_bu);
    const eligible = contracts
      .filter((c) => c.member_id === t.member_id && c.crop === t.crop && c.elevator_id === t.elevator_id)
      .filter((c) => c.delivery_start <= t.ticket_date && t.ticket_date <= c.delivery_end)
      .sort(order);
    for (const c of eligible) {
      if (left <= 0 || c.open <= 0) continue;
      const bushels = Math.min(left, c.open);
      added.push({ ticket_id: t.ticket_id, contract_id: c.contract_id, bushels });
      left = round2(left - bushels);
      c.open = round2(c.open - bushels);
      if (c.open <= 0) filled.push(c.contract_id);
    }
  }
  return { added, filled };
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const { added, filled } = expectedApplications(initial);
  return [
    ...checkStateDiff(initial.db, final.db, [
      { table: "applications", key: "application_id", added },
      {
        table: "contracts",
        key: "contract_id",
        changed: new Map(filled.map((id) => [id, { status: "filled" }])),
      },
    ]),
    checkAnswerCount(answer, new Set(added.map((a) => a.ticket_id)).size),
  ];
}

type Variant = { signedOrder?: boolean; anyWindow?: boolean; anyElevator?: boolean; anyAccount?: boolean };

function cell(v: Variant): string {
  return String.raw`
filters = dict(status="active", unapplied=True${v.anyAccount ? "" : ', designation="contract"'})
tickets = sorted(fetch("list_tickets", "tickets", **filters), key=lambda t: (t["ticket_date"], t["ticket_id"]))
contracts = fetch("list_contracts", "contracts", status="open")
full = set()
applied = set()
for t in tickets:
    if t["designation"] == "spot" or t["net_bu"] <= 0:
        continue
    eligible = [c for c in contracts if c["member_id"] == t["member_id"] and c["crop"] == t["crop"]
                and (${v.anyElevator ? "True" : 'c["elevator_id"] == t["elevator_id"]'})
                and (${v.anyWindow ? "True" : 'c["delivery_start"] <= t["ticket_date"] <= c["delivery_end"]'})]
    eligible.sort(key=lambda c: (${v.signedOrder ? "False" : 'c["contract_type"] == "deferred_price"'}, c["signed_on"], c["contract_id"]))
    for c in eligible:
        if c["contract_id"] in full:
            continue
        result = call("apply_ticket", ticket_id=t["ticket_id"], contract_id=c["contract_id"])
        applied.add(t["ticket_id"])
        if result["contract_open_bu"] <= 0:
            full.add(c["contract_id"])
        if result["ticket_unapplied_bu"] <= 0:
            break
print(f"Applied {len(applied)} tickets")
`;
}

export const applyTicketsTask = defineCoopTask<Variant>({
  id: "coop.apply-tickets",
  summary:
    "Apply the unapplied contract tickets to members' contracts, first in first applied, per the delivery rules.",
  instruction:
    "Please apply every delivered ticket that hasn't been applied to a contract yet, following contracts/delivery-rules.md exactly (which tickets qualify, which contracts they can go to, and in what order), using apply_ticket. Leave everything else as it is. Reply with the number of tickets you applied, e.g. `Applied 12 tickets`.",
  tools: ["list_members", "list_tickets", "get_ticket", "list_contracts", "get_contract", "apply_ticket"],
  verify,
  cells: cell,
  nearMisses: [
    [
      "signed-order-only",
      "Fills contracts oldest signed first, deferred-price ones included.",
      { signedOrder: true },
    ],
    [
      "ignores-delivery-period",
      "Applies tickets to open contracts outside their delivery period.",
      { anyWindow: true },
    ],
    [
      "ignores-elevator",
      "Applies tickets to the member's contracts at other elevators.",
      { anyElevator: true },
    ],
    ["applies-storage", "Applies storage tickets too.", { anyAccount: true }],
  ],
});
