import {
  addBusinessDays,
  addDays,
  cachedStatement,
  dateRange,
  randomAmount,
  type GenerateContext,
} from "../../envs/index.js";
import { writeDocuments } from "./documents.js";
import { renderFiling, renderIntake, renderProof, type ProofFacts } from "./scans.js";
import {
  BAND_LIMITS,
  FEES,
  INTAKE_TITLES,
  PATHS,
  courtroomId,
  filingId,
  holidaySet,
  isCourtDay,
  motionHearingDate,
  partyId,
  responseDeadline,
  scheduledFee,
  MOTION_NOTICE_COURT_DAYS,
  STALE_DAYS,
  type Division,
} from "./rules.js";

type Db = GenerateContext["db"];
const put = (db: Db, table: string, ...values: unknown[]): void => {
  cachedStatement(db, `INSERT INTO ${table} VALUES (${values.map(() => "?").join(", ")})`).run(...values);
};

interface Party {
  id: string;
  name: string;
}
interface Case {
  id: string;
  division: Division;
  filed: string;
  amount: number;
  courtroom: string;
  weekday: number;
  plaintiff: Party;
  defendant: Party;
}
type Entry = [string, string, string | null, string | null, string]; // date, type, party, filing, description

/** Civil cases take these stories in turn, so every scale holds each case the tasks turn on. */
const STORIES = [
  "litigated",
  "eligible",
  "pending-holiday",
  "demurrer",
  "litigated",
  "reserved",
  "pending-extension",
  "litigated",
  "unserved",
  "default-entered",
  "eligible",
  "late-answer",
] as const;
type Story = (typeof STORIES)[number];
const MOTIONS = [
  "Motion to Compel Discovery",
  "Motion for Leave to Amend",
  "Motion to Strike",
  "Motion for Protective Order",
];
const MOTION_DAYS = [4, 1, 3, 0]; // DEPT-2 Friday, DEPT-3 Tuesday, DEPT-4 Thursday, DEPT-5 Monday

