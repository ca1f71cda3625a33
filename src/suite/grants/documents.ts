import type { GenerateContext } from "../../envs/index.js";
import { formatUsd, renderMarkdown, toCsv } from "../../envs/index.js";
import type { GrantsWorld, Sponsor } from "./generate.js";
import { EFFORT_CAPS, EQUIPMENT_THRESHOLD, NON_CAPITAL_CODE, OBJECT_CODES, PATHS } from "./rules.js";
import { SUBAWARD_MTDC_CAP, UNIVERSITY } from "./rules.js";

const TYPES = {
  federal: "federal agency",
  foundation: "private foundation",
  industry: "company",
  state: "state agency",
};

function termsDocument({ id, name, terms }: Sponsor): string {
  const { idc, extension, equipmentThreshold: equipment, rebudgetPct: rebudget, effortPct: effort } = terms;
  const base = idc?.base === "TDC" ? "total direct costs (TDC)" : "modified total direct costs (MTDC)";
  return renderMarkdown(`Terms and conditions: ${name}`, [
    `Sponsor ${id} (${TYPES[terms.type]}). These terms apply to every award the university accepts from this sponsor; where they are silent, the university's own policies apply.`,
    { heading: "Indirect costs" },
    !idc
      ? "This sponsor does not pay indirect costs. No facilities and administrative (F&A) costs may be charged to its awards."
      : idc.rate === "negotiated"
        ? "Facilities and administrative (F&A) costs are reimbursed at the university's federally negotiated rate for organized research, applied to modified total direct costs (MTDC) as the rate agreement defines them."
        : `Indirect costs are paid at ${idc.rate}% of ${base}${idc.base === "MTDC" ? ", as the university's rate agreement defines them" : ""}.`,
    { heading: "Unallowable costs" },
    "The following may not be charged to awards from this sponsor:",
    { bullets: terms.unallowable.map((code) => `${OBJECT_CODES[code]!.name} (object code ${code})`) },
    { heading: "Equipment" },
    equipment === null
      ? "Equipment is defined by the university's capitalization policy."
      : `For awards from this sponsor, equipment is an article costing ${formatUsd(equipment)} or more per unit; this replaces the university's threshold.`,
    { heading: "Rebudgeting" },
    rebudget === null
      ? "Funds may be moved among budget categories without the sponsor's approval."
      : `The sponsor's prior written approval is required when an award's overspending, as the university's procedures define it, exceeds ${rebudget}% of its approved direct-cost budget for the budget period.`,
    { heading: "Effort" },
    effort === null
      ? "The sponsor does not require approval for changes in the effort of project personnel."
      : `A reduction of ${effort}% or more in the effort of the PI or other key personnel, measured against the effort committed, requires the sponsor's prior approval.`,
    { heading: "No-cost extensions" },
    extension === null
      ? "Any change to the period of performance requires a written amendment from the sponsor; the university may not extend awards on its own."
      : `The university may approve one no-cost extension of up to ${extension.months} months beyond the current end date, provided the PI's request reaches the Office of Sponsored Programs at least ${extension.noticeDays} days before the award ends and the award has not been extended before. Any other extension must be referred to the sponsor.`,
    { heading: "Reports" },
    "Progress reports are due 60 days after each budget period, final reports 120 days after the award ends. Publications acknowledge the sponsor's support.",
  ]);
}

const RATES = [
  ["Instruction", "48%", "MTDC", "on campus"],
  ["Other sponsored activities", "34%", "MTDC", "on campus"],
  ["All programs", "26%", "MTDC", "off campus"],
];

const SUBAWARD_INVOICE_RULES = [
  "its invoice number has not been paid on that subaward before;",
  "the period it bills ends on or before the subaward's end date;",
  "the payments already made on the subaward plus this invoice's current-period total do not exceed the subaward's obligated amount (use our payment records, not the subrecipient's cumulative column);",
  "the subrecipient's certification is signed.",
];

