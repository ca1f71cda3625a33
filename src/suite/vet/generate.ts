import { addDays, personName, randomAmount, randomDate, roundCents, weightedPick, type GenerateContext } from "../../envs/index.js";
import { writeDocuments } from "./documents.js";
import { VISIT_REASONS, renderSoapNote } from "./notes.js";
import { renderPrintout, type Analyser, type LabRun } from "./printouts.js";
import {
  ANALYTES, FORMULARY, PATHS, VACCINES, addMonths, clinicId, invoiceId, labId, ownerId, patientId, rxId, visitId,
  type Species,
} from "./rules.js";

interface Patient { id: string; name: string; owner: string; clinic: string; species: Species; birth: string; kg: number }

const BREEDS: Record<Species, string[]> = {
  dog: ["Labrador Retriever", "Beagle", "German Shepherd", "Dachshund", "Border Collie", "Mixed"],
  cat: ["Domestic Shorthair", "Maine Coon", "Siamese", "Ragdoll"],
  rabbit: ["Holland Lop", "Netherland Dwarf", "Rex"],
};
const KG: Record<Species, [number, number]> = { dog: [4, 42], cat: [2.8, 7.2], rabbit: [1.2, 3.4] };
const PET_NAMES = "Biscuit|Luna|Max|Milo|Bella|Pepper|Ziggy|Olive|Rocky|Mochi|Nala|Tux|Hazel|Bruno|Clover|Juniper".split("|");
const CITIES = ["Harbor Street", "Oakridge", "Millbrook", "Westfield", "Cedar Falls", "Riverside"];
const jitter = (context: GenerateContext, kg: number): number => Math.round(kg * (0.99 + context.random.next() * 0.02) * 10) / 10;

function insertClinics(context: GenerateContext): Map<string, Analyser & { name: string }> {
  const { db, random, faker } = context;
  const clinics = new Map<string, Analyser & { name: string }>();
  for (let n = 1; n <= 2 + context.factors.files; n += 1) {
    const name = `${CITIES[n - 1]} Veterinary Clinic`;
    const analyser = { model: n % 2 === 0 ? "CX-9 SI" : "VL-300", serial: `${random.int(10000, 99999)}-${"ABC"[n % 3]}`, si: n % 2 === 0 };
    db.prepare("INSERT INTO clinics VALUES (?, ?, ?, ?)").run(clinicId.format(n), name, CITIES[n - 1], analyser.model);
    for (let k = 1; k <= 2; k += 1) db.prepare("INSERT INTO vets VALUES (?, ?, ?)").run(`VET-${n}${k}`, `Dr. ${faker.person.lastName()}`, clinicId.format(n));
    clinics.set(clinicId.format(n), { ...analyser, name });
  }
  return clinics;
}

