import {
  addDays,
  allRows,
  getRow,
  check,
  checkNone,
  compareAnswerAmounts,
  defineTask,
  roundCents,
  type Check,
  type GenerateContext,
  type VerifyContext,
} from "../../../envs/index.js";
import { computeBalances } from "../billing.js";
import type { PatientBalance } from "../billing.js";
import { clinicDomain } from "../domain.js";
import { COLLECTIONS_THRESHOLD, PLANS } from "../rules.js";
import type { PlanCoverage } from "../rules.js";
import { readCoverage } from "../workspace-facts.js";
import { checkListedItems } from "./answer-lists.js";
import { clinicNearMisses, PYTHON_PAGING_CELL } from "./python-helpers.js";

const seedCoverage = (planCode: string): PlanCoverage =>
  PLANS.find((plan) => plan.code === planCode)!.coverage;

/**
 * Plants the accounts that separate a careful review from a sloppy one: a reopened (pending) claim on an
 * account over the threshold, a self-pay account over it, one balance exactly at the threshold (not over
 * it) and reversed payments on accounts over it.
 */
function prepare(context: GenerateContext): void {
  const { db, random, referenceDate } = context;
  const insured = random.shuffle(
    [...computeBalances(db, seedCoverage).values()].filter(
      (entry) => !entry.selfPay && entry.balance > COLLECTIONS_THRESHOLD,
    ),
  );
  // A claim the insurer reopened: its share leaves the balance until it is processed again.
  for (const entry of insured.slice(0, 1)) {
    const charge = getRow<{ id: number }>(
      db,
      "SELECT id FROM charges WHERE patient_id = ? AND claim_status = 'adjudicated' AND category != 'lab' ORDER BY amount DESC LIMIT 1",
      entry.patientId,
    );
    if (charge) db.prepare("UPDATE charges SET claim_status = 'pending' WHERE id = ?").run(charge.id);
  }
  // Enough accounts over the threshold to review: the largest unpaid accounts, starting with a self-pay one.
  const overCount = (): { over: PatientBalance[] } => ({
    over: [...computeBalances(db, seedCoverage).values()].filter(
      (entry) => entry.balance > COLLECTIONS_THRESHOLD,
    ),
  });
  const billed = allRows<{ patient_id: number; self_pay: number }>(
    db,
    `SELECT c.patient_id, p.insurance_plan_id IS NULL AS self_pay, SUM(c.amount) AS total
       FROM charges c JOIN patients p ON p.id = c.patient_id
      WHERE c.claim_status != 'pending' GROUP BY c.patient_id ORDER BY self_pay DESC, total DESC, c.patient_id`,
  );
  const clearPayments = db.prepare("DELETE FROM payments WHERE patient_id = ?");
  let state = overCount();
  if (!state.over.some((entry) => entry.selfPay)) {
    const selfPay = billed.find((row) => row.self_pay === 1);
    if (selfPay) clearPayments.run(selfPay.patient_id);
    state = overCount();
  }
  for (const row of billed.filter((item) => item.self_pay === 0)) {
    if (state.over.length >= 4) break;
    if (state.over.some((entry) => entry.patientId === row.patient_id)) continue;
    clearPayments.run(row.patient_id);
    state = overCount();
  }
  const over = random.shuffle(state.over);
  const insertPayment = db.prepare(
    "INSERT INTO payments (patient_id, received_on, amount, method, status, reference) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const reference = (): string => `PMT-${random.int(60_000, 69_999)}`;
  // The account closest above the threshold is paid down to exactly the threshold.
  const boundary = [...over].sort((a, b) => a.balance - b.balance || a.patientId - b.patientId)[0];
  if (boundary) {
    insertPayment.run(
      boundary.patientId,
      addDays(referenceDate, -random.int(1, 4)),
      roundCents(boundary.balance - COLLECTIONS_THRESHOLD),
      "online",
      "posted",
      reference(),
    );
  }
  for (const entry of over.filter((item) => item !== boundary).slice(0, 2)) {
    insertPayment.run(
      entry.patientId,
      addDays(referenceDate, -random.int(5, 20)),
      random.int(4, 12) * 5,
      "check",
      "reversed",
      `CHK-${random.int(1000, 9999)}`,
    );
  }
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const coverage = readCoverage(initial);
  const balances = computeBalances(initial.db, (planCode) =>
    Object.fromEntries(coverage.get(planCode) ?? []),
  );
  const expected = new Map(
    [...balances.values()]
      .filter((entry) => entry.balance > COLLECTIONS_THRESHOLD)
      .map((entry) => [entry.mrn, entry.balance]),
  );
  if (expected.size === 0) throw new Error("generation produced no account over the collections threshold");
  const diff = compareAnswerAmounts(answer, expected);
  if (!diff)
    return [
      check(
        "answer-format",
        false,
        `expected a JSON object mapping MRN to balance, got: ${answer.slice(0, 200)}`,
      ),
    ];
  return [
    checkListedItems(
      "accounts",
      { ...diff, summary: `expected ${expected.size} accounts`, extraLabel: "not over the threshold" },
      `the ${expected.size} accounts over the threshold are listed`,
    ),
    checkNone(
      "balances",
      diff.wrong,
      "every listed balance is correct",
      (wrong) => `wrong balances: ${wrong.slice(0, 10).join("; ")}`,
    ),
  ];
}

interface Variant {
  includePending?: boolean;
  countReversed?: boolean;
  noSelfPayDiscount?: boolean;
  inclusiveThreshold?: boolean;
}

function programCells(variant: Variant): string[] {
  return [
    PYTHON_PAGING_CELL,
    String.raw`
policy = tools.read_file(path="billing/patient-billing-policy.md")["content"]
threshold = float(re.search(r"greater than \$([\d.]+)", policy).group(1))
discount = ${variant.noSelfPayDiscount ? "0.0" : 'float(re.search(r"less the (\\d+)% self-pay discount", policy).group(1))'}
coverage = {}
for row in csv.DictReader(io.StringIO(tools.read_file(path="billing/insurance-coverage.csv")["content"])):
    coverage[(row["plan_code"], row["category"])] = row
print("threshold", threshold, "discount", discount, len(coverage), "coverage rows")
`,
    String.raw`
plans = {plan["id"]: plan for plan in fetch_all("list_insurance_plans", "plans")}
patients = {patient["id"]: patient for patient in fetch_all("list_patients", "patients")}
charges = fetch_all("list_charges", "charges")
payments = fetch_all("list_payments", "payments")
print(len(patients), "patients,", len(charges), "charges,", len(payments), "payments")
`,
    String.raw`
def share(charge, patient):
    amount = charge["amount"]
    if charge["category"] == "admin_fee":
        return amount
    if patient["insurance_plan_id"] is None:
        return round(amount * (100 - discount) / 100 + 1e-9, 2)
    terms = coverage[(plans[patient["insurance_plan_id"]]["plan_code"], charge["category"])]
    if terms["covered"] != "yes":
        return amount
    copay = min(amount, float(terms["copay"]))
    return round(min(amount, copay + (amount - copay) * float(terms["coinsurance_percent"]) / 100) + 1e-9, 2)

balances = {pid: 0.0 for pid in patients}
for charge in charges:
    if ${variant.includePending ? "True" : 'charge["claim_status"] in ("adjudicated", "patient_only")'}:
        balances[charge["patient_id"]] += share(charge, patients[charge["patient_id"]])
for payment in payments:
    if ${variant.countReversed ? "True" : 'payment["status"] == "posted"'}:
        balances[payment["patient_id"]] -= payment["amount"]
review = {patients[pid]["mrn"]: round(balance, 2) for pid, balance in sorted(balances.items()) if round(balance, 2) ${
      variant.inclusiveThreshold ? ">=" : ">"
    } threshold}
print(json.dumps(review))
`,
  ];
}

export const collectionsReviewTask = defineTask({
  id: "clinic.collections-review",
  domain: clinicDomain,
  summary:
    "Compute every patient's outstanding balance after insurance coverage (copays, coinsurance, self-pay discount, pending claims, reversed payments) and list those over the collections threshold.",
  instruction:
    "Prepare this month's collections review. Using the clinic's billing policy and insurance coverage table, work out each patient's outstanding balance and find the accounts that qualify for collections review. Reply with only a JSON object mapping each qualifying patient's MRN to their outstanding balance in dollars, e.g. {\"MRN-100001\": 212.5, \"MRN-100234\": 130.0}.",
  tools: [
    "list_patients",
    "get_patient",
    "list_insurance_plans",
    "list_charges",
    "list_payments",
    "list_appointments",
  ],
  prepare,
  verify,
  oracle: programCells({}),
  nearMisses: clinicNearMisses(programCells, {
    "includes-pending-claims": [
      { includePending: true },
      "Bills the patient for charges still pending with the insurer.",
    ],
    "counts-reversed-payments": [
      { countReversed: true },
      "Subtracts reversed (returned) payments from the balance.",
    ],
    "no-self-pay-discount": [{ noSelfPayDiscount: true }, "Charges self-pay patients the full amount."],
    "threshold-inclusive": [{ inclusiveThreshold: true }, "Includes accounts at exactly the threshold."],
  }),
});
