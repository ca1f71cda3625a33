import {
  addDays,
  allRows,
  dateRange,
  daysBetween,
  groupBy,
  insertDrafts,
  insertRecords,
  isWeekend,
  roundCents,
  weightedPick,
  type GenerateContext,
} from "../../envs/index.js";
import { writeClinicDocuments } from "./documents.js";
import {
  CLINIC_CLOSE_MINUTES,
  CLINIC_OPEN_MINUTES,
  FUTURE_DAYS,
  IMAGING_FEES,
  LAB_FEES,
  NO_SHOW_CHARGE_CODE,
  NO_SHOW_REVIEW_DAYS,
  PAST_DAYS,
  PLANS,
  PROCEDURE_FEES,
  SPECIALTIES,
  VISIT_FEES,
  VISIT_RULES,
  formatStartTime,
  intervalsOverlap,
  patientShare,
  providerInterval,
  splitStartTime,
  weekdayOf,
} from "./rules.js";
import type { Credential, FeeLine, PlanSeed, RoomType, VisitType } from "./rules.js";

export interface ProviderDraft {
  id: number;
  firstName: string;
  lastName: string;
  credential: Credential;
  specialtyCode: string;
  /** Weekday numbers (1 = Monday ... 5 = Friday) the provider holds clinic. */
  clinicDays: number[];
}

export interface RoomDraft {
  id: number;
  code: string;
  roomType: RoomType;
}

export interface PatientDraft {
  id: number;
  mrn: string;
  firstName: string;
  lastName: string;
  isChild: boolean;
  plan: PlanSeed | null;
  schedulingStatus: "standard" | "prepay_required" | "restricted";
}

export interface AppointmentDraft {
  id: number;
  patientId: number;
  providerId: number;
  roomId: number | null;
  visitType: VisitType;
  startTime: string;
  status: "scheduled" | "completed" | "no_show" | "cancelled";
  reason: string;
  cancelReason: string | null;
}

export interface LeaveEntry {
  provider: ProviderDraft;
  from: string;
  to: string;
  reason: string;
  confirmed: boolean;
}

/** Everything the documents are written from. */
export interface ClinicWorld {
  referenceDate: string;
  providers: ProviderDraft[];
  rooms: RoomDraft[];
  patients: PatientDraft[];
  appointments: AppointmentDraft[];
  leaves: LeaveEntry[];
  closureDate: string;
  /** Weekdays before the reference date that get a front-desk log, newest first. */
  logDates: string[];
  exportDates: string[];
  excusedAppointmentIds: Set<number>;
  noteCount: number;
  random: GenerateContext["random"];
  faker: GenerateContext["faker"];
}

const REASONS: Record<VisitType, string[]> = {
  new_patient: ["Establish care", "Referral consult", "Transfer of care", "Second opinion"],
  follow_up: [
    "Hypertension follow-up",
    "Medication review",
    "Lab results review",
    "Post-procedure check",
    "Diabetes follow-up",
    "Wound check",
  ],
  annual_physical: ["Annual physical", "Preventive exam", "Employer physical"],
  sick_visit: ["Sore throat", "Cough and fever", "Ear pain", "Rash", "Urinary symptoms", "Back pain"],
  well_child: ["12-month well check", "4-year well check", "School physical", "Immunizations"],
  procedure: ["Skin lesion removal", "Joint injection", "Biopsy", "Abscess drainage", "Stress test"],
  imaging: ["Knee X-ray", "Shoulder X-ray", "Echocardiogram", "Wrist X-ray", "ECG"],
  telehealth: ["Video follow-up", "Medication refill", "Results discussion", "Virtual consult"],
};

const CANCEL_REASONS = [
  "Patient cancelled by phone",
  "Patient cancelled online",
  "Schedule conflict",
  "Feeling better",
  "Transportation issue",
];

const ROOM_EQUIPMENT: Record<RoomType, string[]> = {
  exam: ["Exam table, otoscope", "Exam table, ECG cart", "Pediatric exam table", "Exam table, wall vitals"],
  procedure: ["Procedure table, surgical light, autoclave access", "Procedure chair, cryotherapy unit"],
  imaging: ["Digital X-ray", "Echocardiography ultrasound"],
};

function randomPhone(random: GenerateContext["random"]): string {
  return `(${random.int(201, 989)}) ${random.int(201, 989)}-${String(random.int(0, 9999)).padStart(4, "0")}`;
}

function pickClinicDays(random: GenerateContext["random"]): number[] {
  const count = random.chance(0.5) ? 2 : 3;
  return random
    .shuffle([1, 2, 3, 4, 5])
    .slice(0, count)
    .sort((a, b) => a - b);
}

