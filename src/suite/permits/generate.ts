import type { GenerateContext } from "../../envs/index.js";
import { addDays, isWeekend, randomDate, roundCents, weightedPick } from "../../envs/index.js";
import { writePermitsDocuments } from "./documents.js";
import {
  DISTRICTS,
  INSPECTION_SEQUENCE,
  PERMIT_TYPES,
  REINSPECTION_FEE,
  STOP_WORK_CODES,
  TECH_SURCHARGE_PCT,
  VIOLATIONS,
  inspectionId,
  licenseId,
  planReviewFee,
} from "./rules.js";
import type { PermitType } from "./rules.js";

type Random = GenerateContext["random"];

export type ContractorDraft = { id: string; trade: string };

export interface PermitDraft {
  id: string;
  type: PermitType;
  status: "applied" | "issued" | "finaled" | "expired" | "stop_work";
  district: string;
  contractor: ContractorDraft;
  valuation: number;
  appliedOn: string;
  issuedOn: string | null;
}

export type FeeDraft = { id: number; permitId: string; code: string; amount: number; paid: boolean };
export type InspectorDraft = { name: string; email: string; district: string };

/** What the workspace documents are written from (with the generate context). */
export interface PermitsWorld {
  inspectors: InspectorDraft[];
  fees: FeeDraft[];
  waivedFees: Set<number>;
  scheduled: Array<{ inspector: string; date: string }>;
}

/** Contractors (n % 14) planted with a lapsed license, each given an issued permit. */
const PLANTED = [3, 6];
const INSPECTOR_NAMES =
  "Dana Whitfield|Marcus Oyelaran|Priya Raman|Tom Kessler|Lucia Ferreira|Ben Adeyemi".split("|");
const TRADE_SUFFIX: Record<string, string[]> = {
  general: ["Builders", "Construction", "Homes", "Renovation"],
  electrical: ["Electric", "Electrical Services", "Power & Light"],
  plumbing: ["Plumbing", "Plumbing & Drain", "Pipeworks"],
  mechanical: ["Heating & Air", "Mechanical", "HVAC"],
};
const DESCRIPTIONS: Record<PermitType, string[]> = {
  building: "Rear deck addition|Kitchen remodel|New garage|Second-story addition|Basement finish".split("|"),
  electrical: "Service upgrade to 200 A|EV charger circuit|Rewire of first floor|Solar PV tie-in".split("|"),
  plumbing: "Water heater replacement|Bathroom re-pipe|Sewer lateral repair|Gas line extension".split("|"),
  mechanical: "Furnace replacement|Heat pump install|Ductwork extension|Mini-split install".split("|"),
};
const PASS_NOTES = [
  "All items inspected satisfactory. Approved to proceed.",
  "Work complies with approved plans. OK to cover.",
  "Approved. Contractor on site; no corrections.",
];
/** How an inspector closes a failed report: the first group calls for a re-inspection, the second does not. */
const REVISIT = ["Re-inspection required after corrections.", "Call for re-inspection once corrected."];
const NO_REVISIT = [
  "No re-inspection needed; photo verification accepted.",
  "Corrections to be verified at final.",
];

function weekdayOnOrAfter(date: string): string {
  let day = date;
  while (isWeekend(day)) day = addDays(day, 1);
  return day;
}

function failNote(random: Random, type: PermitType, needsVisit: boolean): string {
  const count = random.chance(0.35) ? 2 : 1;
  const findings = random
    .shuffle(VIOLATIONS[type])
    .slice(0, count)
    .map(([code, finding]) => `${finding} (${code}).`);
  return [...findings, random.pick(needsVisit ? REVISIT : NO_REVISIT)].join(" ");
}

