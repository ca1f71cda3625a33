import {
  addDays,
  between,
  personName,
  randomAmount,
  randomDate,
  roundCents,
  weightedPick,
  type GenerateContext,
} from "../../envs/index.js";
import { cachedStatement } from "../../envs/index.js";
import { writeDocuments } from "./documents.js";
import { VISIT_REASONS, renderSoapNote } from "./notes.js";
import { renderPrintout, type Analyser, type LabRun } from "./printouts.js";
import {
  ANALYTES,
  FORMULARY,
  PATHS,
  VACCINES,
  addMonths,
  clinicId,
  invoiceId,
  labId,
  ownerId,
  patientId,
  rxId,
  visitId,
  type Species,
} from "./rules.js";

/** Inserts one row, its values in column order. */
function put(db: GenerateContext["db"], table: string, ...values: unknown[]): void {
  cachedStatement(db, `INSERT INTO ${table} VALUES (${values.map(() => "?").join(", ")})`).run(...values);
}

interface Patient {
  id: string;
  name: string;
  owner: string;
  clinic: string;
  species: Species;
  birth: string;
  kg: number;
  status: string;
}

const BREEDS: Record<Species, string[]> = {
  dog: ["Labrador Retriever", "Beagle", "German Shepherd", "Dachshund", "Border Collie", "Mixed"],
  cat: ["Domestic Shorthair", "Maine Coon", "Siamese", "Ragdoll"],
  rabbit: ["Holland Lop", "Netherland Dwarf", "Rex"],
};
const KG: Record<Species, [number, number]> = { dog: [4, 42], cat: [2.8, 7.2], rabbit: [1.2, 3.4] };
const PET_NAMES =
  "Biscuit|Luna|Max|Milo|Bella|Pepper|Ziggy|Olive|Rocky|Mochi|Nala|Tux|Hazel|Bruno|Clover|Juniper".split("|");
const CITIES = ["Harbor Street", "Oakridge", "Millbrook", "Westfield", "Cedar Falls", "Riverside"];
/** A scale reading: within 1% of the true weight unless `exact`, to 0.01 kg under 10 kg, else to 0.1 kg. */
const reading = (context: GenerateContext, kg: number, exact: boolean): number => {
  const read = kg * (exact ? 1 : 0.99 + context.random.next() * 0.02);
  return Number(read.toFixed(read < 10 ? 2 : 1));
};

function insertClinics(context: GenerateContext): Map<string, Analyser & { name: string }> {
  const { db, random, faker } = context;
  const clinics = new Map<string, Analyser & { name: string }>();
  for (let n = 1; n <= 2 + context.factors.files; n += 1) {
    const name = `${CITIES[n - 1]} Veterinary Clinic`;
    const analyser = {
      model: n % 2 === 0 ? "CX-9 SI" : "VL-300",
      serial: `${random.int(10000, 99999)}-${"ABC"[n % 3]}`,
      si: n % 2 === 0,
    };
    put(db, "clinics", clinicId.format(n), name, CITIES[n - 1], analyser.model);
    for (let k = 1; k <= 2; k += 1)
      put(db, "vets", `VET-${n}${k}`, `Dr. ${faker.person.lastName()}`, clinicId.format(n));
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
    put(db, "owners", ownerId.format(n), person.fullName, person.email, faker.phone.number());
  }
  const patients: Patient[] = [];
  for (let n = 1; n <= 45 * factors.rows; n += 1) {
    const species = weightedPick(random, ["dog", "cat", "rabbit"] as const, [55, 35, 10]);
    const young = random.chance(0.08);
    const birth = young
      ? addDays(today, -random.int(50, 140))
      : randomDate(random, addDays(today, -5000), addDays(today, -200));
    const [owner, surname] = random.pick(owners);
    const status = weightedPick(random, ["active", "deceased", "transferred"], [88, 7, 5]);
    const [low, high] = KG[species];
    const patient = {
      id: patientId.format(n),
      name: random.pick(PET_NAMES),
      owner: surname,
      clinic: random.pick(clinics),
      species,
      birth,
      kg: low + random.next() * (high - low),
      status,
    };
    put(
      db,
      "patients",
      patient.id,
      patient.name,
      owner,
      patient.clinic,
      species,
      random.pick(BREEDS[species]),
      random.pick(["MN", "FS", "M", "F"]),
      birth,
      status,
    );
    patients.push(patient);
  }
  return patients;
}

