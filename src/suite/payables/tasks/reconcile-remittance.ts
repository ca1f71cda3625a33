import { allRows, check, defineTask, parseCsv, type Check, type VerifyContext } from "../../../envs/index.js";
import { REMITTANCE_DIR } from "../documents.js";
import { payablesDomain } from "../domain.js";
import {
  PYTHON_PRELUDE,
  answerFormatFailure,
  answerIdList,
  answerObject,
  checkIdSet,
  nearMisses,
} from "../task-support.js";

const KEYS = ["unmatched_bank_references", "missing_from_bank", "amount_mismatches"] as const;
type Reconciliation = Record<(typeof KEYS)[number], string[]>;

/** Bank export lines against the live ledger payments of the same pay run, by reference. */
export function expectedReconciliation({ initial }: Pick<VerifyContext, "initial">): Reconciliation {
  const result: Reconciliation = {
    unmatched_bank_references: [],
    missing_from_bank: [],
    amount_mismatches: [],
  };
  for (const path of initial
    .listFiles()
    .filter((file) => file.startsWith(REMITTANCE_DIR) && file.endsWith(".csv"))) {
    const lines = parseCsv(initial.readFile(path) ?? "");
    const day = lines[0]?.value_date;
    if (!day) continue;
    const payments = allRows<{ payment_id: string; amount: number; reference: string }>(
      initial.db,
      "SELECT payment_id, amount, reference FROM payments WHERE paid_on = ? AND status != 'void'",
      day,
    );
    const byReference = new Map(payments.map((payment) => [payment.reference, payment]));
    const bankReferences = new Set(lines.map((line) => line.bank_reference!));
    for (const line of lines) {
      const payment = byReference.get(line.bank_reference!);
      if (!payment) result.unmatched_bank_references.push(line.bank_reference!);
      else if (Math.round(payment.amount * 100) !== Math.round(Number(line.amount) * 100))
        result.amount_mismatches.push(payment.payment_id);
    }
    for (const payment of payments)
      if (!bankReferences.has(payment.reference)) result.missing_from_bank.push(payment.payment_id);
  }
  for (const key of KEYS) result[key].sort();
  return result;
}

function verify(context: VerifyContext): Check[] {
  const expected = expectedReconciliation(context);
  if (KEYS.some((key) => expected[key].length === 0))
    throw new Error("generation left a reconciliation category empty");
  const parsed = answerObject(context.answer);
  if (!parsed) return answerFormatFailure(`a JSON object with ${KEYS.join(", ")}`, context.answer);
  return KEYS.map((key) => {
    const given = answerIdList(parsed[key]);
    if (given === null) return check(key, false, `${key} is missing or not a list`);
    return checkIdSet(key, expected[key], given, {
      success: `${expected[key].length} ${key} found`,
      prefix: `${key}: `,
      extraLabel: "wrongly listed",
    });
  });
}

const MISSES = {
  "trusts-error-pages": "Takes an empty page that carries an error status as the run having no payments.",
  "void-counts-as-recorded": "Matches bank lines against voided payments too.",
};

function cells(miss?: keyof typeof MISSES): string[] {
  const fetchRun =
    miss === "trusts-error-pages"
      ? String.raw`
def fetch_run(day):
    return fetch_all("list_payments", "payments", paid_on=day)
`
      : String.raw`
def fetch_run(day):
    items, page = [], 1
    while True:
        for attempt in range(5):
            result = tools["list_payments"](paid_on=day, page=page, per_page=50)
            if result.get("status") != "error":
                break
            print("retrying", day, "page", page, ":", result.get("error"))
        else:
            raise RuntimeError("list_payments kept failing for " + day)
        items += result["payments"]
        if not result["has_more"]:
            return items
        page += 1
`;
  return [
    PYTHON_PRELUDE,
    fetchRun +
      String.raw`
exports = {}
for path in workspace_files("exports/remittance/"):
    rows = list(csv.DictReader(io.StringIO(read_text(path))))
    if rows:
        exports[rows[0]["value_date"]] = rows
print(sorted(exports))
`,
    String.raw`
unmatched, missing, mismatched = [], [], []
for day, rows in sorted(exports.items()):
    ledger = {p["reference"]: p for p in fetch_run(day) if ${miss === "void-counts-as-recorded" ? "True" : 'p["status"] != "void"'}}
    bank = {row["bank_reference"] for row in rows}
    for row in rows:
        payment = ledger.get(row["bank_reference"])
        if payment is None:
            unmatched.append(row["bank_reference"])
        elif round(payment["amount"] * 100) != round(float(row["amount"]) * 100):
            mismatched.append(payment["payment_id"])
    missing += [p["payment_id"] for p in ledger.values() if p["reference"] not in bank${miss === "void-counts-as-recorded" ? ' and p["status"] != "void"' : ""}]
print(json.dumps({"unmatched_bank_references": sorted(unmatched), "missing_from_bank": sorted(missing), "amount_mismatches": sorted(mismatched)}))
`,
  ];
}

export const reconcileRemittanceTask = defineTask({
  id: "payables.reconcile-remittance",
  domain: payablesDomain,
  summary:
    "Reconcile each bank remittance export against the ledger's payments of the same pay run (by bank reference), through a pay-run query that sometimes returns an empty page with an error note.",
  instruction:
    'Reconcile the bank\'s remittance exports in exports/remittance/ against our payments ledger. Each export is one pay run (its value date); compare it with the payments recorded for that pay date, matching on the bank reference. Voided payments do not count as recorded: a bank line for a payment we voided is unmatched. Reply with only a JSON object with three sorted lists: {"unmatched_bank_references": [bank references with no recorded payment in that run], "missing_from_bank": [our payment ids (PAY-...) of those runs that the bank export does not contain], "amount_mismatches": [our payment ids whose amount differs from the bank\'s]}.',
  tools: ["list_payments", "list_vendors", "get_invoice", "list_invoices"],
  verify,
  oracle: cells(),
  nearMisses: nearMisses(cells, MISSES),
});