/** Fills the clinic database and writes its workspace documents for one scale. */
export function generateClinic(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate } = context;
  const rows = factors.rows;
  insertReferenceData(context);
  const rooms = insertRooms(context);
  const { providers, leaves } = insertProviders(context);
  const patients = insertPatients(context);
  const appointments = bookAppointments(context, providers, rooms, patients);
  const world: ClinicWorld = {
    referenceDate,
    providers,
    rooms,
    patients,
    appointments,
    leaves,
    closureDate: "",
    logDates: [],
    exportDates: [],
    excusedAppointmentIds: new Set(),
    noteCount: 0,
    random,
    faker,
  };
  const scaledFiles = 9 * factors.files - 3;
  const logCount = Math.ceil(scaledFiles * 0.4);
  const exportCount = Math.floor(scaledFiles * 0.35);
  world.noteCount = scaledFiles - logCount - exportCount;
  world.logDates = recentWeekdays(referenceDate, logCount);
  world.exportDates = recentWeekdays(referenceDate, exportCount);
  plantNoShowHistory(world, rows);
  settleLeaveCoverage(world);

  insertDrafts(db, "appointments", APPOINTMENT_COLUMNS, appointments);
  postCharges(context, world);
  postPayments(context, world);
  writeClinicDocuments(context, world);
  // The payers' eligibility records: every insured patient covered since registration, open-ended.
  db.prepare(
    `INSERT INTO insurance_eligibility (patient_id, plan_code, member_id, coverage_start, coverage_end)
     SELECT p.id, pl.plan_code, p.member_id, p.registered_on, NULL
       FROM patients p JOIN insurance_plans pl ON pl.id = p.insurance_plan_id ORDER BY p.id`,
  ).run();
}

const APPOINTMENT_COLUMNS =
  "id, patient_id, provider_id, room_id, visit_type, start_time, status, reason, cancel_reason";

/** The row id of a specialty or plan: its position in the reference list, from 1. */
function idByCode(seeds: ReadonlyArray<{ code: string }>, code: string): number {
  return seeds.findIndex((seed) => seed.code === code) + 1;
}

/** Specialties and insurance plans, with ids in list order. */
function insertReferenceData(context: GenerateContext): void {
  const { db, random } = context;
  SPECIALTIES.forEach(({ code, name }, index) =>
    insertRecords(db, "specialties", [{ id: index + 1, code, name, departmentPhone: randomPhone(random) }]),
  );
  const insertPlan = db.prepare(
    "INSERT INTO insurance_plans (id, plan_code, payer_name, plan_name, plan_type, payer_phone) VALUES (?, ?, ?, ?, ?, ?)",
  );
  PLANS.forEach((plan, index) =>
    insertPlan.run(index + 1, plan.code, plan.payer, plan.name, plan.type, plan.phone),
  );
}

/** Rooms: exam rooms on floors 1-2, procedure and imaging rooms on floor 3. */
function insertRooms(context: GenerateContext): RoomDraft[] {
  const { db, random } = context;
  const rows = context.factors.rows;
  const rooms: RoomDraft[] = [];
  const roomCounts: Array<[RoomType, number, string]> = [
    ["exam", 4 * rows, "EX"],
    ["procedure", 1 * rows, "PR"],
    ["imaging", 1 * rows, "IM"],
  ];
  for (const [roomType, count, prefix] of roomCounts) {
    for (let index = 0; index < count; index += 1) {
      const id = rooms.length + 1;
      const floor = roomType === "exam" ? 1 + (index % 2) : 3;
      const code = `${prefix}-${floor}${String(index + 1).padStart(2, "0")}`;
      rooms.push({ id, code, roomType });
      const equipment = random.pick(ROOM_EQUIPMENT[roomType]);
      insertRecords(db, "rooms", [{ id, code, roomType, floor, equipment }]);
    }
  }

  return rooms;
}

