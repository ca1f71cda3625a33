import { allRows, checkAnswerAmounts, REFERENCE_DATE } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { DOCS, round2 } from "../world.js";
import { TODAY_TEXT, defineCoopTask } from "./common.js";

/** The fill tolerance as the delivery rules state it ("reach 98% of the contracted bushels"). */
export function fillTolerance(state: StateView): number {
  return (
    Number(/reach (\d+(?:\.\d+)?)% of the contracted/.exec(state.readFile(DOCS.delivery) ?? "")![1]) / 100
  );
}

/** Open contracts whose delivery period ended before today, applied below the tolerance: contracted less applied. */
export function expectedShortfalls(state: StateView): Map<string, number> {
  const tolerance = fillTolerance(state);
  const rows = allRows<{ contract_id: string; bushels: number; applied: number }>(
    state.db,
    "SELECT c.contract_id, c.bushels, COALESCE((SELECT SUM(bushels) FROM applications a WHERE a.contract_id = c.contract_id), 0) AS applied FROM contracts c WHERE status = 'open' AND delivery_end < ?",
    REFERENCE_DATE,
  );
  return new Map(
    rows
      .filter((r) => r.applied < tolerance * r.bushels)
      .map((r) => [r.contract_id, round2(r.bushels - r.applied)]),
  );
}

function verify({ initial, answer }: VerifyContext): Check[] {
  return [checkAnswerAmounts("answer", answer, expectedShortfalls(initial), 0.011)];
}

type Variant = { trustBody?: boolean; noTolerance?: boolean; cancelled?: boolean; toTolerance?: boolean };

function cell(v: Variant): string {
  return String.raw`
tolerance = float(re.search(r"reach (\d+(?:\.\d+)?)% of the contracted", read_text("contracts/delivery-rules.md")).group(1)) / 100
ended = fetch("list_contracts", "contracts", status="open", ended_before=TODAY)${v.cancelled ? ' + fetch("list_contracts", "contracts", status="cancelled", ended_before=TODAY)' : ""}
short = {}
for c in ended:
    detail = ${v.trustBody ? 'tools.get_contract(contract_id=c["contract_id"])' : 'call("get_contract", contract_id=c["contract_id"])'}
    applied = sum(a["bushels"] for a in detail.get("applications", []))
    if applied < ${v.noTolerance ? "1.0" : "tolerance"} * c["bushels"]:
        short[c["contract_id"]] = round(c["bushels"]${v.toTolerance ? " * tolerance" : ""} - applied, 2)
print(json.dumps(short))
`;
}

export const contractShortfallsTask = defineCoopTask<Variant>({
  id: "coop.contract-shortfalls",
  summary: "Contracts whose delivery period ended short of the contracted bushels, and by how much.",
  instruction: `${TODAY_TEXT} Which contracts are still open although their delivery period has already ended, and came up short under contracts/delivery-rules.md? For each short contract I need the shortfall in bushels (contracted minus applied). Reply with a JSON object mapping contract ids to shortfall bushels rounded to two decimals, e.g. {"C-00012": 1450.25}.`,
  tools: ["list_members", "list_contracts", "get_contract"],
  verify,
  cells: cell,
  nearMisses: [
    [
      "trusts-error-body",
      "Reads the contract service's error body as a contract with no applications.",
      { trustBody: true },
    ],
    [
      "no-fill-tolerance",
      "Reports every contract below 100%, ignoring the fill tolerance.",
      { noTolerance: true },
    ],
    ["includes-cancelled", "Reports cancelled contracts as short too.", { cancelled: true }],
    [
      "shortfall-to-tolerance",
      "Measures the shortfall to the 98% fill line instead of the contracted bushels.",
      { toTolerance: true },
    ],
  ],
});
