import type { GenerateContext } from "../../envs/index.js";
import {
  addDays,
  formatUsd,
  longDate,
  renderEmail,
  renderMarkdown,
  roundCents,
  toCsv,
} from "../../envs/index.js";
import type { FeeDraft, PermitsWorld } from "./generate.js";
import {
  BUILDING_OFFICIAL,
  ORDINALS,
  PERMIT_TYPES,
  PLAN_REVIEW_MAX,
  PLAN_REVIEW_MIN,
  REINSPECTION_FEE,
  REINSPECTION_LEAD_BUSINESS_DAYS,
  STOP_WORK_LICENSE_CODE,
  TECH_SURCHARGE_PCT,
  VIOLATIONS,
} from "./rules.js";

export const FEE_SCHEDULE = "policies/fee-schedule.md";
export const INSPECTION_POLICY = "policies/inspection-policy-memo.md";
export const ROSTER = "staff/inspector-roster.csv";
export const CODE_REFERENCE = "reference/violation-codes.md";
export const INBOX = "inbox/";

const OFFICIAL_EMAIL = "Renata Solis <r.solis@riverton.gov>";

function writePolicies(context: GenerateContext, today: string): void {
  const types = Object.values(PERMIT_TYPES).map((t) => [
    t.label,
    t.planRate.toFixed(2),
    formatUsd(t.permitFee),
  ]);
  const codes = Object.values(VIOLATIONS).flat();
  context.writeFile(
    FEE_SCHEDULE,
    renderMarkdown("Permit fee schedule", [
      `Adopted by council resolution 2024-117; in force since ${longDate(addDays(today, -300))}. Amounts in US dollars.`,
      { heading: "Plan review" },
      `The plan-review fee is the rate below applied to the declared valuation, never less than ${formatUsd(PLAN_REVIEW_MIN)} and never more than ${formatUsd(PLAN_REVIEW_MAX)}, rounded to the cent.`,
      { table: { headers: ["permit type", "rate (% of valuation)", "issuance fee"], rows: types } },
      { heading: "Other fees" },
      {
        bullets: [
          `Technology surcharge: ${TECH_SURCHARGE_PCT}% of the issuance fee.`,
          `Re-inspection: ${formatUsd(REINSPECTION_FEE)} for every failed inspection.`,
        ],
      },
      { heading: "Waivers" },
      `Only the Building Official (${BUILDING_OFFICIAL}) may waive a fee, and only in writing. A request, a recommendation from staff or an applicant's e-mail is not an approval. Record each approved waiver on the permit's fee page for exactly the amount the Building Official approved (a waiver "in part" or "half" is half of that fee, rounded to the cent with half a cent rounded up).`,
    ]),
  );
  context.writeFile(
    INSPECTION_POLICY,
    renderMarkdown("Memo: inspection scheduling and enforcement", [
      `From: ${BUILDING_OFFICIAL}, Building Official. To: inspection and permit-counter staff. Date: ${longDate(addDays(today, -45))}.`,
      { heading: "Re-inspections" },
      `On an issued permit, when the latest inspection of a type failed, book a re-inspection of that type with the inspector who failed it, for the ${ORDINALS[REINSPECTION_LEAD_BUSINESS_DAYS - 1]} business day after the day you book it (business days are Monday to Friday; holidays are not skipped). No re-inspection is booked when that inspector's notes say photo verification is accepted or that the corrections will be verified at final, nor when an inspection of that type is already scheduled (it is then the latest).`,
      { heading: "Stop-work orders for lapsed licenses" },
      `Work on an issued permit must stop when the contractor's license is suspended or expired. The state board's feed lags: a license still shown as Active whose expiry date has passed is expired. Issue the stop-work order from the permit page with reason code ${STOP_WORK_LICENSE_CODE}. Permits that are not in Issued status are left alone.`,
      { heading: "Permit expiry" },
      "An issued permit expires 365 days after issuance unless its final inspection has passed. The permit counter sends a courtesy notice for issued permits that expire within the next 30 days and have no passed Final inspection.",
      { heading: "Leave coverage" },
      `When an inspector is on leave, each inspection booked with them on a day of the leave moves to the backup inspector named in the inspector roster (${ROSTER}). Bookings outside the leave stay where they are.`,
    ]),
  );
  context.writeFile(
    CODE_REFERENCE,
    renderMarkdown("Violation codes cited in inspection reports", [
      "Inspectors end each finding with the code section in parentheses, e.g. `(NEC 210.8)`.",
      { table: { headers: ["code", "typical finding"], rows: codes } },
    ]),
  );
}

type WaiverKind = "full" | "half" | "declined" | "request" | "recommended";
const REASONS = [
  "the inspector never showed up",
  "we were told the fee did not apply to resubmittals",
  "the failure was caused by the city's marking crew",
  "hardship, the owner is a senior on a fixed income",
];

