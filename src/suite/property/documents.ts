import type { GenerateContext } from "../../envs/index.js";
import { addDays, formatUsd, longDate, renderMarkdown, toCsv } from "../../envs/index.js";
import type { PropertyWorld } from "./generate.js";
import {
  LATE_FEE_MAX,
  LATE_FEE_MIN,
  LATE_FEE_PCT,
  LATE_FEE_THRESHOLD,
  PRIORITIES,
  SLA_DAYS,
} from "./rules.js";

export const LATE_FEE_POLICY = "policies/late-fees.md";
export const SLA_POLICY = "policies/maintenance-sla.md";
export const DEPOSIT_POLICY = "policies/security-deposits.md";
export const REPORTING_POLICY = "policies/reporting-definitions.md";
export const RENEWAL_MEMO = "memos/2025-renewal-caps.md";
export const RATE_CARD = "vendors/rate-card.csv";
export const ADDENDA_FOLDER = "leases/addenda/";
export const CORRESPONDENCE_FOLDER = "correspondence/";

export function bankExportPath(referenceDate: string): string {
  return `bank/operating-account-${referenceDate.slice(0, 4)}-ytd.csv`;
}

const NOISE_NOTES: Array<(name: string, unit: string) => [string, string]> = [
  (name, unit) => [
    "Parking permit request",
    `Hi, this is ${name} in unit ${unit}. Could I get a second parking permit for my partner's car? Thanks.`,
  ],
  (name, unit) => [
    "Noise complaint",
    `${name} (unit ${unit}) reports loud music from the unit above after 11 pm on weekends. Left a courtesy note.`,
  ],
  (name, unit) => [
    "Thank you for the quick repair",
    `Just wanted to say thanks, the plumber came the same day and the sink in unit ${unit} works great. - ${name}`,
  ],
  (name, unit) => [
    "Package room access",
    `${name} from unit ${unit} asks whether the package room code changed. Sent the new code by text.`,
  ],
  (name, unit) => [
    "Question about renters insurance",
    `${name} (unit ${unit}) asked whether renters insurance is required. Pointed to section 14 of the lease.`,
  ],
];

