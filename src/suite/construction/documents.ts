import { formatUsd, renderMarkdown, type GenerateContext } from "../../envs/index.js";
import { AUTHORITY, COVERAGES, HOLIDAYS, PATHS, RETAINAGE, RFI_DAYS, SUBMITTAL_DAYS } from "./rules.js";

const limit = (value: number | null): string => (value === null ? "no limit" : formatUsd(value));

const conditions = (): string =>
  renderMarkdown("General conditions: supplementary provisions (all subcontracts)", [
    "These provisions apply to every subcontract the company administers, on every project.",
    { heading: "Retainage" },
    `Retainage held on a pay application is a percentage of the work completed to date (the whole of it, not only this period's work). The rate is ${RETAINAGE.before}% while the work completed to date is less than ${RETAINAGE.thresholdPct}% of the adjusted contract sum, and ${RETAINAGE.after}% once the work completed to date is ${RETAINAGE.thresholdPct}% of the adjusted contract sum or more. The adjusted contract sum is the original contract sum plus the change orders recorded as approved (at their approved amounts) in the change-order log. Retainage is rounded to the cent.`,
    { heading: "Change-order approval authority" },
    "A change order is approved or rejected by a written decision in its e-mail thread: a line that begins with Approved, Rejected or Revised approval. Approved as submitted (or a plain Approved) means the total of the latest change-order request attached to the thread; an amount stated in the decision overrides it. A later decision replaces an earlier one. A decision counts only when its author holds one of the roles below (see the project directory) and, for an approval, the approved amount is within the role's limit; recommendations by the architect or anyone else are not decisions.",
    {
      table: {
        headers: ["role", "may approve change orders up to"],
        rows: AUTHORITY.map(([role, value]) => [role, limit(value)]),
      },
    },
    { heading: "RFI response times" },
    "The architect answers a request for information within the working days below, counted from the day after it was sent. An RFI is overdue when it is still open and today is later than its due date.",
    { table: { headers: ["priority", "working days"], rows: Object.entries(RFI_DAYS) } },
    { heading: "Submittal review periods" },
    "The architect returns a submittal within the working days below, counted from the day after the latest revision was submitted (a resubmittal starts a new review period). A submittal is overdue when it is under review and today is later than its due date.",
    { table: { headers: ["type", "working days"], rows: Object.entries(SUBMITTAL_DAYS) } },
    { heading: "Working days and holidays" },
    "Working days are Monday to Friday, except these holidays:",
    { table: { headers: ["date", "holiday"], rows: HOLIDAYS.map((day, k) => [day, HOLIDAY_NAMES[k]!]) } },
    { heading: "Weather days" },
    "A weather day is a working day on which the superintendent's daily log records that work was stopped because of weather (work stopped or suspended, crews sent home, the site shut down). Days when crews worked through bad weather, weekend days and holidays are not weather days.",
  ]);

const HOLIDAY_NAMES = [
  "New Year's Day",
  "Martin Luther King Jr. Day",
  "Presidents' Day",
  "Memorial Day",
  "Juneteenth",
  "Independence Day",
];

const coi = (): string =>
  renderMarkdown("Certificates of insurance: requirements for subcontractors", [
    "No payment is released to a subcontractor that is not insured as required below. The project office holds every unpaid pay application (submitted or approved, not yet paid) of a subcontractor that fails any requirement.",
    { heading: "Required coverage" },
    {
      table: {
        headers: ["coverage", "description", "minimum each occurrence"],
        rows: COVERAGES.map(([code, text, minimum]) => [code, text, formatUsd(minimum)]),
      },
    },
    { heading: "Which certificate counts" },
    {
      bullets: [
        "For each coverage, the certificate that counts is the one with the latest expiry date; older certificates replaced by a renewal do not matter.",
        "A certificate is current through its expiry date: it lapses the day after the expiry date.",
        "A coverage fails when it has no certificate, its latest certificate has lapsed, or that certificate's each-occurrence limit is below the minimum.",
      ],
    },
  ]);

export interface DirectoryEntry {
  name: string;
  email: string;
  role: string;
  project: string;
}

const directory = (entries: DirectoryEntry[]): string =>
  renderMarkdown("Project directory", [
    "Who is who on our projects. Approval authority per role is set in the general conditions.",
    {
      table: {
        headers: ["name", "e-mail", "role", "project"],
        rows: entries.map((e) => [e.name, e.email, e.role, e.project]),
      },
    },
  ]);

export function writeDocuments(context: GenerateContext, entries: DirectoryEntry[]): void {
  context.writeFile(PATHS.conditions, conditions());
  context.writeFile(PATHS.coi, coi());
  context.writeFile(PATHS.directory, directory(entries));
}