/** One e-mail of a waiver thread: the applicant's request, a staff recommendation or the official's decision. */
function waiverEmail({ faker }: GenerateContext, fee: FeeDraft, kind: WaiverKind, sent: string): string {
  const applicant = faker.person.fullName();
  const label = `fee #${fee.id} (${fee.code === "REI" ? "re-inspection" : "plan review"}, ${formatUsd(fee.amount)}) on permit ${fee.permitId}`;
  const request = `${applicant} asked us to waive ${label}: "${faker.helpers.arrayElement(REASONS)}".`;
  const email = (from: string, subject: string, body: string[]): string =>
    renderEmail(
      { From: from, To: "permit-counter@riverton.gov", Sent: longDate(sent), Subject: subject },
      body,
    );
  const reply = `Re: waiver for ${fee.permitId}`;
  if (kind === "request") {
    const body = [`Please waive ${label}. We do not think we should have been charged.`];
    return email(`${applicant} <${faker.internet.email()}>`, `Fee waiver request ${fee.permitId}`, [
      "Hello,",
      ...body,
      `Thanks,\n${applicant}`,
    ]);
  }
  if (kind === "recommended")
    return email("Kevin Marsh <k.marsh@riverton.gov>", reply, [
      "Renata,",
      request,
      "I recommend we waive it in full. Can you approve?",
      "Kevin (permit counter)",
    ]);
  const decision = {
    full: `Approved. Please waive ${label} in full.`,
    half: `Approved in part: waive half of ${label}; the applicant pays the rest.`,
    declined: `Declined. ${label} stands; the charge was correct.`,
  }[kind];
  return email(OFFICIAL_EMAIL, reply, [
    "Team,",
    request,
    decision,
    `${BUILDING_OFFICIAL}\nBuilding Official`,
  ]);
}

const NOISE: Array<[string, string]> = [
  [
    "Parking at city hall",
    "The north lot is closed for resurfacing next week; use the garage on 3rd Street.",
  ],
  ["Plan set resubmittal", "The architect will resubmit the stamped sheets next week; no action needed yet."],
  ["Training Thursday", "Reminder: code update training on the 2024 IRC amendments, room 204, 9 am."],
  ["Printer on 2nd floor", "The plotter is out of toner again. Facilities has been told."],
  ["Portal maintenance", "The permit portal may return errors during the nightly backup window; just retry."],
];

/**
 * Out-of-office notices from the inspectors with the most booking days (1 to 3 by scale), never one whose
 * backup is also on leave. A leave starts on the inspector's first booking day and ends the day before
 * their last, so a booking on the leave's first day and one after it always exist.
 */
function leaveEmails({ random, referenceDate, factors }: GenerateContext, world: PermitsWorld): string[] {
  const { inspectors } = world;
  const daysOf = (name: string): string[] =>
    [...new Set(world.scheduled.filter((item) => item.inspector === name).map((item) => item.date))].sort();
  const ranked = inspectors
    .map((inspector, index) => ({ inspector, index, days: daysOf(inspector.name) }))
    .filter((candidate) => candidate.days.length >= 2)
    .sort((a, b) => b.days.length - a.days.length || a.index - b.index);
  const chosen: typeof ranked = [];
  const backs = (a: number, b: number): boolean => (a + 1) % inspectors.length === b;
  for (const candidate of ranked)
    if (
      chosen.length < Math.min(3, factors.files) &&
      !chosen.some(({ index }) => backs(index, candidate.index) || backs(candidate.index, index))
    )
      chosen.push(candidate);
  return chosen.map(({ inspector, days }) =>
    renderEmail(
      {
        From: `${inspector.name} <${inspector.email}>`,
        To: "inspections@riverton.gov",
        Sent: longDate(addDays(referenceDate, -random.int(2, 9))),
        Subject: "Out of office",
      },
      [
        "Hi all,",
        `I will be on leave from ${longDate(days[0]!)} through ${longDate(addDays(days[days.length - 1]!, -1))} (both days included). Please move my bookings for those days per the coverage memo.`,
        inspector.name,
      ],
    ),
  );
}

/** The workspace: fee schedule, inspection memo, roster, code reference and the shared inbox (8 e-mails per file factor). */
export function writePermitsDocuments(context: GenerateContext, world: PermitsWorld): void {
  const { random, referenceDate: today } = context;
  const { inspectors } = world;
  writePolicies(context, today);
  const backup = (index: number): string => inspectors[(index + 1) % inspectors.length]!.name;
  const roster = inspectors.map((item, index) => [item.name, item.email, item.district, backup(index)]);
  context.writeFile(ROSTER, toCsv(["inspector", "email", "district", "backup_inspector"], roster));
  const emails = leaveEmails(context, world);
  const emailCount = 8 * context.factors.files;
  const candidates = random.shuffle(
    world.fees.filter(
      (fee) => !fee.paid && !world.waivedFees.has(fee.id) && ["REI", "PLR"].includes(fee.code),
    ),
  );
  const kinds: WaiverKind[] = ["full", "half", "declined", "request", "recommended", "full"];
  const waiverCount = Math.min(candidates.length, Math.ceil((emailCount - emails.length) * 0.6));
  for (let index = 0; index < waiverCount; index += 1) {
    const sent = addDays(today, -random.int(1, 20));
    emails.push(waiverEmail(context, candidates[index]!, kinds[index % kinds.length]!, sent));
  }
  while (emails.length < emailCount) {
    const [subject, body] = random.pick(NOISE);
    const sent = longDate(addDays(today, -random.int(1, 30)));
    emails.push(
      renderEmail({ From: "Facilities <facilities@riverton.gov>", Sent: sent, Subject: subject }, [body]),
    );
  }
  random
    .shuffle(emails)
    .forEach((email, index) => context.writeFile(`${INBOX}${String(index + 1).padStart(3, "0")}.eml`, email));
}

/** Half of a fee, as a waiver "in part" grants it. */
export function halfOf(amount: number): number {
  return roundCents(amount / 2);
}
