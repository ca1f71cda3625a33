import {
  REFERENCE_DATE,
  addDays,
  allRows,
  daysBetween,
  parseMarkdownTable,
  type StateView,
  requireFile,
} from "../../../envs/index.js";
import { objectiveWeightKg } from "../notes.js";
import { PATHS, addMonths } from "../rules.js";

function documentNumber(text: string, pattern: RegExp): number {
  const found = pattern.exec(text)?.[1];
  if (found === undefined) throw new Error(`a document no longer states ${pattern.source}`);
  return Number(found);
}

interface PatientRow {
  patient_id: string;
  clinic_id: string;
  species: string;
  birth_date: string;
  status: string;
}
export const patients = (state: StateView): PatientRow[] =>
  allRows<PatientRow>(state.db, "SELECT * FROM patients ORDER BY patient_id");
const speciesOf = (state: StateView): Map<string, PatientRow> =>
  new Map(patients(state).map((p) => [p.patient_id, p]));

export interface Overdue {
  patient_id: string;
  clinic_id: string;
  vaccine: string;
}

/** Every (active patient, core vaccine) pair the vaccination protocol calls overdue today. */
export function overdueCoreVaccines(state: StateView): Overdue[] {
  const text = requireFile(state, PATHS.protocol);
  const schedule = parseMarkdownTable(text, "Schedule").filter((row) => row[2] === "core");
  const grace = documentNumber(text, /more than (\d+) days past its due date/);
  const seriesDays = documentNumber(text, /at least (\d+) weeks old/) * 7;
  const latest = new Map<string, string>();
  for (const dose of allRows<{ patient_id: string; vaccine: string; given_on: string }>(
    state.db,
    "SELECT * FROM vaccinations ORDER BY given_on",
  ))
    latest.set(`${dose.patient_id}|${dose.vaccine}`, dose.given_on);
  const today = REFERENCE_DATE;
  const overdue: Overdue[] = [];
  for (const patient of patients(state).filter((p) => p.status === "active")) {
    if (daysBetween(patient.birth_date, today) < seriesDays) continue;
    for (const [species, vaccine, , months] of schedule) {
      if (species !== patient.species) continue;
      const last = latest.get(`${patient.patient_id}|${vaccine}`);
      if (last && daysBetween(addMonths(last, Number(months)), today) <= grace) continue;
      overdue.push({ patient_id: patient.patient_id, clinic_id: patient.clinic_id, vaccine: vaccine! });
    }
  }
  return overdue;
}

/** The reminders the reminders policy asks for: overdue pairs without a booked appointment or a live reminder. */
export function expectedVaccineReminders(state: StateView) {
  const today = REFERENCE_DATE;
  const policy = requireFile(state, PATHS.reminders);
  const dueIn = documentNumber(policy, /due (\d+) days after today/);
  const window = documentNumber(policy, /from today through (\d+) days after today/);
  const booked = new Set(
    allRows<{ patient_id: string }>(
      state.db,
      "SELECT patient_id FROM appointments WHERE substr(starts_at, 1, 10) BETWEEN ? AND ?",
      today,
      addDays(today, window),
    ).map((r) => r.patient_id),
  );
  const live = new Set(
    allRows<{ key: string }>(
      state.db,
      "SELECT patient_id || '|' || subject AS key FROM reminders WHERE kind = 'vaccine' AND status IN ('open', 'sent')",
    ).map((r) => r.key),
  );
  return overdueCoreVaccines(state)
    .filter((o) => !booked.has(o.patient_id) && !live.has(`${o.patient_id}|${o.vaccine}`))
    .map((o) => ({
      patient_id: o.patient_id,
      kind: "vaccine",
      subject: o.vaccine,
      due_on: addDays(today, dueIn),
      status: "open",
    }));
}

export interface PrintedResult {
  labId: string;
  patientId: string;
  ranOn: string;
  code: string;
  value: number;
  flag: string;
  unit: string;
}

const ACCESSION = /^ACCESSION: (LAB-\d{5})\s+PATIENT: (PAT-\d{5})/;
const RUN = /RUN: (\d{4}-\d\d-\d\d) \d\d:\d\d/;
const RESULT = /^([A-Z]{2,4})\s+(\d+(?:\.\d+)?)\s+(\S+)\s+[\d.]+ - [\d.]+\s*([HL]?)\s*$/;

/** Every measured result on every printout, in conventional units as the reference-ranges document converts. */
export function printedResults(state: StateView): PrintedResult[] {
  const ranges = requireFile(state, PATHS.ranges);
  const conversions = new Map(
    [...ranges.matchAll(/^- (\w+): (\S+) ([x/]) ([\d.]+) = mg\/dL$/gm)].map((m) => [
      `${m[1]}|${m[2]}`,
      [m[3]!, Number(m[4])] as const,
    ]),
  );
  const results: PrintedResult[] = [];
  for (const path of state
    .listFiles()
    .filter((file) => file.startsWith(`${PATHS.printouts}/`))
    .sort()) {
    let current: { labId: string; patientId: string; ranOn: string } | null = null;
    for (const line of requireFile(state, path).split("\n")) {
      const accession = ACCESSION.exec(line);
      if (accession) current = { labId: accession[1]!, patientId: accession[2]!, ranOn: "" };
      const run = RUN.exec(line);
      if (run && current) current.ranOn = run[1]!;
      const result = RESULT.exec(line);
      if (!result || !current) continue;
      const [, code, text, unit, flag] = result as unknown as [string, string, string, string, string];
      const conversion = conversions.get(`${code}|${unit}`);
      const value = !conversion
        ? Number(text)
        : conversion[0] === "x"
          ? Number(text) * conversion[1]
          : Number(text) / conversion[1];
      results.push({ ...current, code, value, flag, unit });
    }
  }
  return results;
}