/** Dose histories, oldest first. Returns the active patients' lapsed core vaccines (for the planted reminders). */
function insertVaccinations(context: GenerateContext, patients: Patient[]): Array<[Patient, string]> {
  const { db, random, referenceDate: today } = context;
  const rows: Array<[string, string, string, string, string]> = [];
  const lapsed: Array<[Patient, string]> = [];
  let [cores, cats] = [0, 0];
  for (const patient of patients) {
    for (const [species, code, core, months] of VACCINES) {
      if (species !== patient.species) continue;
      const doses: string[] = [];
      if (random.chance(core ? 0.9 : 0.45)) {
        // Every eighth core vaccine is a few days into its 30-day grace period (every fourth of those on its
        // last day); every third cat's rabies dose is over a year old (lapsed for a cat, not for a dog).
        const inGrace = core && ++cores % 8 === 0;
        const catRabies = !inGrace && species === "cat" && code === "RABIES" && cats++ % 3 === 0;
        let given = inGrace
          ? addMonths(addDays(today, cores % 32 === 0 ? -30 : -random.int(3, 28)), -months)
          : addDays(today, -random.int(catRabies ? 430 : 5, catRabies ? 1000 : months * 30 + 260));
        for (
          let k = random.int(0, 2);
          k >= 0 && given > addDays(patient.birth, 56);
          k -= 1, given = addMonths(given, -months)
        )
          doses.push(given);
      }
      for (const given of doses)
        rows.push([patient.id, code, given, patient.clinic, `${code.slice(0, 2)}${random.int(1000, 9999)}`]);
      const due = doses[0] ? addMonths(doses[0], months) : null;
      if (
        core &&
        patient.status === "active" &&
        patient.birth < addDays(today, -140) &&
        (!due || due < addDays(today, -45))
      )
        lapsed.push([patient, code]);
    }
  }
  rows.sort((a, b) => a[2].localeCompare(b[2]));
  for (const row of rows) put(db, "vaccinations", null, ...row);
  return lapsed;
}

/** Appointments and earlier reminders; some lapsed vaccines get a booked visit or a live reminder, some just miss. */
function insertAppointmentsAndReminders(
  context: GenerateContext,
  patients: Patient[],
  lapsed: Array<[Patient, string]>,
): void {
  const { db, random, referenceDate: today } = context;
  const book = (patient: Patient, from: number, to: number): void => {
    const at = `${addDays(today, random.int(from, to))} ${String(random.int(8, 17)).padStart(2, "0")}:${random.pick(["00", "20", "40"])}`;
    put(
      db,
      "appointments",
      null,
      patient.id,
      patient.clinic,
      at,
      random.pick(["annual exam", "vaccines", "recheck", "dental"]),
    );
  };
  const remind = (patient: Patient, vaccine: string, status: string): void => {
    const created = addDays(today, -random.int(1, 90));
    put(db, "reminders", null, patient.id, "vaccine", vaccine, addDays(created, 14), status, created);
  };
  lapsed.forEach(([patient, vaccine], index) => {
    if (index % 5 === 0) book(patient, index % 10 === 0 ? 30 : 0, 30); // every other on the window's last day
    if (index % 5 === 1) remind(patient, vaccine, random.pick(["open", "sent"]));
    if (index % 5 === 2 && random.chance(0.5)) book(patient, 31, 45);
    else if (index % 5 === 2) remind(patient, vaccine, "done");
  });
  for (const patient of patients) {
    if (random.chance(0.1)) book(patient, -20, 60);
    if (random.chance(0.1))
      remind(
        patient,
        random.pick(VACCINES.filter(([species]) => species === patient.species))[1],
        weightedPick(random, ["open", "sent", "done"], [4, 3, 3]),
      );
  }
}

type WeightStory = "drop-unweighed" | "drop-units" | "small-drop" | "cat-drop" | "none";
const LOSS: Record<WeightStory, number> = {
  "drop-unweighed": 0.15,
  "drop-units": 0.15,
  "small-drop": 0.04,
  "cat-drop": 0.0875,
  none: 0,
};