function insertPatients(context: GenerateContext, clinics: string[]): Patient[] {
  const { db, random, faker, factors, referenceDate: today } = context;
  const emails = new Set<string>();
  const owners: Array<[string, string]> = [];
  for (let n = 1; n <= 30 * factors.rows; n += 1) {
    const person = personName(faker, "example.net", emails);
    owners.push([ownerId.format(n), person.fullName.split(" ").at(-1)!]);
    db.prepare("INSERT INTO owners VALUES (?, ?, ?, ?)").run(ownerId.format(n), person.fullName, person.email, faker.phone.number());
  }
  const insert = db.prepare("INSERT INTO patients VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const patients: Patient[] = [];
  for (let n = 1; n <= 45 * factors.rows; n += 1) {
    const species = weightedPick(random, ["dog", "cat", "rabbit"] as const, [55, 35, 10]);
    const young = random.chance(0.08);
    const birth = young ? addDays(today, -random.int(50, 140)) : randomDate(random, addDays(today, -5000), addDays(today, -200));
    const [owner, surname] = random.pick(owners);
    const status = weightedPick(random, ["active", "deceased", "transferred"], [88, 7, 5]);
    const [low, high] = KG[species];
    const patient = { id: patientId.format(n), name: random.pick(PET_NAMES), owner: surname, clinic: random.pick(clinics), species, birth, kg: low + random.next() * (high - low) };
    insert.run(patient.id, patient.name, owner, patient.clinic, species, random.pick(BREEDS[species]), random.pick(["MN", "FS", "M", "F"]), birth, status);
    patients.push(patient);
  }
  return patients;
}

/** Dose histories: the latest dose anywhere from fresh to well past due, earlier doses one interval apart. */
function insertVaccinations(context: GenerateContext, patients: Patient[]): void {
  const { db, random, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO vaccinations VALUES (NULL, ?, ?, ?, ?, ?)");
  const rows: Array<[string, string, string, string, string]> = [];
  for (const patient of patients) {
    for (const [species, code, core, months] of VACCINES) {
      if (species !== patient.species || !random.chance(core ? 0.9 : 0.45)) continue;
      let given = addDays(today, -random.int(5, months * 30 + 260));
      for (let k = random.int(0, 2); k >= 0 && given > addDays(patient.birth, 56); k -= 1) {
        rows.push([patient.id, code, given, patient.clinic, `${code.slice(0, 2)}${random.int(1000, 9999)}`]);
        given = addMonths(given, -months);
      }
    }
  }
  rows.sort((a, b) => a[2].localeCompare(b[2]));
  for (const row of rows) insert.run(...row);
}

function insertAppointmentsAndReminders(context: GenerateContext, patients: Patient[]): void {
  const { db, random, referenceDate: today } = context;
  for (const patient of patients) {
    if (random.chance(0.2)) {
      const at = `${addDays(today, random.int(0, 45))} ${String(random.int(8, 17)).padStart(2, "0")}:${random.pick(["00", "20", "40"])}`;
      db.prepare("INSERT INTO appointments VALUES (NULL, ?, ?, ?, ?)").run(patient.id, patient.clinic, at, random.pick(["annual exam", "vaccines", "recheck", "dental"]));
    }
    if (random.chance(0.25)) {
      const vaccine = random.pick(VACCINES.filter(([species]) => species === patient.species))[1];
      const created = addDays(today, -random.int(1, 90));
      const status = weightedPick(random, ["open", "sent", "done"], [4, 3, 3]);
      db.prepare("INSERT INTO reminders VALUES (NULL, ?, 'vaccine', ?, ?, ?, ?)").run(patient.id, vaccine, addDays(created, 14), status, created);
    }
  }
}

/** Visits with SOAP notes; some patients lose weight at their last visit; a prescription and an invoice per visit. */
function insertVisits(context: GenerateContext, patients: Patient[]): void {
  const { db, random, referenceDate: today } = context;
  let [visits, rxs] = [0, 0];
  for (const patient of patients) {
    const dates = Array.from({ length: random.int(0, 4) }, () => randomDate(random, addDays(today, -420), addDays(today, -1))).sort();
    const loss = random.chance(0.22) ? weightedPick(random, [0.04, 0.085, 0.15], [1, 2, 2]) : 0;
    dates.forEach((date, index) => {
      const last = index === dates.length - 1;
      const weighed = random.chance(last && loss ? 0.97 : 0.92);
      const kg = jitter(context, last && loss ? patient.kg * (1 - loss - random.next() * 0.01) : patient.kg);
      const id = visitId.format(++visits);
      const reason = random.pick(VISIT_REASONS);
      const drugs = FORMULARY.filter(([, species]) => species === patient.species);
      const rx = weighed && random.chance(0.5) ? random.pick(drugs) : null;
      let [rxLine, rxRow]: [string | null, unknown[] | null] = [null, null];
      if (rx) {
        const factor = random.chance(0.3) ? 1.1 + random.next() * 0.5 : 0.45 + random.next() * 0.48;
        const dose = Math.round(kg * rx[2] * factor * 100) / 100;
        const frequency = random.pick(["SID", "BID", "q8h"]);
        rxLine = `Rx ${rx[0]} ${dose} mg PO ${frequency} x${random.int(3, 14)}d.`;
        const status = date >= addDays(today, -180) ? "active" : "completed";
        rxRow = [rxId.format(++rxs), id, patient.id, rx[0], dose, frequency, date, status];
      }
      const home = random.chance(0.3) ? kg * (random.chance(0.5) ? 0.7 : 1.35) : null;
      const goal = random.chance(0.2) ? kg * 0.85 : null;
      const note = renderSoapNote(random, { reason, weightKg: weighed ? kg : null, inPounds: random.chance(0.4), homeKg: home, goalKg: goal, rxLine });
      db.prepare("INSERT INTO visits VALUES (?, ?, ?, ?, ?, ?, ?)").run(id, patient.id, patient.clinic, `VET-${patient.clinic.slice(-1)}${random.int(1, 2)}`, date, reason, note);
      if (rxRow) db.prepare("INSERT INTO prescriptions VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)").run(...rxRow);
      insertInvoice(context, visits, id, patient, date);
    });
  }
}

function insertInvoice(context: GenerateContext, n: number, visit: string, patient: Patient, date: string): void {
  const { db, random, referenceDate: today } = context;
  const owner = db.prepare("SELECT owner_id FROM patients WHERE patient_id = ?").pluck().get(patient.id);
  const total = randomAmount(random, 45, 900);
  const status = random.chance(0.05) ? "void" : "issued";
  db.prepare("INSERT INTO invoices VALUES (?, ?, ?, ?, ?, ?, ?)").run(invoiceId.format(n), visit, owner, patient.clinic, date, total, status);
  if (status === "void") return;
  const plan = weightedPick(random, ["full", "partial", "split", "none"], [55, 15, 10, 20]);
  const pay = (amount: number, days: number): void => {
    const on = addDays(date, days);
    if (on <= today) db.prepare("INSERT INTO payments VALUES (NULL, ?, ?, ?, ?)").run(invoiceId.format(n), on, amount, random.pick(["card", "cash", "insurance"]));
  };
  if (plan === "full") pay(total, random.int(0, 20));
  if (plan === "split" || plan === "partial") pay(roundCents(total * 0.4), random.int(0, 10));
  if (plan === "split") pay(roundCents(total - roundCents(total * 0.4)), random.int(11, 40));
}

/** A value within the species range, above or below it, or exactly at a limit (conventional units only). */
function labValue(context: GenerateContext, code: string, species: Species, si: boolean): number | null {
  const { random } = context;
  const analyte = ANALYTES.find((a) => a.code === code)!;
  const [low, high] = analyte.ranges[species];
  const roll = random.next();
  if (roll < 0.03) return null;
  if (roll < 0.08 && !(si && analyte.si)) return random.chance(0.5) ? low : high;
  const value = roll < 0.22 ? high * (1.1 + random.next() * 0.8) : roll < 0.3 ? low * (0.5 + random.next() * 0.4) : low + (high - low) * (0.1 + random.next() * 0.8);
  return Number(value.toFixed(analyte.decimals));
}

function insertLabs(context: GenerateContext, patients: Patient[], clinics: Map<string, Analyser & { name: string }>): void {
  const { db, random, factors, referenceDate: today } = context;
  const batches = Array.from({ length: 9 * factors.files }, (_, k) => ({ clinic: [...clinics.keys()][k % clinics.size]!, day: addDays(today, -random.int(1, 150)), runs: [] as LabRun[] }));
  const insert = db.prepare("INSERT INTO lab_orders VALUES (?, ?, ?, ?, ?, ?)");
  for (let n = 1; n <= 16 * factors.rows; n += 1) {
    const batch = n <= batches.length ? batches[n - 1]! : random.pick(batches);
    const pending = n > batches.length && random.chance(0.1);
    const pool = patients.filter((p) => p.clinic === batch.clinic);
    const patient = random.pick(pool);
    const panel = random.pick(["CHEM", "CHEM", "CBC"]);
    const analyser = clinics.get(batch.clinic)!;
    insert.run(labId.format(n), patient.id, batch.clinic, panel, pending ? addDays(today, -1) : batch.day, pending ? "pending" : "resulted");
    if (pending) continue;
    const values = new Map(ANALYTES.filter((a) => a.panel === panel).map((a) => [a.code, labValue(context, a.code, patient.species, analyser.si)]));
    const ranAt = `${batch.day} ${String(random.int(8, 18)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}`;
    batch.runs.push({ labId: labId.format(n), patientId: patient.id, patientName: patient.name, owner: patient.owner, panel, ranAt, values });
  }
  for (const batch of batches) {
    const analyser = clinics.get(batch.clinic)!;
    batch.runs.sort((a, b) => a.ranAt.localeCompare(b.ranAt));
    const path = `${PATHS.printouts}/${batch.clinic.toLowerCase()}/${batch.day}-${analyser.serial}.txt`;
    const existing = context.readFile(path);
    context.writeFile(existing ? path.replace(".txt", "-2.txt") : path, renderPrintout(random, `${analyser.name} - in-house lab`, analyser, batch.runs));
  }
}

export function generateVet(context: GenerateContext): void {
  const clinics = insertClinics(context);
  const patients = insertPatients(context, [...clinics.keys()]);
  insertVaccinations(context, patients);
  insertAppointmentsAndReminders(context, patients);
  insertVisits(context, patients);
  insertLabs(context, patients, clinics);
  writeDocuments(context);
}
