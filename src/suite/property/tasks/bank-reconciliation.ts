import {
  REFERENCE_DATE,
  allRows,
  check,
  defineTask,
  flagNearMisses,
  nearlyEqual,
  parseCsv,
} from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { bankExportPath } from "../documents.js";
import { propertyDomain } from "../domain.js";
import { ledgerPeriods } from "../rules.js";
import { answerObject } from "./answers.js";
import { PROPERTY_PY } from "./python.js";

interface Reconciliation {
  missing_from_bank: string[];
  not_in_ledger: string[];
  amount_mismatches: string[];
  emails_to_contact: string[];
}

const FIRST_DAY = `${ledgerPeriods(REFERENCE_DATE)[0]}-01`;

/** The differences between the ledger's payments and the bank's deposit export, by the instruction's rules. */
export function expectedReconciliation(state: StateView): Reconciliation {
  const text = state.readFile(bankExportPath(REFERENCE_DATE));
  if (text === null) throw new Error("the bank export is missing");
  const bank = new Map<string, { id: string; amount: number }>();
  for (const row of parseCsv(text)) {
    const reference = /\bPMT-\d+\b/.exec(row.description ?? "");
    if (reference) bank.set(reference[0], { id: row.bank_txn_id!, amount: Number(row.amount) });
  }
  const payments = allRows<{ entry_id: number; reference: string; amount: number; email: string }>(
    state.db,
    `SELECT e.entry_id, e.reference, e.amount, t.email FROM ledger_entries e JOIN leases l ON l.lease_id = e.lease_id JOIN tenants t ON t.tenant_id = l.tenant_id
      WHERE e.entry_type = 'payment' AND e.entry_date >= ? AND e.entry_date <= ? ORDER BY e.entry_id`,
    FIRST_DAY,
    REFERENCE_DATE,
  );
  const references = new Set(payments.map((payment) => payment.reference));
  const missing = payments.filter((payment) => !bank.has(payment.reference));
  return {
    missing_from_bank: missing.map((payment) => String(payment.entry_id)),
    not_in_ledger: [...bank]
      .filter(([reference]) => !references.has(reference))
      .map(([, line]) => line.id)
      .sort(),
    amount_mismatches: payments
      .filter(
        (payment) =>
          bank.has(payment.reference) &&
          !nearlyEqual(bank.get(payment.reference)!.amount, payment.amount, 0.001),
      )
      .map((payment) => String(payment.entry_id)),
    emails_to_contact: [...new Set(missing.map((payment) => payment.email))].sort(),
  };
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedReconciliation(initial);
  if (
    expected.missing_from_bank.length === 0 ||
    expected.not_in_ledger.length === 0 ||
    expected.amount_mismatches.length === 0
  )
    throw new Error("generation planted no discrepancy of some kind");
  const given = answerObject(answer) ?? {};
  return (Object.keys(expected) as Array<keyof Reconciliation>).map((key) => {
    const list = Array.isArray(given[key]) ? (given[key] as unknown[]).map(String).sort() : null;
    const want = [...expected[key]].sort();
    return check(
      key.replace(/_/g, "-"),
      list !== null && JSON.stringify(list) === JSON.stringify(want),
      `expected ${want.length} in ${key}: ${want.slice(0, 12).join(", ")}`,
    );
  });
}

function cells(near: string[]): string[] {
  const listing = near.includes("no-retry-on-503") ? "fetch_all" : "fetch";
  return [
    PROPERTY_PY,
    String.raw`
bank_rows = list(csv.DictReader(io.StringIO(read_text("${bankExportPath(REFERENCE_DATE)}"))))
bank = {}
for row in bank_rows:
    found = re.search(r"\bPMT-\d+\b", row["description"])
    ${near.includes("keeps-non-rent-lines") ? 'bank[found.group(0) if found else row["bank_txn_id"]] = row' : "if found:\n        bank[found.group(0)] = row"}
print(len(bank_rows), "bank lines,", len(bank), "kept")
`,
    String.raw`
payments = ${listing}("list_ledger_entries", "entries", entry_type="payment", date_from="${FIRST_DAY}", date_to="${REFERENCE_DATE}")
by_reference = {p["reference"]: p for p in payments}
missing = [p for p in payments if p["reference"] not in bank]
result = {
    "missing_from_bank": sorted(str(p["entry_id"]) for p in missing),
    "not_in_ledger": sorted(row["bank_txn_id"] for ref, row in bank.items() if ref not in by_reference),
    "amount_mismatches": ${
      near.includes("ignores-amounts")
        ? "[]"
        : 'sorted(str(p["entry_id"]) for p in payments if p["reference"] in bank and abs(float(bank[p["reference"]]["amount"]) - p["amount"]) > 0.001)'
    },
}
emails = set()
for lease_id in sorted({p["lease_id"] for p in missing}):
    tenant_id = call("get_lease", lease_id=lease_id)["lease"]["tenant_id"]
    emails.add(call("get_tenant", tenant_id=tenant_id)["tenant"]["email"])
result["emails_to_contact"] = sorted(emails)
print(json.dumps(result))
`,
  ];
}

export const bankReconciliationTask = defineTask({
  id: "property.bank-reconciliation",
  domain: propertyDomain,
  summary:
    "Reconcile year-to-date ledger payments against the bank's deposit export by payment reference: missing deposits, unposted deposits, amount differences, tenant emails to contact; the bulk payment listing fails with a transient 503.",
  instruction: `Reconcile the rent ledger with the bank's deposit export in ${bankExportPath(REFERENCE_DATE)}. Compare every ledger payment dated ${FIRST_DAY} through today with the bank lines, matching on the payment reference (PMT-...) in the bank description; bank lines without a PMT reference are not rent and are ignored. Reply with only a JSON object with four sorted lists: "missing_from_bank" (entry ids of ledger payments with no bank line), "not_in_ledger" (bank_txn_id of bank lines whose reference no ledger payment has), "amount_mismatches" (entry ids of matched payments whose bank amount differs) and "emails_to_contact" (email addresses of the tenants whose payments are missing from the bank, so we can ask them for proof of payment). Entry ids as strings, e.g. {"missing_from_bank": ["412"], ...}.`,
  tools: ["list_ledger_entries", "list_leases", "get_lease", "get_tenant", "list_tenants"],
  verify,
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["no-retry-on-503", "Pages the payment listing without retrying the transient 503."],
    ["keeps-non-rent-lines", "Reports non-rent bank lines as deposits missing from the ledger."],
    ["ignores-amounts", "Matches references but never compares amounts."],
  ]),
});