export function generateCourt(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate: today } = context;
  const holidays = holidaySet();
  const courtDay = (day: string): string => {
    let d = day;
    while (!isCourtDay(d, holidays)) d = addDays(d, 1);
    return d;
  };
  const pick = (from: string, to: string, ok: (day: string) => boolean = () => true): string => {
    const days = dateRange(from, to).filter((day) => isCourtDay(day, holidays) && ok(day));
    if (days.length === 0) throw new Error(`no date between ${from} and ${to} fits`);
    return random.pick(days);
  };

  const rooms: Array<[string, string, string, number]> = [];
  for (let n = 1; n <= 1 + factors.files; n += 1) {
    const division = n === 1 ? "small_claims" : "civil";
    const judge = `Hon. ${faker.person.firstName()} ${faker.person.lastName()}`;
    rooms.push([courtroomId.format(n), division, judge, n === 1 ? -1 : MOTION_DAYS[n - 2]!]);
    put(db, "courtrooms", courtroomId.format(n), `Department ${n}`, division, judge);
  }
  writeDocuments(context, rooms);
  const attorneys: string[] = [];
  for (let n = 1; n <= 5 * factors.rows; n += 1) {
    const id = `ATY-${String(n).padStart(4, "0")}`;
    const firm = `${faker.person.lastName()} & ${faker.person.lastName()} LLP`;
    put(db, "attorneys", id, faker.person.fullName(), String(random.int(100000, 349999)), firm);
    attorneys.push(id);
  }

  let [parties, filings, feeCount, receipts] = [0, 0, 0, 0];
  const proofs: ProofFacts[] = [];
  const entries: Array<[string, Entry]> = [];
  const hearings: unknown[][] = [];
  const openCases: Case[] = [];
  const waived = new Map<string, string>(); // party -> waiver date

  const newParty = (caseId: string, role: string, name: string, lawyer: boolean): Party => {
    const id = partyId.format(++parties);
    put(db, "parties", id, caseId, role, name, lawyer ? random.pick(attorneys) : null);
    return { id, name };
  };
  const docket = (
    c: Case,
    date: string,
    type: string,
    party: string | null,
    filing: string | null,
    text: string,
  ) => entries.push([c.id, [date, type, party, filing, text]]);
  const waiver = (c: Case, party: Party, date: string): void => {
    waived.set(party.id, date);
    docket(c, date, "fee_waiver_granted", party.id, null, `Order granting fee waiver (${party.name})`);
  };
  /** A fee-bearing filing; every 7th is paid at a neighbouring band's fee, every 11th twice over. */
  const file = (c: Case, party: Party, type: string, title: string, date: string, unpaid = false): string => {
    const id = filingId.format(++filings);
    const waiverDate = waived.get(party.id);
    const due = waiverDate && waiverDate <= date ? 0 : scheduledFee(type, c.division, c.amount);
    let paid = due;
    feeCount += 1;
    if (unpaid || (waiverDate && waiverDate > date))
      paid = 0; // a waiver granted later does not cover it
    else if (due > 0 && feeCount % 7 === 3) {
      const fees = [
        ...new Set(FEES.filter(([t, d]) => d === c.division && t.includes(type)).map((f) => f[3])),
      ];
      paid = fees.length > 1 ? fees[(fees.indexOf(due) + 1) % fees.length]! : 0;
    } else if (due > 0 && feeCount % 11 === 5) paid = due * 2;
    const [plaintiff, defendant] = [c.plaintiff.name, c.defendant.name];
    const signer = party === c.plaintiff ? faker.person.fullName() : party.name;
    const receipt = `R${date.slice(2, 4)}-${String(++receipts * 7 + random.int(0, 6)).padStart(6, "0")}`;
    const text = renderFiling(random, type, {
      caseId: c.id,
      plaintiff,
      defendant,
      title,
      filed: date,
      signer,
      amountDemanded: type === "complaint" || type === "claim" ? c.amount : null,
      paid,
      receipt,
    });
    put(db, "filings", id, c.id, party.id, type, title, date, text);
    docket(c, date, type, party.id, id, `${title} filed by ${party.name}`);
    return id;
  };
  const lastCourtDay = addBusinessDays(today, -1, holidays);
  const serve = (
    c: Case,
    served: string,
    method: "personal" | "substituted",
    signed: boolean,
    { mailDelay = random.int(0, 1), late = false } = {},
  ): string => {
    const mailed = method === "substituted" ? addDays(served, mailDelay) : null;
    const stamped = late ? lastCourtDay : courtDay(addDays(mailed ?? served, random.int(3, 8)));
    const filed = stamped < today ? stamped : lastCourtDay; // a proof is on file before today
    const executed = addDays(mailed ?? served, random.int(1, 2)); // signed a day or two later, before filing
    proofs.push({
      caseId: c.id,
      plaintiff: c.plaintiff.name,
      defendant: c.defendant.name,
      served,
      method,
      mailed,
      executed,
      filed,
      server: faker.person.fullName(),
      signed,
    });
    docket(
      c,
      filed,
      "proof_of_service",
      c.plaintiff.id,
      null,
      `Proof of service of summons on ${c.defendant.name}`,
    );
    return responseDeadline(served, method, mailed, holidays);
  };
  const hearing = (c: Case, date: string, type: string, filing: string | null, set: string): void => {
    hearings.push([null, c.id, c.courtroom, date, "08:30", type, filing, date < today ? "held" : "set"]);
    docket(c, set, "hearing_set", null, filing, `${type.replace("_", " ")} hearing set for ${date}`);
    if (date < today)
      docket(c, date, "minute_order", null, null, `Minute order: ${type.replace("_", " ")} hearing held`);
  };

  const civilRooms = rooms.filter(([, division]) => division === "civil");
  let [civil, litigated] = [0, 0];
  for (let n = 1; n <= 36 * factors.rows; n += 1) {
    const division: Division = n % 10 === 3 || n % 10 === 7 || n % 10 === 0 ? "small_claims" : "civil";
    const story: Story | "small" = division === "civil" ? STORIES[civil++ % STORIES.length]! : "small";
    const round = Math.floor((civil - 1) / STORIES.length);
    const filedWindow: Record<Story | "small", [number, number]> = {
      litigated: (litigated + 1) % 3 === 0 ? [540, 330] : [540, 100],
      eligible: [200, 70],
      "pending-holiday": [60, 45],
      demurrer: [200, 100],
      reserved: [150, 120],
      "pending-extension": [70, 55],
      unserved: round % 2 === 0 ? [30, 5] : [300, 220],
      "default-entered": round % 2 === 0 ? [330, 270] : [260, 90], // even rounds: closed and long quiet
      "late-answer": [200, 100],
      small: n % 20 === 10 ? [500, 300] : [500, 10], // every other n = 10 (mod 20) small claim went quiet
    };
    const [from, to] = filedWindow[story];
    const filed = pick(addDays(today, -from), addDays(today, -to));
    const limit = division === "civil" ? 90000 : 12500;
    const amount =
      n % 6 === 1
        ? random.pick(
            BAND_LIMITS.filter((value) => value < limit && (division === "civil") === value >= 10000),
          )
        : randomAmount(random, division === "civil" ? 2500 : 250, limit);
    // Even rounds' demurrer cases sit in DEPT-2, whose Friday motion day can meet the July 4 holiday.
    const room =
      division === "small_claims"
        ? rooms[0]!
        : story === "demurrer" && round % 2 === 0
          ? civilRooms[0]!
          : random.pick(civilRooms);
    const prefix = division === "civil" ? "CV" : "SC";
    const id = `${prefix}-${filed.slice(0, 4)}-${String(n).padStart(5, "0")}`;
    const company = random.chance(0.4);
    const plaintiffName = company ? faker.company.name() : faker.person.fullName();
    const defendantName = faker.person.fullName();
    put(db, "cases", id, division, `${plaintiffName} v. ${defendantName}`, filed, amount, room[0], "open");
    const c: Case = {
      id,
      division,
      filed,
      amount,
      courtroom: room[0],
      weekday: room[3],
      plaintiff: newParty(id, "plaintiff", plaintiffName, division === "civil" && random.chance(0.8)),
      defendant: newParty(id, "defendant", defendantName, story === "litigated" || story === "demurrer"),
    };
    let status = "open";
    if (n % 8 === 2) waiver(c, c.plaintiff, filed);
    if (n % 8 === 5) {
      const granted = courtDay(addDays(filed, random.int(3, 9)));
      waiver(c, c.plaintiff, granted < today ? granted : lastCourtDay);
    }
    file(
      c,
      c.plaintiff,
      division === "civil" ? "complaint" : "claim",
      division === "civil" ? "Complaint" : "Plaintiff's Claim",
      filed,
    );
    docket(c, filed, "summons_issued", null, null, "Summons issued");
    const method = (): "personal" | "substituted" => (random.chance(0.6) ? "personal" : "substituted");
    const early = (): string => pick(addDays(filed, 3), addDays(filed, 20));
    if (story === "small") {
      if (filed > addDays(today, -25)) {
        openCases.push(c);
        continue;
      }
      const served = early();
      serve(c, served, "personal", true);
      const trial = courtDay(addDays(filed, random.int(45, 75)));
      hearing(c, trial, "trial", null, courtDay(addDays(served, 2)));
      if (trial < today && n % 20 !== 10 && random.chance(0.55)) {
        docket(c, trial, "judgment", null, null, "Judgment after trial");
        status = "judgment";
      }
    } else if (story === "pending-holiday") {
      const served = pick(addDays(today, -40), addDays(today, -20), (s) => {
        return responseDeadline(s, "personal", null, holidays) >= today && addBusinessDays(s, 20) < today;
      });
      serve(c, served, "personal", true);
    } else if (story === "pending-extension") {
      const served = pick(addDays(today, -45), addDays(today, -25), (s) => {
        const due = responseDeadline(s, "substituted", addDays(s, 2), holidays);
        const fromService = responseDeadline(s, "substituted", s, holidays);
        return due >= today && fromService !== due && responseDeadline(s, "personal", null, holidays) < today;
      });
      serve(c, served, "substituted", true, { mailDelay: 2 }); // mailed two days later: the 10 days run from the mailing
    } else if (story === "reserved") {
      // Odd rounds: the first service is signed too, its proof filed last; the later service still counts.
      serve(c, early(), method(), round % 2 === 1, { late: round % 2 === 1 });
      const again = pick(
        addDays(today, -26),
        addDays(today, -14),
        (s) => responseDeadline(s, "personal", null, holidays) >= today,
      );
      serve(c, again, "personal", true);
    } else if (story === "unserved") {
      if (round % 2 === 1) serve(c, early(), method(), false);
    } else {
      const due = serve(c, early(), method(), true);
      if (due >= today) throw new Error(`case ${id}: deadline ${due} not passed`);
      if (story === "default-entered") {
        docket(
          c,
          courtDay(addDays(due, random.int(3, 20))),
          "default_entered",
          c.defendant.id,
          null,
          "Default entered",
        );
        status = "default_entered";
      } else if (story === "demurrer") {
        file(c, c.defendant, "demurrer", "Demurrer to Complaint", pick(addDays(due, -15), due));
        // Even rounds: the motion day after the notice period is a holiday (July 4), so it is heard a week later.
        const weekLate = (day: string): boolean => {
          const skipped = addDays(motionHearingDate(day, c.weekday, holidays), -7);
          return holidays.has(skipped) && skipped > addBusinessDays(day, MOTION_NOTICE_COURT_DAYS, holidays);
        };
        const movedOn = pick(addDays(today, round % 2 === 0 ? -30 : -20), addDays(today, -2), (day) =>
          round % 2 === 0 ? weekLate(day) : true,
        );
        file(c, c.plaintiff, "motion", "Motion for Leave to Amend", movedOn);
      } else if (story === "late-answer") {
        // Both filed together and unpaid: two deficiencies in one case.
        const lateOn = pick(addDays(due, 2), addDays(due, 12));
        file(c, c.defendant, "answer", "Answer to Complaint", lateOn, true);
        const leave = file(c, c.defendant, "motion", "Motion for Leave to File Late Answer", lateOn, true);
        const heardOn = motionHearingDate(lateOn, c.weekday, holidays);
        hearing(c, heardOn, "motion", leave, courtDay(addDays(lateOn, 1)));
        file(
          c,
          c.plaintiff,
          "motion",
          "Motion to Strike Late Answer",
          pick(addDays(today, -20), addDays(today, -2)),
        );
      } else if (story === "litigated") {
        litigated += 1;
        if (litigated % 5 === 1) waiver(c, c.defendant, courtDay(addDays(due, -18)));
        const answered = pick(addDays(due, -12), due);
        file(c, c.defendant, "answer", "Answer to Complaint", answered);
        const stale = answered < addDays(today, -215) && litigated % 3 === 0;
        const recent =
          addDays(answered, 20) > addDays(today, -90) ? addDays(answered, 20) : addDays(today, -90);
        // Every other quiet case on the dismissal list went quiet 181 days ago, a day past the rule's 180.
        const last = !stale
          ? pick(recent, addDays(today, -4))
          : litigated % 4 === 3
            ? addDays(today, -STALE_DAYS - 1) // a court day: 2024-12-31
            : pick(addDays(answered, 45), addDays(today, -190));
        const cms = pick(addDays(answered, 5), addDays(answered, 30));
        if (cms < last)
          docket(c, cms, "case_management_statement", c.plaintiff.id, null, "Case management statement");
        const motionOn = pick(addDays(answered, 5), stale ? addDays(answered, 9) : last); // heard before `last`
        const mover = random.chance(0.5) ? c.plaintiff : c.defendant;
        const motion = file(c, mover, "motion", random.pick(MOTIONS), motionOn);
        const date = motionHearingDate(motionOn, c.weekday, holidays);
        hearing(c, date, "motion", motion, courtDay(addDays(motionOn, 1)));
        if (last > date) docket(c, last, "minute_order", null, null, "Minute order: status conference");
        if (stale && litigated % 2 === 0) {
          // A trial date set long ago (every other one for today) keeps a quiet case off the dismissal calendar.
          const trial = litigated % 4 === 2 ? today : pick(addDays(today, 20), addDays(today, 90));
          hearings.push([null, c.id, c.courtroom, trial, "08:30", "trial", null, "set"]);
          docket(c, last, "hearing_set", null, null, `trial hearing set for ${trial}`);
        }
        if (!stale && litigated % 4 === 1) {
          // A motion filed days before the case ended was never heard: it went off calendar.
          file(c, mover, "motion", random.pick(MOTIONS), pick(addDays(last, -12), addDays(last, -1)));
          const final = random.pick(["judgment", "dismissal"]);
          docket(c, last, final, null, null, "Final disposition");
          status = final === "judgment" ? "judgment" : "dismissed";
        } else if (!stale) {
          for (const mover of litigated % 2 === 0
            ? [c.plaintiff, c.defendant]
            : [random.pick([c.plaintiff, c.defendant])])
            file(c, mover, "motion", random.pick(MOTIONS), pick(addDays(today, -20), addDays(today, -2)));
        }
      }
    }
    if (status === "open") openCases.push(c);
    else cachedStatement(db, "UPDATE cases SET status = ? WHERE case_id = ?").run(status, id);
  }

  // Routine papers between a case's first and latest entries lengthen the docket without moving its dates.
  const span = new Map<string, [string, string]>();
  for (const [caseId, [date]] of entries) {
    const [first, last] = span.get(caseId) ?? [date, date];
    span.set(caseId, [first < date ? first : date, last > date ? last : date]);
  }
  const FILLERS = [
    "declaration",
    "notice_change_of_address",
    "substitution_of_attorney",
    "minute_order",
    "case_management_statement",
  ];
  for (const [caseId, [first, last]] of span)
    for (
      let k = random.int(first < addDays(last, -120) ? 6 : 2, first < addDays(last, -120) ? 10 : 4);
      k > 0;
      k -= 1
    ) {
      const type = random.pick(FILLERS);
      entries.push([caseId, [pick(first, last), type, null, null, type.replace(/_/g, " ")]]);
    }
  entries.sort((a, b) => a[1][0].localeCompare(b[1][0]));
  for (const [caseId, entry] of entries) put(db, "docket_entries", null, caseId, ...entry);
  for (const row of hearings) put(db, "hearings", ...row);

  // Proofs of service come back in scanned batches, in the order they were filed.
  proofs.sort((a, b) => a.filed.localeCompare(b.filed));
  const batches = 6 * factors.files;
  for (let k = 0; k < batches; k += 1) {
    const chunk = proofs.slice(
      Math.floor((k * proofs.length) / batches),
      Math.floor(((k + 1) * proofs.length) / batches),
    );
    const pages = chunk.flatMap((proof) => renderProof(random, proof));
    context.writeFile(
      `${PATHS.service}/returns-${String(k + 1).padStart(2, "0")}.txt`,
      `${pages.join("\n\f\n")}\n`,
    );
  }

  // Papers received by mail, not yet on the docket.
  const seen = new Set<string>();
  for (let k = 1; k <= 3 * factors.files; k += 1) {
    const pages: string[] = [];
    for (let d = random.int(3, 5); d > 0; d -= 1) {
      const c = random.pick(openCases);
      // The first paper is a substitution of attorney, which the records server turns away once.
      const [title, type] = k === 1 && pages.length === 0 ? INTAKE_TITLES[1]! : random.pick(INTAKE_TITLES);
      const filed = pick(addDays(today, -8), addDays(today, -1));
      if (seen.has(`${c.id}|${type}|${filed}`)) continue;
      seen.add(`${c.id}|${type}|${filed}`);
      const signer = random.chance(0.5) ? c.plaintiff.name : c.defendant.name;
      pages.push(
        ...renderIntake(random, {
          caseId: c.id,
          plaintiff: c.plaintiff.name,
          defendant: c.defendant.name,
          title: type === "declaration" ? `${title} OF ${signer.toUpperCase()}` : title,
          signed: addDays(filed, -random.int(1, 9)),
          filed,
          signer,
        }),
      );
    }
    context.writeFile(`${PATHS.intake}/tray-${String(k).padStart(2, "0")}.txt`, `${pages.join("\n\f\n")}\n`);
  }
}