/** Writes the workspace: policies, the renewal memo, the vendor rate card, the bank export, addenda and mail. */
export function writePropertyDocuments(context: GenerateContext, world: PropertyWorld): void {
  const { referenceDate: today, random } = context;
  const { graceDays } = world;
  const effective = longDate(addDays(today, -170));
  context.writeFile(
    LATE_FEE_POLICY,
    renderMarkdown("Rent collection and late-fee policy", [
      `Effective ${effective}. Applies to every residential lease the company manages.`,
      { heading: "Due date" },
      "Rent is due on the 1st day of each month. A lease addendum may set a different due day for that lease; the addendum's due day then replaces the 1st for every month.",
      { heading: "Grace period" },
      `Tenants have a grace period of ${graceDays} calendar days after the due date. Rent paid in full on or before the last day of the grace period is on time; a month whose rent was not paid in full by the end of the grace period is a late month.`,
      { heading: "Late fee" },
      {
        bullets: [
          `The late fee is ${LATE_FEE_PCT}% of the monthly rent, but never less than ${formatUsd(LATE_FEE_MIN)} and never more than ${formatUsd(LATE_FEE_MAX)}.`,
          `No late fee is charged when the rent still unpaid at the end of the grace period is less than ${formatUsd(LATE_FEE_THRESHOLD)}.`,
          "At most one late fee per lease per month. Late fees are charged on current (active) leases only.",
          "A hardship waiver approved in writing by the property manager cancels the late fee for the month it names. A request that was not approved changes nothing.",
        ],
      },
    ]),
  );
  context.writeFile(
    SLA_POLICY,
    renderMarkdown("Maintenance service levels", [
      `Effective ${effective}.`,
      { heading: "Resolution targets" },
      {
        table: {
          headers: ["priority", "resolve within (calendar days)"],
          rows: PRIORITIES.map((priority) => [priority, SLA_DAYS[priority]]),
        },
      },
      "The clock starts on the day the work order is opened. A work order that is not completed or cancelled is overdue once more than its target number of days has passed since it was opened (a routine order opened on the 1st with a 14-day target is still on time on the 15th and overdue on the 16th).",
      "Work orders on hold (status `on_hold`, waiting for parts or tenant access) are paused and are never reported as overdue.",
    ]),
  );
  context.writeFile(
    DEPOSIT_POLICY,
    renderMarkdown("Security deposit refunds", [
      "The refund is due for every lease whose tenant moved out since the 1st of the current month and that has no deposit refund recorded yet.",
      { heading: "Deductions" },
      {
        bullets: [
          "Items of the move-out inspection with condition `damage` or `cleaning` are deducted at the cost the inspector recorded.",
          "Normal wear and tear (condition `normal_wear`) is never deducted, whatever cost the inspector noted.",
          "Any unpaid balance on the lease ledger (rent and late fees charged minus payments received) is deducted.",
        ],
      },
      "The refund is the security deposit minus the deductions, and never less than zero. Record it on the lease with the refund tool.",
    ]),
  );
  context.writeFile(
    REPORTING_POLICY,
    renderMarkdown("Portfolio reporting definitions", [
      { heading: "Occupancy" },
      {
        bullets: [
          "Rentable units: all units of a building except those marked offline (renovation, remediation).",
          "Occupied units: rentable units with a lease in status `active`.",
          "Leases in status `signed` start in the future: the unit is pre-leased but still vacant today.",
          "Vacant units: rentable units minus occupied units.",
          "Occupancy rate: occupied units divided by rentable units, in percent, rounded to one decimal.",
        ],
      },
    ]),
  );
  context.writeFile(
    RENEWAL_MEMO,
    renderMarkdown("2025 renewal increases", [
      `From: Asset management. Date: ${longDate(addDays(today, -45))}.`,
      "Renewal offers follow each lease's escalation clause (`escalation_pct` on the lease), but this year no renewal may raise the rent by more than the building's cap below. Where a lease addendum limits the renewal increase further, the addendum's limit applies. Renewal rent is the current monthly rent raised by the resulting percentage, rounded to cents.",
      { heading: "Caps by building" },
      {
        table: {
          headers: ["building_id", "building", "max increase %"],
          rows: world.buildings.map((building) => [
            building.id,
            building.name,
            building.renewalCap.toFixed(1),
          ]),
        },
      },
    ]),
  );
  context.writeFile(
    RATE_CARD,
    toCsv(
      ["vendor_id", "vendor_name", "trade", "hourly_rate", "callout_fee"],
      world.vendors.map((vendor) => [
        vendor.id,
        vendor.name,
        vendor.trade,
        vendor.hourlyRate.toFixed(2),
        vendor.calloutFee.toFixed(2),
      ]),
    ),
  );
  context.writeFile(
    bankExportPath(today),
    toCsv(
      ["bank_txn_id", "posted_date", "amount", "description"],
      world.bank.map((line) => [line.id, line.date, line.amount.toFixed(2), line.description]),
    ),
  );
  for (const { lease, kind } of world.addenda) {
    const head = `Addendum to lease ${lease.id} between the company and ${lease.tenantName}, unit ${lease.unitId}, signed ${longDate(lease.start)}.`;
    const body =
      kind === "due_day"
        ? `Because the tenant is paid on a monthly payroll cycle, rent under this lease is due on day ${lease.dueDay} of each month instead of the 1st. All other terms stay unchanged.`
        : kind === "renewal_limit"
          ? `In return for a second-year commitment, the landlord agrees that any renewal increase for this lease is limited to ${lease.renewalLimit!.toFixed(1)}% over the current rent.`
          : kind === "pets"
            ? "The tenant may keep one cat. A pet deposit is not charged; the tenant is responsible for any damage the pet causes."
            : `The tenant rents parking space P-${10 + (Number(lease.id.slice(2)) % 80)} with the unit at no extra charge.`;
    context.writeFile(
      `${ADDENDA_FOLDER}${lease.id}.md`,
      renderMarkdown(`Lease addendum - ${lease.id}`, [head, body]),
    );
  }
  const period = longDate(`${today.slice(0, 7)}-01`).replace(/ \d+,/, "");
  let noteNumber = 0;
  const writeNote = (subject: string, text: string): void => {
    noteNumber += 1;
    context.writeFile(
      `${CORRESPONDENCE_FOLDER}${String(noteNumber).padStart(3, "0")}-${subject
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/-+$/, "")}.md`,
      text,
    );
  };
  world.hardship.forEach(({ lease, approved }) => {
    const subject = approved ? "Hardship waiver approved" : "Hardship request";
    writeNote(
      subject,
      renderMarkdown(subject, [
        `From: ${lease.tenantEmail}`,
        `Hello, I lost hours at work this month and could not pay the ${period} rent for lease ${lease.id} on time. Could the late fee be waived this once?`,
        approved
          ? `Reply from the property manager: Approved. The ${period} late fee on lease ${lease.id} is waived as a hardship exception; please do not charge it.`
          : `Reply from the property manager: I'm sorry, we already granted a waiver on this account last year, so I can't approve this one. The ${period} late fee stands.`,
      ]),
    );
  });
  const residents = world.leases.filter((lease) => lease.status === "active");
  for (let index = 0; index < world.noiseNotes; index += 1) {
    const lease = random.pick(residents);
    const [subject, text] = NOISE_NOTES[index % NOISE_NOTES.length]!(lease.tenantName, lease.unitId);
    writeNote(subject, renderMarkdown(subject, [`From: ${lease.tenantEmail}`, text]));
  }
}