function generateContractors(context: GenerateContext): ContractorDraft[] {
  const { db, random, faker, factors, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO contractors VALUES (?, ?, ?, ?, ?, ?, ?)");
  const trades = Object.keys(TRADE_SUFFIX);
  const drafts: ContractorDraft[] = [];
  const names = new Set<string>();
  for (let n = 1; n <= 14 * factors.rows; n += 1) {
    const trade = n <= 8 ? trades[(n - 1) % 4]! : random.pick(trades);
    let name: string;
    do name = `${faker.person.lastName()} ${random.pick(TRADE_SUFFIX[trade]!)}`;
    while (names.has(name));
    names.add(name);
    // Planted per 14 (see PLANTED): a suspended license and one still shown active past its expiry date.
    const status =
      n % 14 === 3
        ? "suspended"
        : n % 14 === 6
          ? "active"
          : weightedPick(random, ["active", "suspended", "expired"] as const, [0.82, 0.06, 0.12]);
    const licenseExpires =
      n % 14 === 6
        ? addDays(today, -random.int(3, 40))
        : status === "expired"
          ? randomDate(random, addDays(today, -400), addDays(today, -1))
          : randomDate(random, addDays(today, 1), addDays(today, 700));
    const draft = { id: licenseId.format(10000 + n * 7), trade };
    drafts.push(draft);
    const insurance = randomDate(random, addDays(today, -60), addDays(today, 400));
    const phone = faker.phone.number({ style: "national" });
    insert.run(draft.id, name, trade, status, licenseExpires, insurance, phone);
  }
  return drafts;
}

function draftPermits(context: GenerateContext, contractors: ContractorDraft[]): PermitDraft[] {
  const { random, factors, referenceDate: today } = context;
  const types = Object.keys(PERMIT_TYPES) as PermitType[];
  const drafts: PermitDraft[] = [];
  for (let n = 0; n < 100 * factors.rows; n += 1) {
    const type = weightedPick(random, types, [0.4, 0.25, 0.2, 0.15]);
    const pool = contractors.filter((item) => item.trade === PERMIT_TYPES[type].trade);
    const appliedOn = randomDate(random, addDays(today, -540), addDays(today, -3));
    const recent = appliedOn > addDays(today, -25);
    const drafted = addDays(appliedOn, random.int(2, 20));
    const issuedOn = recent && random.chance(0.5) ? null : drafted > today ? today : drafted;
    let status: PermitDraft["status"] = "applied";
    if (issuedOn !== null) {
      status = random.chance(0.3) && issuedOn < addDays(today, -60) ? "finaled" : "issued";
      if (status === "issued" && addDays(issuedOn, 365) <= today) status = "expired";
      else if (status === "issued" && random.chance(0.04)) status = "stop_work";
    }
    const valuation = type === "building" ? random.int(80, 4500) * 100 : random.int(15, 400) * 100;
    const [district, contractor] = [random.pick(DISTRICTS), random.pick(pool)];
    drafts.push({ id: "", type, status, district, contractor, valuation, appliedOn, issuedOn });
  }
  // Each planted lapse holds an issued permit of its trade, taken from a contractor that is not planted.
  const planted = contractors.filter((_, index) => PLANTED.includes((index + 1) % 14));
  for (const contractor of planted) {
    if (drafts.some((d) => d.contractor === contractor && d.status === "issued")) continue;
    const { trade } = contractor;
    const free = (d: PermitDraft): boolean => d.status === "issued" && !planted.includes(d.contractor);
    const permit = drafts.find((d) => free(d) && PERMIT_TYPES[d.type].trade === trade);
    if (permit) permit.contractor = contractor;
  }
  drafts.sort((a, b) => (a.appliedOn < b.appliedOn ? -1 : a.appliedOn > b.appliedOn ? 1 : 0));
  drafts.forEach((draft, index) => {
    const serial = String(100 + index * 3).padStart(5, "0");
    draft.id = `${PERMIT_TYPES[draft.type].prefix}-${draft.appliedOn.slice(0, 4)}-${serial}`;
  });
  return drafts;
}

type InspectionRow = { permit: PermitDraft; type: string; date: string; inspector: string; result: string };
type Row = InspectionRow & { notes: string };

/**
 * The inspection history of one permit: passed steps (some after a failure), maybe an open failure, maybe a
 * booking. `opened` counts open failures: the first waives the visit and the second already has its
 * re-inspection booked, so both of the memo's exceptions occur at every scale and seed.
 */
function inspectionHistory(
  random: Random,
  permit: PermitDraft,
  today: string,
  inspectorFor: (permit: PermitDraft) => string,
  opened: { count: number },
): Row[] {
  if (permit.issuedOn === null) return [];
  const steps = INSPECTION_SEQUENCE[permit.type];
  const rows: Row[] = [];
  const add = (type: string, date: string, result: string, notes: string): void => {
    rows.push({ permit, type, date, inspector: inspectorFor(permit), result, notes });
  };
  const done = permit.status === "finaled" ? steps.length : random.int(0, steps.length - 1);
  let date = weekdayOnOrAfter(addDays(permit.issuedOn, random.int(3, 15)));
  let stepIndex = 0;
  for (; stepIndex < done && date < addDays(today, -21); stepIndex += 1) {
    const step = steps[stepIndex]!;
    while (random.chance(0.22) && date < addDays(today, -21)) {
      add(step, date, "fail", failNote(random, permit.type, true));
      date = weekdayOnOrAfter(addDays(date, random.int(3, 12)));
    }
    add(step, date, "pass", random.pick(PASS_NOTES));
    date = weekdayOnOrAfter(addDays(date, random.int(7, 40)));
  }
  if (permit.status !== "issued" || stepIndex >= steps.length) return rows;
  const next = steps[stepIndex]!;
  if (random.chance(0.3)) {
    const failedOn = weekdayOnOrAfter(addDays(today, -random.int(3, 20)));
    const nth = (opened.count += 1);
    add(next, failedOn, "fail", failNote(random, permit.type, nth === 2 || (nth > 2 && random.chance(0.7))));
    if (nth === 2 || random.chance(0.25))
      add(next, weekdayOnOrAfter(addDays(today, random.int(1, 12))), "scheduled", "");
  } else if (random.chance(0.55)) {
    add(next, weekdayOnOrAfter(addDays(today, random.int(1, 12))), "scheduled", "");
  }
  return rows;
}

function insertPermits(context: GenerateContext, permits: PermitDraft[]): void {
  const { db, random, faker, referenceDate: today } = context;
  const insert = db.prepare("INSERT INTO permits VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const stopWork = db.prepare(
    "INSERT INTO stop_work_orders (permit_id, reason_code, notes, issued_on) VALUES (?, ?, ?, ?)",
  );
  for (const { id, type, status, district, contractor, valuation, appliedOn, issuedOn } of permits) {
    const row = [id, type, status, faker.location.streetAddress(), district, faker.person.fullName()];
    const expires = issuedOn === null ? null : addDays(issuedOn, 365);
    insert.run(
      ...row,
      contractor.id,
      valuation,
      random.pick(DESCRIPTIONS[type]),
      appliedOn,
      issuedOn,
      expires,
    );
    if (status !== "stop_work") continue;
    const [code, on] = [random.pick(STOP_WORK_CODES.slice(1)), addDays(issuedOn!, random.int(10, 60))];
    stopWork.run(id, code, "Posted on site by the district inspector.", on > today ? today : on);
  }
}

function insertFees(context: GenerateContext, permits: PermitDraft[], failures: Row[]): FeeDraft[] {
  const { db, random, referenceDate: today } = context;
  const insert = db.prepare(
    "INSERT INTO fees (permit_id, fee_code, description, amount, assessed_on, paid_on) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const fees: FeeDraft[] = [];
  // The first permit applied for this year is always among the misbilled plan reviews.
  const plantedWrong = permits.find((permit) => permit.appliedOn >= `${today.slice(0, 4)}-01-01`);
  const add = (permit: PermitDraft, code: string, description: string, amount: number, on: string): void => {
    const paid = permit.status === "finaled" || random.chance(code === "REI" ? 0.45 : 0.7);
    const paidOn = paid ? randomDate(random, on, on < today ? addDays(on, 40) : on) : null;
    const row = [permit.id, code, description, amount, on, paidOn && paidOn > today ? today : paidOn];
    fees.push({ id: Number(insert.run(...row).lastInsertRowid), permitId: permit.id, code, amount, paid });
  };
  for (const permit of permits) {
    const type = PERMIT_TYPES[permit.type];
    // About one plan-review fee in twelve was keyed at last year's rate or without the minimum.
    const wrong = permit === plantedWrong || random.chance(0.12);
    const rate = wrong ? type.planRate - 0.1 : type.planRate;
    const planFee =
      wrong && (permit === plantedWrong || random.chance(0.5))
        ? roundCents((permit.valuation * rate) / 100)
        : planReviewFee(rate, permit.valuation);
    add(permit, "PLR", "Plan review", planFee, permit.appliedOn);
    if (permit.issuedOn === null) continue;
    add(permit, "PMT", "Permit issuance", type.permitFee, permit.issuedOn);
    const surcharge = roundCents((type.permitFee * TECH_SURCHARGE_PCT) / 100);
    add(permit, "TEC", "Technology surcharge", surcharge, permit.issuedOn);
  }
  for (const failure of failures)
    add(failure.permit, "REI", `Re-inspection (${failure.type})`, REINSPECTION_FEE, failure.date);
  return fees;
}

/** Contractors, permits, inspections, fees and the workspace of a city permits office. */
export function generatePermits(context: GenerateContext): void {
  const { db, random, referenceDate: today } = context;
  const inspectors = INSPECTOR_NAMES.map((name, index) => ({
    name,
    email: `${name.toLowerCase().replace(/\s+/g, ".")}@riverton.gov`,
    district: DISTRICTS[index]!,
  }));
  const insertInspector = db.prepare("INSERT INTO inspectors VALUES (?, ?, ?)");
  for (const inspector of inspectors)
    insertInspector.run(inspector.name, inspector.email, inspector.district);
  const contractors = generateContractors(context);
  const permits = draftPermits(context, contractors);
  insertPermits(context, permits);
  const inspectorFor = (permit: PermitDraft): string =>
    random.chance(0.75)
      ? inspectors.find((inspector) => inspector.district === permit.district)!.name
      : random.pick(inspectors).name;
  const opened = { count: 0 };
  const inspections = permits
    .flatMap((permit) => inspectionHistory(random, permit, today, inspectorFor, opened))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const insertInspection = db.prepare("INSERT INTO inspections VALUES (?, ?, ?, ?, ?, ?, ?)");
  inspections.forEach(({ permit, type, date, inspector, result, notes }, index) => {
    const id = inspectionId.format(index * 2 + 11);
    insertInspection.run(id, permit.id, type, date, inspector, result, notes);
  });
  const fees = insertFees(
    context,
    permits,
    inspections.filter((row) => row.result === "fail"),
  );
  // A few waivers granted long ago, so the waiver register is not empty.
  const waivedFees = new Set<number>();
  const insertWaiver = db.prepare(
    "INSERT INTO fee_waivers (fee_id, permit_id, amount, reason, recorded_on) VALUES (?, ?, ?, ?, ?)",
  );
  for (const fee of fees.filter((item) => item.code === "REI" && !item.paid)) {
    if (!random.chance(0.1)) continue;
    waivedFees.add(fee.id);
    const on = addDays(today, -random.int(5, 90));
    insertWaiver.run(fee.id, fee.permitId, fee.amount, "Inspector error on the original visit", on);
  }
  const scheduled = inspections.filter((row) => row.result === "scheduled");
  writePermitsDocuments(context, { inspectors, fees, waivedFees, scheduled });
}
