import { allRows, defineTask, parseMarkdownTable, roundCents, type StateView } from "../../../envs/index.js";
import { customsDomain } from "../domain.js";
import { PATHS } from "../rules.js";
import { checkAmounts, customsPrograms } from "./expect.js";

/** Fees per importer for entries filed in the second quarter, per the fee schedule. */
export function expectedFees(state: StateView): Map<string, number> {
  const schedule = state.readFile(PATHS.fees) ?? "";
  const bands = parseMarkdownTable(schedule, "Brokerage fee").map((row) => [
    Number(row[0]),
    row[1] === "and above" ? Infinity : Number(row[1]),
    Number(row[2]),
  ]);
  const [, perLine, included] = /\$([\d.]+) for every invoice line of the entry beyond the first (\d+)/.exec(
    schedule,
  )!;
  const isf = Number(/ISF filing: \$([\d.]+)/.exec(schedule)![1]);
  const fees = new Map<string, number>();
  for (const entry of allRows<{ name: string; entered_value_usd: number; line_count: number; mode: string }>(
    state.db,
    `SELECT i.name, e.entered_value_usd, e.line_count, s.mode FROM entries e JOIN shipments s USING (shipment_id)
       JOIN importers i ON i.importer_id = e.importer_id WHERE e.filed_on BETWEEN '2025-04-01' AND '2025-06-30'`,
  )) {
    const band = bands.find(
      ([from, to]) => entry.entered_value_usd >= from! - 0.005 && entry.entered_value_usd <= to! + 0.005,
    )!;
    const fee =
      band[2]! +
      Math.max(0, entry.line_count - Number(included)) * Number(perLine) +
      (entry.mode === "ocean" ? isf : 0);
    fees.set(entry.name.toUpperCase(), roundCents((fees.get(entry.name.toUpperCase()) ?? 0) + fee));
  }
  return fees;
}

const SETUP = `schedule = read_text("fees/broker-fee-schedule.md")
bands = [(num(r[0]), float("inf") if r[1] == "and above" else num(r[1]), num(r[2])) for r in md_table(schedule, "Brokerage fee")]
per_line, included = re.search(r"\\$([\\d.]+) for every invoice line of the entry beyond the first (\\d+)", schedule).groups()
isf = num(re.search(r"ISF filing: \\$([\\d.]+)", schedule).group(1))
print(bands, per_line, included, isf)`;

const BODY = `fees = {}
for entry in fetch("list_entries", "entries", filed_from="2025-04-01", filed_to="2025-06-30"):
    value = entry["entered_value_usd"]
    band = [b for b in bands if (b[0] <= value < b[1] if "band-exclusive" in NEAR else b[0] <= value <= b[1])][0]
    lines = entry["line_count"] if "all-lines" in NEAR else max(0, entry["line_count"] - int(included))
    fee = band[2] + lines * float(per_line)
    mode = call("get_shipment", shipment_id=entry["shipment_id"])["shipment"]["mode"]
    if mode == "ocean" and "no-isf" not in NEAR:
        fee += isf
    fees[entry["importer_id"]] = money(fees.get(entry["importer_id"], 0) + fee)
names = {importer: call("get_importer", importer_id=importer)["importer"]["name"] for importer in fees}
print(json.dumps({names[importer]: fee for importer, fee in fees.items()}))`;

export const brokerFeesTask = defineTask({
  id: "customs.broker-fees",
  domain: customsDomain,
  summary:
    "Second-quarter broker fees per importer (by name) from filed entries, the shipments' modes and the fee schedule's bands and surcharges.",
  instruction:
    'Prepare the second-quarter brokerage invoices: for every entry filed from 2025-04-01 through 2025-06-30, work out our fee with the broker fee schedule in the workspace, and total the fees per importer. The invoices are addressed by name: reply with only a JSON object mapping each importer\'s name, exactly as our records spell it, to its total fee in USD, e.g. {"Acme Imports Inc": 1240.50}.',
  tools: ["list_entries", "list_shipments", "get_shipment", "get_importer"],
  verify: ({ initial, answer }) => [checkAmounts("fees", answer, expectedFees(initial))],
  ...customsPrograms(SETUP, BODY, [
    [
      "band-upper-exclusive",
      "Treats a band's upper bound as exclusive, so an entry at exactly 10,000.00 pays the next band.",
      "band-exclusive",
    ],
    ["no-isf", "Forgets the ISF surcharge on ocean entries.", "no-isf"],
    [
      "surcharge-all-lines",
      "Charges the line surcharge on every line instead of those beyond the included ones.",
      "all-lines",
    ],
  ]),
});
