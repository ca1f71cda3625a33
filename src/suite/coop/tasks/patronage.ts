import { allRows, checkAnswerAmounts, roundCents } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { DOCS, patronageRates } from "../world.js";
import { TODAY_TEXT, defineCoopTask } from "./common.js";

/** Patronage per member: settled bushels of active, non-storage tickets in the fiscal year times the crop rate. */
export function expectedPatronage(state: StateView): Map<string, number> {
  const rates = patronageRates(state);
  const [, start, end] = /fiscal year (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d)/.exec(
    state.readFile(DOCS.patronage) ?? "",
  )!;
  const rows = allRows<{ member_id: string; crop: string; net_bu: number }>(
    state.db,
    "SELECT t.member_id, t.crop, t.net_bu FROM tickets t JOIN members m ON m.member_id = t.member_id WHERE m.patron_status = 'member' AND t.status = 'active' AND t.designation != 'storage' AND t.ticket_date BETWEEN ? AND ? ORDER BY t.ticket_id",
    start,
    end,
  );
  const totals = new Map<string, number>();
  for (const r of rows)
    totals.set(r.member_id, (totals.get(r.member_id) ?? 0) + r.net_bu * rates.get(r.crop)!);
  return new Map([...totals].map(([member, amount]) => [member, roundCents(amount)]));
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkAnswerAmounts("answer", answer, expectedPatronage(initial), 0.011)];
}

type Variant = { storage?: boolean; allPatrons?: boolean; allYears?: boolean; afterStart?: boolean };

function cell(v: Variant): string {
  return String.raw`
text = read_text("board/patronage-allocation.md")
start, end = re.search(r"fiscal year (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d)", text).groups()
rates = {r[0]: float(r[1]) for r in md_table(text, "Rates")}
members = {m["member_id"] for m in fetch("list_members", "members"${v.allPatrons ? "" : ', patron_status="member"'})}
tickets = fetch("list_tickets", "tickets", status="active"${v.allYears ? "" : ", date_from=start, date_to=end"})
totals = {}
for t in tickets:
    if t["member_id"] not in members or ${v.afterStart ? 't["ticket_date"] == start or ' : ""} (t["designation"] == "storage" and not ${v.storage ? "True" : "False"}):
        continue
    totals[t["member_id"]] = totals.get(t["member_id"], 0.0) + t["net_bu"] * rates[t["crop"]]
print(json.dumps({m: round(a, 2) for m, a in sorted(totals.items())}))
`;
}

export const patronageTask = defineCoopTask<Variant>({
  id: "coop.patronage",
  summary:
    "Each member's patronage allocation for the fiscal year from the keyed tickets and the board's rates.",
  instruction: `${TODAY_TEXT} The board needs this year's patronage allocation. Using the tickets in the accounting system and board/patronage-allocation.md, work out each eligible member's allocation. Reply with a JSON object mapping member ids to dollars rounded to the cent, e.g. {"M-0003": 1520.37}, leaving out anyone with nothing allocated.`,
  tools: ["list_members", "list_tickets"],
  verify,
  cells: cell,
  nearMisses: [
    ["counts-storage", "Counts grain in open storage as patronage business.", { storage: true }],
    ["all-patrons", "Allocates to non-member patrons too.", { allPatrons: true }],
    ["all-years", "Counts tickets outside the fiscal year.", { allYears: true }],
    ["excludes-first-day", "Starts the fiscal year after its first day.", { afterStart: true }],
  ],
});