/** The sponsors' terms, the F&A rate agreement, the office's procedures and the chart of accounts. */
export function writeGrantsDocuments(context: GenerateContext, world: GrantsWorld): void {
  for (const sponsor of world.sponsors) context.writeFile(sponsor.path, termsDocument(sponsor));
  const chart = Object.entries(OBJECT_CODES).map(([code, item]) => [code, item.name, item.category]);
  context.writeFile(PATHS.chart, toCsv(["object_code", "name", "budget_category"], chart));
  const cap = formatUsd(SUBAWARD_MTDC_CAP);
  const research = ["Organized research", `${world.negotiatedRate}%`, "MTDC", "on campus"];
  context.writeFile(
    PATHS.rateAgreement,
    renderMarkdown("Facilities and administrative cost rate agreement", [
      `${UNIVERSITY}. Negotiated with the Department of Health and Human Services, Cost Allocation Services; effective July 1, 2023 through June 30, 2027.`,
      { heading: "Rates" },
      { table: { headers: ["activity", "rate", "base", "location"], rows: [research, ...RATES] } },
      "Every award in the grants system is on-campus organized research.",
      { heading: "Modified total direct costs (MTDC)" },
      `MTDC consists of all direct salaries and wages, fringe benefits, materials and supplies, services, travel, and up to the first ${cap} of each subaward (regardless of the period of performance of the subawards). MTDC excludes equipment, capital expenditures, rental costs, tuition remission, scholarships and fellowships, participant support costs and the portion of each subaward in excess of ${cap}.`,
      `In the chart of accounts the exclusions are object codes 5510 (capital equipment), 5610 and 5620 (participant support) and 5870 (tuition remission). A subaward payment (object code 5700) is in the base only for the part of it that falls within the subaward's first ${cap}, counting every payment made on that subaward since it began, in date order.`,
    ]),
  );
  const caps = Object.entries(EFFORT_CAPS).map(([who, pct]) => [who.replace("_", " "), `${pct}%`]);
  context.writeFile(
    PATHS.manual,
    renderMarkdown("Office of Sponsored Programs: procedures", [
      "For the staff of the Office of Sponsored Programs (OSP) and Sponsored Programs Accounting. A sponsor's terms and conditions (one document per sponsor, under sponsor-terms/) take precedence where they say so.",
      { heading: "Monthly F&A postings" },
      "When a month closes, post F&A on every award that had direct costs posted in that month: the sponsor's indirect rate applied to the month's base, MTDC or TDC as the sponsor's terms say, rounded to the cent (half a cent rounds up). TDC is every direct cost posted in the month. Post nothing for an award whose sponsor pays no indirect costs.",
      { heading: "Unallowable costs" },
      "A charge that an award's sponsor does not allow is transferred off the award to the department's unrestricted account, one transfer per charge, for the full amount of the charge. This applies to every award, active or closed.",
      { heading: "Equipment" },
      `The university capitalizes items costing ${formatUsd(EQUIPMENT_THRESHOLD)} or more per unit with a useful life of more than one year. A charge to object code 5510 (capital equipment) whose unit cost is below the threshold that applies to its award (the sponsor's, when its terms set one) is recoded to object code ${NON_CAPITAL_CODE} (non-capital equipment). Ledger descriptions of equipment purchases give the quantity and unit price, e.g. "Qty 3 @ $2,100.00".`,
      { heading: "Rebudgeting" },
      "An award's overspending for the budget period is the sum, over its budget categories spent above their approved amount, of the amount spent above it; categories spent below their budget do not offset it. Spending is every charge posted to the award in the budget period (January 1 to December 31, 2025) that has not been transferred off it, by the budget category of its object code; the approved amounts are the award's budget lines in the grants system.",
      { heading: "Subaward invoices" },
      "Approve a pending subaward invoice for payment, for its current-period total, only when all of these hold; otherwise put it on hold with the reason:",
      { numbered: SUBAWARD_INVOICE_RULES },
      { heading: "Effort" },
      "Key personnel are the PI, co-investigators (co-I) and personnel named as key. Total effort committed on awards that are active today may not exceed the cap for the person's appointment:",
      { table: { headers: ["appointment", "cap"], rows: caps } },
      { heading: "No-cost extensions" },
      "Act on each pending extension request by the sponsor's terms: when they let the university approve it, extend the award to the requested end date; otherwise refer the request to the sponsor. The date a request reached the office is its received date in the document register.",
    ]),
  );
}
