import { checkAnswerCount, checkStateDiff, type StateView, type Flags } from "../../../envs/index.js";
import { readCabinetPars } from "../workspace-facts.js";
import { pharmacyTask, isUsable, stockRows, unitsBy } from "./pharmacy-task.js";

/** Refill requests the cabinet par sheets call for: location, drug, units. */
export function expectedRefills(
  state: StateView,
): Array<{ location_id: string; drug_id: string; quantity: number }> {
  const usable = unitsBy(stockRows(state).filter(isUsable), (row) => `${row.location_id}/${row.drug_id}`);
  const refills: Array<{ location_id: string; drug_id: string; quantity: number }> = [];
  for (const [cabinet, sheet] of readCabinetPars(state))
    for (const [drug, { min, max }] of sheet) {
      const onHand = usable.get(`${cabinet}/${drug}`) ?? 0;
      if (onHand <= min) refills.push({ location_id: cabinet, drug_id: drug, quantity: max - onHand });
    }
  return refills;
}

function cells(variant: Flags<"strictlyBelow" | "countAllStock" | "upToMin">): string[] {
  return [
    String.raw`
requests = 0
for path in workspace_files("par/cabinets"):
    cabinet = path.rsplit("/", 1)[1].removesuffix(".csv")
    on_hand = {}
    for row in fetch("list_inventory", "stock", location_id=cabinet):
        if ${variant.countAllStock ? "True" : "usable(row)"}:
            on_hand[row["drug_id"]] = on_hand.get(row["drug_id"], 0) + row["quantity"]
    for line in read_csv(path):
        have = on_hand.get(line["drug_id"], 0)
        if have ${variant.strictlyBelow ? "<" : "<="} int(line["min"]):
            quantity = int(line["${variant.upToMin ? "min" : "max"}"]) - have
            if quantity > 0:
                call("request_refill", location_id=cabinet, drug_id=line["drug_id"], quantity=quantity)
                requests += 1
print(f"Requested {requests} refills")
`,
  ];
}

export const cabinetRefillsTask = pharmacyTask({
  id: "pharmacy.cabinet-refills",
  summary: "Request the cabinet refills the per-cabinet par sheets call for, counting only usable stock.",
  instruction:
    "Generate this morning's refill run for the automated dispensing cabinets: for every cabinet that has a par sheet in par/cabinets/, request the refills our inventory management policy calls for with request_refill (one request per cabinet and drug). Change nothing else. Reply with the number of refill requests you made, e.g. `Requested 14 refills`.",
  tools: ["list_locations", "list_inventory", "list_drugs", "request_refill"],
  expected: expectedRefills,
  nothing: "refill",
  checks: (expected, { initial, final, answer }) => [
    ...checkStateDiff(initial.db, final.db, [
      { table: "refill_requests", key: "request_id", added: expected },
    ]),
    checkAnswerCount(answer, expected.length),
  ],
  cells,
  nearMisses: {
    "strictly-below-minimum": [{ strictlyBelow: true }, "Skips drugs sitting exactly at their minimum."],
    "counts-expired-and-quarantined": [
      { countAllStock: true },
      "Counts expired and quarantined pockets as stock on hand.",
    ],
    "refills-to-minimum": [{ upToMin: true }, "Refills up to the minimum instead of the maximum."],
  },
});