/** Active patients in turn lose weight in the ways the weight-loss near-misses trip over; so does every other inactive one. */
function weightStory(
  patient: Patient,
  counters: Record<"active" | "cats" | "inactive", number>,
): WeightStory {
  if (patient.status !== "active") return counters.inactive++ % 2 === 0 ? "drop-units" : "none";
  if (patient.species === "cat" && counters.cats++ % 3 === 0) return "cat-drop";
  return (["drop-unweighed", "drop-units", "small-drop", "none", "none", "none"] as const)[
    counters.active++ % 6
  ]!;
}

/** A prescription's dose: active ones in turn are overdoses in pounds, overdoses beside a heavy home weight, a cat's meloxicam overdose. */
function prescribe(context: GenerateContext, patient: Patient, kg: number, active: number) {
  const { random } = context;
  const drugs = FORMULARY.filter(([, species]) => species === patient.species);
  const mode = active < 0 ? 3 : patient.species === "cat" && active % 5 === 4 ? 4 : active % 4;
  const rx = mode === 4 ? drugs.find(([drug]) => drug === "meloxicam")! : random.pick(drugs);
  const over = mode === 0 || mode === 4 || (mode === 3 && random.chance(0.3));
  const factor =
    mode === 1
      ? between(random, 1.1, 1.4)
      : mode === 2
        ? between(random, 0.87, 0.93)
        : over
          ? between(random, 1.1, 1.6)
          : between(random, 0.45, 0.93);
  const home =
    mode === 1 ? kg * 1.5 : mode === 2 ? kg * 0.6 : random.chance(0.3) ? kg * random.pick([0.6, 1.5]) : null;
  return {
    drug: rx[0],
    dose: tabletDose(kg * rx[2] * factor),
    pounds: mode === 0 ? true : undefined,
    goal: mode === 2, // a goal weight in the plan that would make this safe dose look too high
    home,
  };
}

/** Doses as dispensed: whole mg from 10 mg, one decimal from 1 mg, else two. */
const tabletDose = (mg: number): number => Number(mg.toFixed(mg >= 10 ? 0 : mg >= 1 ? 1 : 2));

/** The Rx as a clinician types it: the drug's name in any case, the dose with or without trailing zeros. */
function rxText(context: GenerateContext, drug: string, dose: number): string {
  const { random } = context;
  const name = random.pick([drug, drug.toUpperCase(), drug[0]!.toUpperCase() + drug.slice(1)]);
  return `${name} ${random.chance(0.35) ? dose.toFixed(dose >= 10 ? 1 : 2) : String(dose)}${random.pick([" mg", "mg"])}`;
}