/** Providers, interleaved across specialties so ids do not group by specialty, and next week's leave. */
function insertProviders(context: GenerateContext): { providers: ProviderDraft[]; leaves: LeaveEntry[] } {
  const { db, random, faker, referenceDate } = context;
  const rows = context.factors.rows;
  const specialtySlots: string[] = [];
  for (const specialty of SPECIALTIES)
    for (let index = 0; index < specialty.sharePerNine * rows; index += 1)
      specialtySlots.push(specialty.code);
  const orderedSlots = random.shuffle(specialtySlots);
  const providers: ProviderDraft[] = orderedSlots.map((specialtyCode, index) => {
    const specialty = SPECIALTIES.find((candidate) => candidate.code === specialtyCode)!;
    const sex = random.chance(0.5) ? "female" : "male";
    return {
      id: index + 1,
      firstName: faker.person.firstName(sex),
      lastName: faker.person.lastName(),
      credential: random.pick(specialty.credentials),
      specialtyCode,
      clinicDays: pickClinicDays(random),
    };
  });
  const leaves = arrangeLeaveCoverage(providers, referenceDate, random, rows);
  insertRecords(
    db,
    "providers",
    providers.map(({ id, firstName, lastName, credential, specialtyCode }) => ({
      id,
      npi: `1${String(id).padStart(3, "0")}${String(random.int(0, 999_999)).padStart(6, "0")}`,
      firstName,
      lastName,
      credential,
      specialtyId: idByCode(SPECIALTIES, specialtyCode),
      email: `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, "") + "@lakeside-clinic.org",
      hiredOn: addDays(referenceDate, -random.int(200, 5000)),
    })),
  );

  return { providers, leaves };
}

/** Patients: about a fifth are children, seen by pediatrics. */
function insertPatients(context: GenerateContext): PatientDraft[] {
  const { db, random, faker, referenceDate } = context;
  const rows = context.factors.rows;
  const patients: PatientDraft[] = [];
  const patientCount = 60 * rows;
  const cities = Array.from({ length: 6 }, () => faker.location.city());
  for (let index = 0; index < patientCount; index += 1) {
    const id = index + 1;
    const isChild = random.chance(0.2);
    const age = isChild ? random.int(0, 17) : random.chance(0.25) ? random.int(65, 92) : random.int(18, 64);
    const sexRoll = random.next();
    const sex = sexRoll < 0.5 ? "F" : sexRoll < 0.98 ? "M" : "X";
    const firstName = faker.person.firstName(sex === "F" ? "female" : sex === "M" ? "male" : undefined);
    const lastName = faker.person.lastName();
    let plan: PlanSeed | null;
    const planRoll = random.next();
    if (age >= 65)
      plan = planRoll < 0.9 ? random.pick(PLANS.filter((item) => item.type === "medicare")) : null;
    else if (planRoll < 0.22) plan = random.pick(PLANS.filter((item) => item.type === "medicaid"));
    else if (planRoll < 0.88) plan = random.pick(PLANS.filter((item) => item.type === "commercial"));
    else plan = null;
    const statusRoll = random.next();
    const schedulingStatus =
      statusRoll < 0.015 ? "restricted" : statusRoll < 0.04 ? "prepay_required" : "standard";
    const statusReason =
      schedulingStatus === "restricted"
        ? "Behavioral agreement on file; scheduling by practice manager only"
        : schedulingStatus === "prepay_required"
          ? "No-show review of the previous quarter"
          : null;
    const mrn = `MRN-${100_000 + id * 17 + random.int(0, 16)}`;
    patients.push({ id, mrn, firstName, lastName, isChild, plan, schedulingStatus });
    insertRecords(db, "patients", [
      {
        id,
        mrn,
        firstName,
        lastName,
        dateOfBirth: addDays(referenceDate, -(age * 365 + random.int(0, 364))),
        sex,
        phone: randomPhone(random),
        email:
          isChild || random.chance(0.1) ? null : faker.internet.email({ firstName, lastName }).toLowerCase(),
        city: random.pick(cities),
        insurancePlanId: plan ? idByCode(PLANS, plan.code) : null,
        memberId: plan
          ? `${plan.code.slice(0, 3)}${String(random.int(0, 99_999_999)).padStart(8, "0")}`
          : null,
        schedulingStatus,
        statusReason,
        registeredOn: addDays(referenceDate, -random.int(30, 3000)),
      },
    ]);
  }
  return patients;
}

/** Weekdays strictly before the reference date, newest first. */
function recentWeekdays(referenceDate: string, count: number): string[] {
  const dates: string[] = [];
  for (let offset = 1; dates.length < count; offset += 1) {
    const date = addDays(referenceDate, -offset);
    const weekday = weekdayOf(date);
    if (weekday >= 1 && weekday <= 5) dates.push(date);
  }
  return dates;
}

/**
 * Shapes the family-medicine roster around next week's leave so that the coverage rules bite: the first
 * colleague by id does not work every leave day, a second provider is away for part of the week, and a
 * third provider's previously announced leave was called off.
 */
function arrangeLeaveCoverage(
  providers: ProviderDraft[],
  referenceDate: string,
  random: GenerateContext["random"],
  rows: number,
): LeaveEntry[] {
  const family = providers.filter((provider) => provider.specialtyCode === "FM");
  const [first, second, third, onLeave] = family as [
    ProviderDraft,
    ProviderDraft,
    ProviderDraft,
    ProviderDraft,
  ];
  first.clinicDays = [1, 3, 4];
  first.credential = "MD";
  second.clinicDays = [2, 4, 5];
  second.credential = "DO";
  third.clinicDays = [1, 2, 5];
  if (third.credential === "NP" || third.credential === "PA") third.credential = "MD";
  onLeave.clinicDays = [1, 2, 5];
  onLeave.credential = "MD";
  // Every clinic has at least one advanced practitioner, so credential rules always matter.
  if (!providers.some((provider) => provider.credential === "NP" || provider.credential === "PA")) {
    const practitioner = providers.filter((provider) => provider.specialtyCode === "PED")[1];
    if (practitioner) practitioner.credential = "NP";
  }
  const pediatrician = providers.find((provider) => provider.specialtyCode === "PED")!;
  pediatrician.clinicDays = [...new Set([...pediatrician.clinicDays, 2, 3])].sort((a, b) => a - b);

  let monday = addDays(referenceDate, 3);
  while (weekdayOf(monday) !== 1) monday = addDays(monday, 1);
  const leaves: LeaveEntry[] = [
    { provider: onLeave, from: monday, to: addDays(monday, 4), reason: "Family leave", confirmed: true },
    {
      provider: second,
      from: addDays(monday, 3),
      to: addDays(monday, 4),
      reason: "Continuing medical education conference",
      confirmed: true,
    },
    {
      provider: pediatrician,
      from: addDays(monday, 1),
      to: addDays(monday, 2),
      reason: "Personal leave (withdrawn)",
      confirmed: false,
    },
  ];
  // A bigger clinic has more people away in the same week.
  // The four family physicians whose rosters were shaped above stay out of it, so Fridays keep a cover.
  const involved = new Set([first.id, second.id, third.id, onLeave.id, pediatrician.id]);
  const specialtySize = (code: string): number =>
    providers.filter((provider) => provider.specialtyCode === code).length;
  const others = random.shuffle(
    providers.filter((provider) => !involved.has(provider.id) && specialtySize(provider.specialtyCode) >= 3),
  );
  for (const provider of others.slice(0, rows - 1)) {
    const firstDay = random.int(0, 3);
    const lastDay = Math.min(4, firstDay + random.int(0, 2));
    leaves.push({
      provider,
      from: addDays(monday, firstDay),
      to: addDays(monday, lastDay),
      reason: random.pick(["Vacation", "Conference", "Jury duty", "Medical leave", "Board review course"]),
      confirmed: true,
    });
  }
  return leaves;
}

function bookAppointments(
  context: GenerateContext,
  providers: ProviderDraft[],
  rooms: RoomDraft[],
  patients: PatientDraft[],
): AppointmentDraft[] {
  const { random, referenceDate } = context;
  const children = patients.filter((patient) => patient.isChild);
  const adults = patients.filter((patient) => !patient.isChild);
  const roomOccupancy = new Map<string, Array<{ start: number; end: number }>>();
  const appointments: AppointmentDraft[] = [];
  for (let offset = -PAST_DAYS; offset <= FUTURE_DAYS; offset += 1) {
    const date = addDays(referenceDate, offset);
    const weekday = weekdayOf(date);
    if (weekday === 0 || weekday === 6) continue;
    for (const provider of providers) {
      if (!provider.clinicDays.includes(weekday)) continue;
      const specialty = SPECIALTIES.find((candidate) => candidate.code === provider.specialtyCode)!;
      // Larger clinics also run fuller schedules, so the appointment book grows a little faster than the staff.
      const target =
        random.pick([1, 1, 1, 2, 2, 3]) + (random.chance(0.2 * Math.log2(context.factors.rows)) ? 1 : 0);
      // Visits spread over the day: the k-th visit starts somewhere in the k-th slice of the clinic hours.
      const slice = Math.floor((CLINIC_CLOSE_MINUTES - CLINIC_OPEN_MINUTES) / target);
      let pointer = CLINIC_OPEN_MINUTES;
      let booked = 0;
      let newSlice = true;
      while (booked < target && pointer < CLINIC_CLOSE_MINUTES) {
        if (newSlice) {
          const sliceStart = CLINIC_OPEN_MINUTES + booked * slice;
          pointer = Math.max(
            pointer,
            sliceStart + random.int(0, Math.max(0, Math.floor((slice - 60) / 10))) * 10,
          );
          newSlice = false;
        }
        let visitType = weightedPick(
          random,
          specialty.visitMix.map(([type]) => type),
          specialty.visitMix.map(([, weight]) => weight),
        );
        if (visitType === "procedure" && (provider.credential === "NP" || provider.credential === "PA"))
          visitType = "follow_up";
        const rule = VISIT_RULES[visitType];
        if (pointer + rule.lengthMinutes > CLINIC_CLOSE_MINUTES) break;
        let roomId: number | null = null;
        if (rule.roomType) {
          const candidates = random.shuffle(rooms.filter((room) => room.roomType === rule.roomType));
          const blockedUntil = pointer + rule.lengthMinutes + rule.turnoverMinutes;
          const free = candidates.find((room) =>
            (roomOccupancy.get(`${room.id}|${date}`) ?? []).every(
              (slot) => slot.end <= pointer || slot.start >= blockedUntil,
            ),
          );
          if (!free) {
            pointer += 10;
            continue;
          }
          roomId = free.id;
          const key = `${free.id}|${date}`;
          roomOccupancy.set(key, [...(roomOccupancy.get(key) ?? []), { start: pointer, end: blockedUntil }]);
        }
        const patient = random.pick(provider.specialtyCode === "PED" ? children : adults);
        let status: AppointmentDraft["status"];
        let cancelReason: string | null = null;
        const roll = random.next();
        if (offset < 0) status = roll < 0.07 ? "no_show" : roll < 0.16 ? "cancelled" : "completed";
        else status = roll < 0.08 ? "cancelled" : "scheduled";
        if (status === "cancelled") cancelReason = random.pick(CANCEL_REASONS);
        appointments.push({
          id: appointments.length + 1,
          patientId: patient.id,
          providerId: provider.id,
          roomId,
          visitType,
          startTime: formatStartTime(date, pointer),
          status,
          reason: random.pick(REASONS[visitType]),
          cancelReason,
        });
        booked += 1;
        pointer += rule.lengthMinutes;
        newSlice = true;
      }
    }
  }
  return appointments;
}

/**
 * Picks the early-closure day two to five weeks back and marks its afternoon visits no-shows. The closure has
 * to hit a busy afternoon, or there is nothing to excuse, and a morning with visits that still count.
 */
function closeEarly(world: ClinicWorld, pediatricProviders: Set<number>): string {
  const { random, referenceDate, appointments } = world;
  const closureCandidates = dateRange(addDays(referenceDate, -24), addDays(referenceDate, -10))
    .reverse()
    .filter((date) => !isWeekend(date));
  const load = (date: string, afternoon: boolean): number =>
    appointments.filter((appointment) => {
      const { date: day, minutes } = splitStartTime(appointment.startTime);
      return (
        day === date &&
        minutes >= 12 * 60 === afternoon &&
        (afternoon ? appointment.status !== "cancelled" : appointment.status === "completed") &&
        !pediatricProviders.has(appointment.providerId)
      );
    }).length;
  const withMornings = closureCandidates.filter((date) => load(date, false) > 0);
  const eligible = withMornings.length > 0 ? withMornings : closureCandidates;
  const busiest = Math.max(...eligible.map((date) => load(date, true)));
  const closureDate = random.pick(eligible.filter((date) => load(date, true) >= Math.min(3, busiest)));
  for (const appointment of appointments) {
    const { date, minutes } = splitStartTime(appointment.startTime);
    if (date === closureDate && minutes >= 12 * 60 && appointment.status !== "cancelled")
      appointment.status = "no_show";
  }
  return closureDate;
}

/**
 * Plants the no-show history the review has to untangle: an afternoon closure whose no-shows are
 * excused, supervisor-excused no-shows recorded in the front-desk logs, and patients whose counts sit
 * on either side of the flag threshold with and without Medicaid coverage.
 */
function plantNoShowHistory(world: ClinicWorld, rows: number): void {
  const { random, referenceDate, appointments, patients, providers } = world;
  const reviewStart = addDays(referenceDate, -NO_SHOW_REVIEW_DAYS);
  const pediatricProviders = new Set(
    providers.filter((provider) => provider.specialtyCode === "PED").map((provider) => provider.id),
  );
  world.closureDate = closeEarly(world, pediatricProviders);
  const closureDate = world.closureDate;

  const inReview = (appointment: AppointmentDraft): boolean => {
    const { date } = splitStartTime(appointment.startTime);
    return date >= reviewStart && date < referenceDate;
  };
  const noShowPatients = new Set(
    appointments.filter((item) => item.status === "no_show" && inReview(item)).map((item) => item.patientId),
  );
  const used = new Set<number>();
  const pool = (filter: (appointment: AppointmentDraft, date: string, minutes: number) => boolean) =>
    random.shuffle(
      appointments.filter((appointment) => {
        const { date, minutes } = splitStartTime(appointment.startTime);
        return (
          !used.has(appointment.id) &&
          appointment.status === "completed" &&
          !pediatricProviders.has(appointment.providerId) &&
          inReview(appointment) &&
          filter(appointment, date, minutes)
        );
      }),
    );
  const takePatient = (kind: "medicaid" | "other"): PatientDraft => {
    const candidates = patients.filter(
      (patient) =>
        !patient.isChild &&
        patient.schedulingStatus === "standard" &&
        !noShowPatients.has(patient.id) &&
        (kind === "medicaid" ? patient.plan?.type === "medicaid" : patient.plan?.type !== "medicaid"),
    );
    const patient = random.pick(candidates);
    noShowPatients.add(patient.id);
    return patient;
  };
  const assign = (patient: PatientDraft, picked: AppointmentDraft[]): void => {
    for (const appointment of picked) {
      used.add(appointment.id);
      appointment.patientId = patient.id;
      appointment.status = "no_show";
      appointment.cancelReason = null;
    }
  };
  /** `count` completed visits on distinct dates the filter keeps, drawn from the shuffled pool. */
  const distinctDates = (count: number, keep: (date: string) => boolean): AppointmentDraft[] => {
    const candidates = pool((_, date) => keep(date));
    const seen = new Set<string>();
    const picked: AppointmentDraft[] = [];
    for (const appointment of candidates) {
      const { date } = splitStartTime(appointment.startTime);
      if (seen.has(date)) continue;
      seen.add(date);
      picked.push(appointment);
      if (picked.length === count) break;
    }
    return picked;
  };
  const logDays = new Set(world.logDates);
  const offClosureDay = (date: string): boolean => date !== closureDate;
  const beforeClosure = (date: string): boolean => date < closureDate;
  const repeats = Math.max(1, Math.round(rows / 2));
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    // Three counted no-shows: two fees and the flag.
    assign(takePatient("other"), distinctDates(3, offClosureDay));
    // Three counted no-shows under Medicaid: the flag but no fees.
    assign(takePatient("medicaid"), distinctDates(3, offClosureDay));
    // Three no-shows, one of them excused in the front-desk log.
    const excusedPatient = takePatient("other");
    const excused = pool((_, date) => logDays.has(date) && date !== closureDate)[0];
    if (excused) {
      assign(excusedPatient, [excused]);
      world.excusedAppointmentIds.add(excused.id);
      const excusedDate = splitStartTime(excused.startTime).date;
      assign(
        excusedPatient,
        distinctDates(2, (date) => date !== closureDate && date !== excusedDate),
      );
    }
    // Two counted no-shows before the closure plus one in the excused closure afternoon.
    const closurePatient = takePatient("other");
    assign(closurePatient, distinctDates(2, beforeClosure));
    const afternoon = random.shuffle(
      appointments.filter((appointment) => {
        const { date, minutes } = splitStartTime(appointment.startTime);
        return (
          !used.has(appointment.id) &&
          appointment.status === "no_show" &&
          date === closureDate &&
          minutes >= 12 * 60 &&
          !pediatricProviders.has(appointment.providerId)
        );
      }),
    )[0];
    if (afternoon) assign(closurePatient, [afternoon]);
    // One earlier no-show plus a closure-day morning no-show, which still counts.
    const morningPatient = takePatient("other");
    const morning = pool((_, date, minutes) => date === closureDate && minutes < 12 * 60)[0];
    if (morning) {
      assign(morningPatient, distinctDates(1, beforeClosure));
      assign(morningPatient, [morning]);
    }
  }

  // The front desk also excuses some ordinary no-shows on logged days.
  for (const appointment of appointments) {
    const { date } = splitStartTime(appointment.startTime);
    if (
      appointment.status === "no_show" &&
      logDays.has(date) &&
      date !== closureDate &&
      !used.has(appointment.id) &&
      random.chance(0.3)
    )
      world.excusedAppointmentIds.add(appointment.id);
  }
}

/**
 * Makes next week's leave coverable: every scheduled appointment of a provider on confirmed leave gets a
 * covering colleague when taken in time order and given to the first eligible colleague by id; what
 * cannot be covered is cancelled, as the front desk would already have done. Also guarantees the
 * boundary cases (an appointment on the last leave day, a cancelled one inside the leave).
 */
function settleLeaveCoverage(world: ClinicWorld): void {
  const { appointments, providers, leaves } = world;
  const confirmed = leaves.filter((leave) => leave.confirmed);
  const onLeave = (providerId: number, date: string): boolean =>
    confirmed.some((leave) => leave.provider.id === providerId && date >= leave.from && date <= leave.to);
  const main = confirmed[0]!;
  const mainAppointments = appointments.filter((appointment) => {
    const { date } = splitStartTime(appointment.startTime);
    return appointment.providerId === main.provider.id && date >= main.from && date <= main.to;
  });
  const lastDay = mainAppointments.filter((item) => splitStartTime(item.startTime).date === main.to);
  if (lastDay.length > 0 && !lastDay.some((item) => item.status === "scheduled")) {
    lastDay[0]!.status = "scheduled";
    lastDay[0]!.cancelReason = null;
  }
  const firstDays = mainAppointments.filter((item) => splitStartTime(item.startTime).date !== main.to);
  if (firstDays.length > 1 && !firstDays.some((item) => item.status === "cancelled")) {
    firstDays[0]!.status = "cancelled";
    firstDays[0]!.cancelReason = "Patient cancelled by phone";
  }

  const affected = appointments
    .filter((appointment) => {
      const { date } = splitStartTime(appointment.startTime);
      return appointment.status === "scheduled" && onLeave(appointment.providerId, date);
    })
    .sort((a, b) => (a.startTime === b.startTime ? a.id - b.id : a.startTime < b.startTime ? -1 : 1));
  const busy = groupBy(
    appointments.filter(
      (appointment) => appointment.status !== "cancelled" && !affected.includes(appointment),
    ),
    (appointment) => appointment.providerId,
    (appointment) => providerInterval(appointment.visitType, appointment.startTime),
  );
  // Section 4 of the scheduling rules: same specialty, in clinic, not on leave, credentialed, free.
  const canCover = (
    candidate: ProviderDraft,
    owner: ProviderDraft,
    visitType: VisitType,
    startTime: string,
  ) => {
    const interval = providerInterval(visitType, startTime);
    const { date } = splitStartTime(startTime);
    return (
      candidate.id !== owner.id &&
      candidate.specialtyCode === owner.specialtyCode &&
      candidate.clinicDays.includes(weekdayOf(date)) &&
      !onLeave(candidate.id, date) &&
      (!VISIT_RULES[visitType].physicianOnly ||
        candidate.credential === "MD" ||
        candidate.credential === "DO") &&
      (busy.get(candidate.id) ?? []).every((slot) => !intervalsOverlap(slot, interval))
    );
  };
  for (const appointment of affected) {
    const owner = providers.find((provider) => provider.id === appointment.providerId)!;
    const interval = providerInterval(appointment.visitType, appointment.startTime);
    const cover = providers
      .filter((candidate) => canCover(candidate, owner, appointment.visitType, appointment.startTime))
      .sort((a, b) => a.id - b.id)[0];
    if (cover) busy.set(cover.id, [...(busy.get(cover.id) ?? []), interval]);
    else {
      appointment.status = "cancelled";
      appointment.cancelReason = "Patient cancelled by phone";
    }
  }

  // Someone must still be booked on a last leave day, or "through" in the memo would never matter: if
  // nobody is, the provider on the longest leave gets a video visit a colleague can take over.
  const lastDayBooked = affected.some(
    (appointment) =>
      appointment.status === "scheduled" &&
      confirmed.some(
        (leave) =>
          leave.provider.id === appointment.providerId &&
          splitStartTime(appointment.startTime).date === leave.to,
      ),
  );
  if (lastDayBooked) return;
  bookCoverableVideoVisit(world, main, (startTime) =>
    providers.some((candidate) => canCover(candidate, main.provider, "telehealth", startTime)),
  );
}

/**
 * Books a video visit on the last day of `leave` at the first time its provider is free and a colleague
 * could take it over (`coverable`).
 */
function bookCoverableVideoVisit(
  world: ClinicWorld,
  leave: LeaveEntry,
  coverable: (startTime: string) => boolean,
): void {
  const { appointments } = world;
  const ownBusy = appointments
    .filter(
      (appointment) =>
        appointment.providerId === leave.provider.id &&
        appointment.status !== "cancelled" &&
        splitStartTime(appointment.startTime).date === leave.to,
    )
    .map((appointment) => providerInterval(appointment.visitType, appointment.startTime));
  for (let minutes = CLINIC_OPEN_MINUTES; minutes + 20 <= CLINIC_CLOSE_MINUTES; minutes += 10) {
    const startTime = formatStartTime(leave.to, minutes);
    const interval = providerInterval("telehealth", startTime);
    if (ownBusy.some((slot) => intervalsOverlap(slot, interval)) || !coverable(startTime)) continue;
    appointments.push({
      id: appointments.length + 1,
      patientId: world.random.pick(world.patients.filter((patient) => !patient.isChild)).id,
      providerId: leave.provider.id,
      roomId: null,
      visitType: "telehealth",
      startTime,
      status: "scheduled",
      reason: "Video follow-up",
      cancelReason: null,
    });
    return;
  }
}

function feeLinesFor(
  random: GenerateContext["random"],
  appointment: AppointmentDraft,
  specialtyCode: string,
): FeeLine[] {
  const lines: FeeLine[] = [];
  if (appointment.visitType === "procedure") {
    lines.push(random.pick(PROCEDURE_FEES[specialtyCode]!));
    if (random.chance(0.3)) lines.push(VISIT_FEES.follow_up[0]!);
  } else if (appointment.visitType === "imaging") {
    lines.push(random.pick(IMAGING_FEES[specialtyCode]!));
  } else {
    lines.push(random.pick(VISIT_FEES[appointment.visitType]));
    if ((specialtyCode === "FM" || specialtyCode === "CARD") && appointment.visitType !== "telehealth")
      if (random.chance(0.2)) lines.push(...random.shuffle(LAB_FEES).slice(0, random.int(1, 2)));
  }
  return lines;
}

function postCharges(context: GenerateContext, world: ClinicWorld): void {
  const { db, random, referenceDate } = context;
  const insertCharge = (charge: object): void => insertRecords(db, "charges", [charge]);
  const patientsById = new Map(world.patients.map((patient) => [patient.id, patient]));
  const providersById = new Map(world.providers.map((provider) => [provider.id, provider]));
  const reviewStart = addDays(referenceDate, -NO_SHOW_REVIEW_DAYS);
  for (const appointment of world.appointments) {
    const { date } = splitStartTime(appointment.startTime);
    const patient = patientsById.get(appointment.patientId)!;
    if (appointment.status === "completed") {
      const ageDays = daysBetween(date, referenceDate);
      const claimStatus = !patient.plan
        ? "patient_only"
        : random.chance(ageDays <= 10 ? 0.6 : 0.08)
          ? "pending"
          : "adjudicated";
      const specialty = providersById.get(appointment.providerId)!.specialtyCode;
      for (const line of feeLinesFor(random, appointment, specialty))
        insertCharge({
          appointmentId: appointment.id,
          patientId: patient.id,
          serviceDate: date,
          ...line,
          claimStatus,
        });
    } else if (
      appointment.status === "no_show" &&
      date < reviewStart &&
      patient.plan?.type !== "medicaid" &&
      random.chance(0.6)
    ) {
      // Fees from the previous review cycle, already on patient accounts.
      insertCharge({
        appointmentId: appointment.id,
        patientId: patient.id,
        serviceDate: date,
        code: NO_SHOW_CHARGE_CODE,
        description: "Missed appointment fee",
        category: "admin_fee",
        amount: VISIT_RULES[appointment.visitType].noShowFee,
        claimStatus: "patient_only",
      });
    }
  }
}

function postPayments(context: GenerateContext, world: ClinicWorld): void {
  const { db, random, referenceDate } = context;
  type ChargeRow = {
    patient_id: number;
    service_date: string;
    category: string;
    amount: number;
    claim_status: string;
  };
  const charges = allRows<ChargeRow>(
    db,
    "SELECT patient_id, service_date, category, amount, claim_status FROM charges ORDER BY id",
  );
  const owed = new Map<number, { total: number; lastDate: string }>();
  const patientsById = new Map(world.patients.map((patient) => [patient.id, patient]));
  let reference = 40_000 + random.int(0, 9_999);
  const pay = (patientId: number, date: string, amount: number, method: string): void => {
    reference += random.int(1, 9);
    const status = random.chance(0.04) ? "reversed" : "posted";
    const label = method === "check" ? `CHK-${random.int(1000, 9999)}` : `PMT-${reference}`;
    insertRecords(db, "payments", [
      { patientId, receivedOn: date, amount: roundCents(amount), method, status, reference: label },
    ]);
  };
  for (const charge of charges) {
    const plan = patientsById.get(charge.patient_id)!.plan;
    const share = patientShare(charge, plan ? plan.coverage : null);
    // Copays are collected at check-in whether or not the claim has been processed.
    if (charge.category === "office_visit" && plan && random.chance(0.65)) {
      const copay = plan.coverage.office_visit?.copay ?? 0;
      if (copay > 0)
        pay(charge.patient_id, charge.service_date, copay, random.pick(["card", "cash", "card"]));
      if (charge.claim_status !== "pending") {
        const entry = owed.get(charge.patient_id) ?? { total: 0, lastDate: charge.service_date };
        entry.total += share - copay;
        owed.set(charge.patient_id, entry);
      }
      continue;
    }
    if (charge.claim_status === "pending") continue;
    const entry = owed.get(charge.patient_id) ?? { total: 0, lastDate: charge.service_date };
    entry.total += share;
    if (charge.service_date > entry.lastDate) entry.lastDate = charge.service_date;
    owed.set(charge.patient_id, entry);
  }
  for (const [patientId, entry] of [...owed.entries()].sort((a, b) => a[0] - b[0])) {
    const total = roundCents(entry.total);
    if (total < 5) continue;
    const roll = random.next();
    const latest = addDays(entry.lastDate, random.int(3, 20));
    const date = latest < referenceDate ? latest : addDays(referenceDate, -1);
    if (roll < 0.35) {
      if (random.chance(0.3) && total > 40) {
        const part = Math.round(total / 2);
        pay(patientId, date, part, "online");
        pay(patientId, date, total - part, random.pick(["online", "check"]));
      } else pay(patientId, date, total, random.pick(["online", "check", "card"]));
    } else if (roll < 0.6) {
      pay(patientId, date, Math.max(5, Math.round((total * random.int(3, 7)) / 50) * 5), "online");
    }
  }
}
