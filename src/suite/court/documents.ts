import { formatUsd as money, renderMarkdown, weekdayName, type GenerateContext } from "../../envs/index.js";
import {
  COUNTY,
  FEES,
  HEARING_TIME,
  HOLIDAYS,
  INTAKE_TITLES,
  MOTION_NOTICE_COURT_DAYS,
  PATHS,
  RESPONSE_COURT_DAYS,
  STALE_DAYS,
  SUBSTITUTED_EXTRA_DAYS,
} from "./rules.js";

const localRules = (): string =>
  renderMarkdown(`${COUNTY} County Superior Court: local rules (civil and small claims)`, [
    "Adopted by the presiding judge; the clerk's office applies them as written.",
    { heading: "Court days" },
    "A court day is a weekday (Monday to Friday) that is not a court holiday. Court holidays and closures:",
    { heading: "Court holidays", level: 3 },
    { table: { headers: ["date", "holiday"], rows: HOLIDAYS } },
    { heading: "Time to respond to a complaint" },
    {
      bullets: [
        `A defendant in a civil case must file a response (an answer or a demurrer) within ${RESPONSE_COURT_DAYS} court days after service of the summons and complaint is complete. The day service is complete is not counted; the last day is counted.`,
        "Personal service is complete on the date the papers were handed to the defendant.",
        `Substituted service (papers left with another adult, then a copy mailed) is complete on the ${SUBSTITUTED_EXTRA_DAYS}th calendar day after the copy was mailed.`,
        "The date of service is the date stated by the process server on the proof of service, not the date the proof was filed or signed.",
        "Only a proof of service signed by the person who served counts; an unsigned proof is defective and treated as if it had not been filed. When a defendant was served more than once, the time runs from the latest service shown on a signed proof.",
        "Small claims defendants do not file a written response; they appear at the trial.",
      ],
    },
    { heading: "Dismissal review" },
    `An open civil case whose most recent docket entry is dated more than ${STALE_DAYS} days before today is set for an order to show cause re dismissal, unless a hearing is set in the case for today or a later date. Small claims cases are reviewed by their own calendar and are not set.`,
    { heading: "Intake docket codes" },
    "Papers received by mail are scanned into the intake trays and entered on the case's docket under the code for their title, dated with the clerk's FILED stamp (not the date the party signed).",
    { table: { headers: ["title", "docket entry type"], rows: INTAKE_TITLES } },
  ]);

function band(upTo: number | null, previous: number | null): string {
  if (upTo === null) return previous === null ? "any" : `over ${money(previous)}`;
  return previous === null ? `up to ${money(upTo)}` : `${money(previous + 0.01)} to ${money(upTo)}`;
}

const feeSchedule = (): string => {
  let last = "";
  let previous: number | null = null;
  const rows = FEES.map(([type, division, upTo, fee]) => {
    if (`${type}|${division}` !== last) previous = null;
    last = `${type}|${division}`;
    const row = [type, division, band(upTo, previous), fee.toFixed(2)];
    previous = upTo;
    return row;
  });
  return renderMarkdown("Filing fee schedule", [
    "Fees are due when a paper is filed. The amount in controversy is the amount demanded in the complaint or claim; band limits are inclusive.",
    { heading: "Filing fees" },
    { table: { headers: ["filing type", "division", "amount in controversy", "fee (USD)"], rows } },
    { heading: "Fee waivers" },
    "A party whose fee waiver was granted (docket entry fee_waiver_granted for that party) on or before the date of a filing owes no fee for it. A waiver does not reach back to papers filed before it was granted.",
    { heading: "Deficiencies" },
    "A filing paid less than the schedule's fee is deficient: the clerk dockets a fee_deficiency_notice on the case the day the deficiency is found, referencing the filing, with the amount owed in the description. Overpayments are refunded by the finance office and are not noticed.",
  ]);
};

const defaultJudgment = (): string =>
  renderMarkdown("Entry of default (civil)", [
    "The clerk enters the default of a defendant in a civil case when every condition below holds on the day of entry:",
    {
      numbered: [
        "The case is open (no default already entered, no judgment, not dismissed).",
        "A proof of service of the summons on the defendant is on file and signed by the person who served. An unsigned proof of service is defective and is treated as if it had not been filed; when there are several signed proofs, the latest service counts.",
        "The time to respond (local rules: court days, holidays, substituted service) has run out: the last day to respond is before today.",
        "No response by the defendant (answer or demurrer) appears on the docket, whenever it was filed.",
      ],
    },
    "Small claims cases are never defaulted by the clerk.",
  ]);

const hearingCalendar = (courtrooms: Array<[string, string, string, number]>): string =>
  renderMarkdown("Law and motion calendar", [
    `Motions are heard in the case's assigned courtroom on that courtroom's law-and-motion day at ${HEARING_TIME}. The hearing is set on the first law-and-motion day that is at least ${MOTION_NOTICE_COURT_DAYS} court days after the motion was filed (count court days as the local rules define them); when that day is a court holiday, the next law-and-motion day is used.`,
    { heading: "Courtrooms" },
    {
      table: {
        headers: ["courtroom", "division", "judge", "law-and-motion day"],
        rows: courtrooms.map(([id, division, judge, weekday]) => [
          id,
          division,
          judge,
          division === "civil" ? weekdayName(`2025-06-${String(2 + weekday).padStart(2, "0")}`) : "none",
        ]),
      },
    },
  ]);

export function writeDocuments(
  context: GenerateContext,
  courtrooms: Array<[string, string, string, number]>,
): void {
  context.writeFile(PATHS.localRules, localRules());
  context.writeFile(PATHS.fees, feeSchedule());
  context.writeFile(PATHS.defaults, defaultJudgment());
  context.writeFile(PATHS.calendar, hearingCalendar(courtrooms));
}