/** Visits with SOAP notes, a prescription at some and an invoice for each. */
function insertVisits(context: GenerateContext, patients: Patient[]): void {
  const { db, random, referenceDate: today } = context;
  let [visits, rxs, activeRx, slips, catDrops] = [0, 0, 0, 0, 0];
  const counters = { active: 0, cats: 0, inactive: 0 };
  for (const patient of patients) {
    const story = weightStory(patient, counters);
    const loss = LOSS[story];
    // Every fifteenth patient's first visit (and unpaid invoice) is exactly 60 days old: not "more than 60".
    const edge = Number(patient.id.slice(4)) % 15 === 7;
    const dates = Array.from({ length: random.int(loss ? 2 : 0, 4) }, (_, k) =>
      edge && k === 0 ? addDays(today, -60) : randomDate(random, addDays(today, -420), addDays(today, -3)),
    ).sort();
    // One visit a day per patient, so that "the two most recent visits" never hangs on a tie.
    for (let k = dates.length - 2; k >= 0; k -= 1)
      if (dates[k]! >= dates[k + 1]!) dates[k] = addDays(dates[k + 1]!, -1);
    if (story === "drop-unweighed") dates.push(addDays(dates.at(-1)!, 1)); // came back once more, too fractious to weigh
    const lastWeighed = dates.length - (story === "drop-unweighed" ? 2 : 1);
    if (story === "cat-drop" && catDrops++ % 2 === 1) {
      const [due, created] = [addDays(today, random.int(1, 10)), addDays(today, -random.int(1, 10))];
      put(db, "reminders", null, patient.id, "weight_check", "WEIGHT", due, "open", created);
    }
    dates.forEach((date, index) => {
      const weighed =
        index === lastWeighed + 1 ? false : (loss && index >= lastWeighed - 1) || random.chance(0.92);
      const measured = loss > 0 && index >= lastWeighed - 1; // the two weights the loss is measured between
      const kg = reading(
        context,
        index === lastWeighed && loss ? patient.kg * (1 - loss) : patient.kg,
        measured,
      );
      const id = visitId.format(++visits);
      const reason = random.pick(VISIT_REASONS);
      const active = date >= addDays(today, -180);
      const rx =
        weighed && random.chance(0.5) ? prescribe(context, patient, kg, active ? activeRx++ : -1) : null;
      const frequency = random.pick(["SID", "BID", "q8h"]);
      const rxLine = rx
        ? `Rx ${rxText(context, rx.drug, rx.dose)} PO ${frequency} x${random.int(3, 14)}d.`
        : null;
      // Every sixth completed prescription was keyed in with the decimal point slipped (right under 1 mg: never 0 mg).
      const keyed =
        rx && !active && ++slips % 6 === 0
          ? Math.round(rx.dose * (rx.dose < 1 ? 10 : random.pick([10, 0.1])) * 100) / 100
          : rx?.dose;
      const forced = story === "drop-units" && index >= lastWeighed - 1 ? index === lastWeighed : rx?.pounds;
      const facts = {
        reason,
        weightKg: weighed ? kg : null,
        inPounds: forced ?? random.chance(0.4),
        homeKg: rx ? rx.home : null,
        goalKg: random.chance(0.2) || rx?.goal ? kg * 0.85 : null,
        rxLine,
      };
      const vet = `VET-${patient.clinic.slice(-1)}${random.int(1, 2)}`;
      put(db, "visits", id, patient.id, patient.clinic, vet, date, reason, renderSoapNote(random, facts));
      if (rx)
        put(
          db,
          "prescriptions",
          rxId.format(++rxs),
          id,
          patient.id,
          rx.drug,
          keyed,
          frequency,
          date,
          active ? "active" : "completed",
          null,
        );
      insertInvoice(context, visits, id, patient, date);
    });
  }
}