/** Species reference ranges: analyte -> species -> [low, high]. */
export function speciesRanges(state: StateView): Map<string, Map<string, [number, number]>> {
  const rows = parseMarkdownTable(requireFile(state, PATHS.ranges), "Reference ranges");
  const species = ["dog", "cat", "rabbit"];
  return new Map(
    rows.map((row) => [
      row[0]!,
      new Map(species.map((s, k) => [s, row[2 + k]!.split(" - ").map(Number) as [number, number]])),
    ]),
  );
}

/** Printed results outside the patient's species range (limits inclusive), with the direction. */
export function outOfRange(state: StateView): Array<PrintedResult & { high: boolean }> {
  const ranges = speciesRanges(state);
  const species = speciesOf(state);
  return printedResults(state).flatMap((result) => {
    const [low, high] = ranges.get(result.code)!.get(species.get(result.patientId)!.species)!;
    return result.value < low || result.value > high ? [{ ...result, high: result.value > high }] : [];
  });
}

/** The lab_recheck reminders the policy asks for: one per active patient and analyte, from the latest high run. */
export function expectedLabRechecks(state: StateView) {
  const days = new Map(
    parseMarkdownTable(requireFile(state, PATHS.reminders), "Laboratory rechecks").map((row) => [
      row[0]!,
      Number(row[1]),
    ]),
  );
  const species = speciesOf(state);
  const latest = new Map<string, string>();
  for (const result of outOfRange(state)) {
    if (!result.high || !days.has(result.code) || species.get(result.patientId)!.status !== "active")
      continue;
    const key = `${result.patientId}|${result.code}`;
    if ((latest.get(key) ?? "") < result.ranOn) latest.set(key, result.ranOn);
  }
  return [...latest].map(([key, ranOn]) => {
    const [patient_id, subject] = key.split("|") as [string, string];
    const due_on = addDays(ranOn, days.get(subject)!);
    return { patient_id, kind: "lab_recheck", subject, due_on, status: "open" };
  });
}

/** Prescriptions above the formulary's mg/kg limit for the species, with the dose per kg. */
export function overLimitPrescriptions(
  state: StateView,
): Array<{ rx_id: string; status: string; mgPerKg: number }> {
  const limits = new Map(
    parseMarkdownTable(requireFile(state, PATHS.formulary), "Limits").map((row) => [
      `${row[0]}|${row[1]}`,
      Number(row[2]),
    ]),
  );
  const rows = allRows<{
    rx_id: string;
    status: string;
    drug: string;
    dose_mg: number;
    species: string;
    soap_note: string;
  }>(
    state.db,
    `SELECT r.rx_id, r.status, r.drug, r.dose_mg, p.species, v.soap_note FROM prescriptions r
       JOIN visits v ON v.visit_id = r.visit_id JOIN patients p ON p.patient_id = r.patient_id ORDER BY r.rx_id`,
  );
  return rows.flatMap((row) => {
    const kg = objectiveWeightKg(row.soap_note);
    if (kg === null) throw new Error(`prescription ${row.rx_id} has no clinic weight`);
    const mgPerKg = row.dose_mg / kg;
    return mgPerKg > limits.get(`${row.drug}|${row.species}`)!
      ? [{ rx_id: row.rx_id, status: row.status, mgPerKg }]
      : [];
  });
}

/** Active patients whose weight fell by at least their species threshold between the two latest weighed visits. */
export function weightLossPatients(state: StateView): string[] {
  const thresholds = new Map(
    parseMarkdownTable(requireFile(state, PATHS.reminders), "Weight loss").map((row) => [
      row[0]!,
      Number(row[1]),
    ]),
  );
  const weights = new Map<string, number[]>();
  for (const visit of allRows<{ patient_id: string; soap_note: string }>(
    state.db,
    "SELECT patient_id, soap_note FROM visits ORDER BY visit_date, visit_id",
  )) {
    const kg = objectiveWeightKg(visit.soap_note);
    if (kg !== null) weights.set(visit.patient_id, [...(weights.get(visit.patient_id) ?? []), kg]);
  }
  return patients(state)
    .filter((p) => p.status === "active")
    .filter((p) => {
      const list = weights.get(p.patient_id) ?? [];
      if (list.length < 2) return false;
      const [before, after] = list.slice(-2) as [number, number];
      return ((before - after) / before) * 100 >= thresholds.get(p.species)!;
    })
    .map((p) => p.patient_id);
}

/** Outstanding balance per clinic on issued invoices older than the cutoff. */
export function receivables(state: StateView, cutoff: string): Map<string, number> {
  const rows = allRows<{ clinic_id: string; balance: number }>(
    state.db,
    `SELECT c.clinic_id, COALESCE((SELECT SUM(i.total - COALESCE((SELECT SUM(amount) FROM payments p WHERE p.invoice_id = i.invoice_id), 0))
        FROM invoices i WHERE i.clinic_id = c.clinic_id AND i.status = 'issued' AND i.issued_on < ?), 0) AS balance
       FROM clinics c ORDER BY c.clinic_id`,
    cutoff,
  );
  return new Map(rows.map((row) => [row.clinic_id, Math.round(row.balance * 100) / 100]));
}
