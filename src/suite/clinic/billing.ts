import type Database from "better-sqlite3";
import { allRows, roundCents } from "../../envs/index.js";
import { patientShare } from "./rules.js";
import type { PlanCoverage } from "./rules.js";

export interface PatientBalance {
  patientId: number;
  mrn: string;
  selfPay: boolean;
  /** Patient shares of billed (adjudicated or patient-only) charges minus posted payments. */
  balance: number;
}

/**
 * Every patient's outstanding balance under the billing policy, given the coverage terms by plan code.
 * Shares are rounded per charge line, as the policy says.
 */
export function computeBalances(
  db: Database.Database,
  coverageByPlan: (planCode: string) => PlanCoverage,
): Map<number, PatientBalance> {
  const patients = allRows<{ id: number; mrn: string; plan_code: string | null }>(
    db,
    `SELECT pa.id, pa.mrn, pl.plan_code FROM patients pa LEFT JOIN insurance_plans pl ON pl.id = pa.insurance_plan_id`,
  );
  const balances = new Map<number, PatientBalance>();
  const coverageOf = new Map<number, PlanCoverage | null>();
  for (const patient of patients) {
    balances.set(patient.id, {
      patientId: patient.id,
      mrn: patient.mrn,
      selfPay: patient.plan_code === null,
      balance: 0,
    });
    coverageOf.set(patient.id, patient.plan_code === null ? null : coverageByPlan(patient.plan_code));
  }
  const charges = allRows<{ patient_id: number; category: string; amount: number }>(
    db,
    "SELECT patient_id, category, amount FROM charges WHERE claim_status IN ('adjudicated', 'patient_only')",
  );
  for (const charge of charges) {
    const entry = balances.get(charge.patient_id)!;
    entry.balance += patientShare(charge, coverageOf.get(charge.patient_id) ?? null);
  }
  const payments = allRows<{ patient_id: number; amount: number }>(
    db,
    "SELECT patient_id, amount FROM payments WHERE status = 'posted'",
  );
  for (const payment of payments) balances.get(payment.patient_id)!.balance -= payment.amount;
  for (const entry of balances.values()) entry.balance = roundCents(entry.balance);
  return balances;
}