function insertInvoice(
  context: GenerateContext,
  n: number,
  visit: string,
  patient: Patient,
  date: string,
): void {
  const { db, random, referenceDate: today } = context;
  const owner = db.prepare("SELECT owner_id FROM patients WHERE patient_id = ?").pluck().get(patient.id);
  const total = randomAmount(random, 45, 900);
  const edge = date === addDays(today, -60);
  const status = random.chance(0.05) && !edge ? "void" : "issued";
  put(db, "invoices", invoiceId.format(n), visit, owner, patient.clinic, date, total, status);
  if (status === "void") return;
  const plan = edge ? "none" : weightedPick(random, ["full", "partial", "split", "none"], [55, 15, 10, 20]);
  const pay = (amount: number, days: number): void => {
    const on = addDays(date, days);
    if (on <= today)
      put(db, "payments", null, invoiceId.format(n), on, amount, random.pick(["card", "cash", "insurance"]));
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
  const dogHigh = analyte.ranges.dog[1];
  if (roll < 0.16 && species !== "dog" && dogHigh !== high)
    return Number(
      between(random, Math.min(dogHigh, high), Math.max(dogHigh, high)).toFixed(analyte.decimals),
    );
  const value =
    roll < 0.22
      ? high * (1.1 + random.next() * 0.8)
      : roll < 0.3
        ? low * (0.5 + random.next() * 0.4)
        : low + (high - low) * (0.1 + random.next() * 0.8);
  return Number(value.toFixed(analyte.decimals));
}

/** A planted result: a clear high of `highCode`, or (no code) a cat's CREA or rabbit's ALT between the dog and species limits. */
function plantResult(
  context: GenerateContext,
  values: Map<string, number | null>,
  species: Species,
  highCode: string | null,
): void {
  const code = highCode ?? (species === "cat" ? "CREA" : species === "rabbit" ? "ALT" : null);
  const analyte = ANALYTES.find((a) => a.code === code);
  if (!analyte) return;
  const [dogHigh, high] = [analyte.ranges.dog[1], analyte.ranges[species][1]];
  const value = highCode
    ? high * between(context.random, 1.2, 1.6)
    : between(context.random, Math.min(dogHigh, high) + 0.1, Math.max(dogHigh, high) - 0.1);
  values.set(analyte.code, Number(value.toFixed(analyte.decimals)));
}

function insertLabs(
  context: GenerateContext,
  patients: Patient[],
  clinics: Map<string, Analyser & { name: string }>,
): void {
  const { db, random, factors, referenceDate: today } = context;
  const batches = Array.from({ length: 9 * factors.files }, (_, k) => ({
    clinic: [...clinics.keys()][k % clinics.size]!,
    day: addDays(today, -random.int(1, 150)),
    runs: [] as LabRun[],
  }));
  const repeats = new Map<string, { patient: Patient; batch: (typeof batches)[number] } | null>();
  for (let n = 1; n <= 16 * factors.rows; n += 1) {
    // The second clear high of each analyte is the first one's patient again, on another day of its clinic.
    const highCode = ["CREA", "GLU", "ALT"][(n / 4) % 3];
    const again = highCode && n > batches.length ? repeats.get(highCode) : undefined;
    const days = again
      ? batches.filter((b) => b.clinic === again.batch.clinic && b.day !== again.batch.day)
      : [];
    const batch = n <= batches.length ? batches[n - 1]! : random.pick(days.length ? days : batches);
    const pending = n > batches.length && !days.length && random.chance(0.1);
    // Planted: every fourth order a clear high CREA/GLU/ALT; every other fourth a cat's or rabbit's result between the dog and species limits.
    const plant = pending ? null : n % 4 === 0 ? "high" : n % 4 === 2 ? "discordant" : null;
    const clinicPatients = patients.filter((p) => p.clinic === batch.clinic);
    const active = clinicPatients.filter(
      (p) => p.status === "active" && (plant !== "discordant" || p.species !== "dog"),
    );
    const patient = days.length
      ? again!.patient
      : random.pick(plant && active.length ? active : clinicPatients);
    const panel = plant ? "CHEM" : random.pick(["CHEM", "CHEM", "CBC"]);
    const analyser = clinics.get(batch.clinic)!;
    put(
      db,
      "lab_orders",
      labId.format(n),
      patient.id,
      batch.clinic,
      panel,
      pending ? addDays(today, -1) : batch.day,
      pending ? "pending" : "resulted",
    );
    if (pending) continue;
    const values = new Map(
      ANALYTES.filter((a) => a.panel === panel).map((a) => [
        a.code,
        labValue(context, a.code, patient.species, analyser.si),
      ]),
    );
    if (plant) plantResult(context, values, patient.species, plant === "high" ? highCode! : null);
    if (plant === "high" && (days.length || !repeats.has(highCode!)))
      repeats.set(highCode!, days.length ? null : { patient, batch });
    const ranAt = `${batch.day} ${String(random.int(8, 18)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}`;
    batch.runs.push({
      labId: labId.format(n),
      patientId: patient.id,
      patientName: patient.name,
      owner: patient.owner,
      panel,
      ranAt,
      values,
    });
  }
  for (const batch of batches) {
    const analyser = clinics.get(batch.clinic)!;
    batch.runs.sort((a, b) => a.ranAt.localeCompare(b.ranAt));
    const path = `${PATHS.printouts}/${batch.clinic.toLowerCase()}/${batch.day}-${analyser.serial}.txt`;
    const existing = context.readFile(path);
    context.writeFile(
      existing ? path.replace(".txt", "-2.txt") : path,
      renderPrintout(random, `${analyser.name} - in-house lab`, analyser, batch.runs),
    );
  }
}

export function generateVet(context: GenerateContext): void {
  const clinics = insertClinics(context);
  const patients = insertPatients(context, [...clinics.keys()]);
  insertAppointmentsAndReminders(context, patients, insertVaccinations(context, patients));
  insertVisits(context, patients);
  insertLabs(context, patients, clinics);
  writeDocuments(context);
}
