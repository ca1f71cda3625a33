import {
  addDays,
  longDate,
  markdownTable,
  renderEmail,
  renderMarkdown,
  type GenerateContext,
} from "../../envs/index.js";
import {
  ASSIGNMENT_GUIDELINE_PATH,
  BULLETIN_DIRECTORY,
  CASELOAD_CAPS,
  CORRESPONDENCE_DIRECTORY,
  COVERAGE_RULES_PATH,
  EXCLUSIONS,
  EXTENDED_NOTICE_DAYS,
  FIELD_NOTES_DIRECTORY,
  FRAUD_LATE_DAYS,
  FRAUD_MEMO_PATH,
  FRAUD_NEW_POLICY_DAYS,
  FRAUD_REPEAT_COUNT,
  MINIMUM_RESERVES,
  NOTICE_DAYS,
  RESERVE_GUIDELINE_PATH,
  STAFF_MEMO_PATH,
  SUBLIMITS,
  type CatEvent,
} from "./rules.js";
import type { AdjusterRow, ClaimRow } from "./generate.js";

export interface ClaimsDocuments {
  onLeave: AdjusterRow;
  returned: AdjusterRow;
  events: CatEvent[];
  /** One Markdown section per field visit (heading, blank line, text, newline), dealt round the batch files. */
  fieldNotes: string[];
  /** Open claims whose policyholder writes to the adjuster. */
  correspondence: ClaimRow[];
}

const usd = (amount: number): string => `$${amount.toLocaleString("en-US")}`;

/** Writes every workspace document of the claims domain: rules, guidelines, memos, bulletins, notes, emails. */
export function writeClaimsDocuments(context: GenerateContext, documents: ClaimsDocuments): void {
  const { referenceDate, random, factors } = context;
  context.writeFile(
    COVERAGE_RULES_PATH,
    renderMarkdown("Coverage rules for property and auto claims", [
      `Issued by Claims Quality, effective ${longDate(addDays(referenceDate, -400))}. Adjusters apply these rules before any payment or denial.`,
      { heading: "Policy period" },
      "A policy covers losses that occur on or after its effective date and before its expiration date. Coverage ends at 12:01 a.m. on the expiration date, so a loss on the expiration date itself is outside the policy period. A claim whose loss date is outside the policy period is denied with reason `outside policy period`.",
      { heading: "Excluded causes" },
      "These causes of loss are not covered. A buy-back endorsement on the policy restores coverage for that cause. Field indicators are the phrases that, in an adjuster's field notes, point to the cause.",
      markdownTable(
        ["cause", "lines", "buy-back endorsement", "field indicators"],
        EXCLUSIONS.map((exclusion) => [
          exclusion.cause,
          exclusion.lines,
          exclusion.buyBack,
          exclusion.indicators.map((phrase) => `"${phrase}"`).join("; "),
        ]),
      ),
      { heading: "Sublimits" },
      "Some causes are paid up to a sublimit that is lower than the policy's coverage limit.",
      markdownTable(
        ["line", "cause", "sublimit"],
        SUBLIMITS.map(([line, cause, amount]) => [line, cause, usd(amount)]),
      ),
      { heading: "Payment cap" },
      "The issued payments on one claim may total at most the applicable limit minus the policy deductible. The applicable limit is the policy's coverage limit, or the cause's sublimit when the cause has one and it is lower. Voided payments do not count toward the total.",
      { heading: "Notice of loss" },
      "The insured must report a loss within the notice period of the policy line, counted in days from the loss date to the reported date.",
      markdownTable(["line", "notice period (days)"], Object.entries(NOTICE_DAYS)),
      `Endorsement EXT_NOTICE extends the notice period to ${EXTENDED_NOTICE_DAYS} days. A claim reported more days after the loss than its notice period allows is a late-notice claim.`,
    ]),
  );
  context.writeFile(
    ASSIGNMENT_GUIDELINE_PATH,
    renderMarkdown("Adjuster assignment guideline", [
      `Claims Operations, revised ${longDate(addDays(referenceDate, -90))}.`,
      { heading: "Caseload caps" },
      "An adjuster's caseload is the number of open claims assigned to them. The cap depends on the adjuster's home region.",
      markdownTable(["region", "maximum open claims"], Object.entries(CASELOAD_CAPS)),
      { heading: "Reassigning claims" },
      {
        numbered: [
          "Reassign open claims one at a time, the earliest reported date first (ties by claim id).",
          "An adjuster can take a claim only if they are active, not on leave, licensed in the claim's loss state, and their caseload is below their region's cap.",
          "Among those, give the claim to the adjuster with the lowest caseload; ties go to the lowest adjuster id.",
          "Each reassignment counts toward the new adjuster's caseload immediately.",
          "If nobody can take a claim, leave it where it is and list it for the claims manager.",
        ],
      },
    ]),
  );
  context.writeFile(
    RESERVE_GUIDELINE_PATH,
    renderMarkdown("Case reserve guideline", [
      "Every open claim carries a case reserve of at least the minimum for its cause of loss.",
      { heading: "Minimum reserves" },
      markdownTable(
        ["cause", "minimum reserve"],
        Object.entries(MINIMUM_RESERVES).map(([cause, amount]) => [cause, usd(amount)]),
      ),
      { heading: "Scope" },
      "Claims tagged to a catastrophe event (any cat code) are reserved in bulk by the CAT desk and are not part of the case reserve review. The shortfall of a claim is its minimum reserve minus its reserve, when the reserve is below the minimum.",
    ]),
  );
  context.writeFile(
    FRAUD_MEMO_PATH,
    renderMarkdown("Memo: fraud indicators for SIU referral", [
      `From the Special Investigations Unit, ${longDate(addDays(referenceDate, -60))}.`,
      { heading: "Indicators" },
      markdownTable(
        ["code", "indicator", "threshold"],
        [
          ["LATE_REPORT", "days from loss date to reported date is more than the threshold", FRAUD_LATE_DAYS],
          [
            "NEW_POLICY",
            "loss date is at most this many days after the policy's effective date",
            FRAUD_NEW_POLICY_DAYS,
          ],
          [
            "REPEAT_LOSS",
            "the policyholder has at least this many other claims (on any of their policies) whose loss date is earlier than this loss and at most 365 days before it (claims on the same day do not count)",
            FRAUD_REPEAT_COUNT,
          ],
        ],
      ),
      { heading: "When to refer" },
      "Refer an open claim to SIU when it shows at least two indicators, naming the indicator codes. Do not refer a claim that is already referred. Denied and closed claims are not referred.",
    ]),
  );
  context.writeFile(
    STAFF_MEMO_PATH,
    renderMarkdown("Staffing update", [
      `Claims Operations, ${longDate(addDays(referenceDate, -1))}.`,
      `- **${documents.onLeave.id}** (${documents.onLeave.name}) begins leave on ${longDate(referenceDate)} for at least eight weeks. Their open claims must be reassigned under the assignment guideline.`,
      `- **${documents.returned.id}** (${documents.returned.name}) returned from leave last month and takes new claims again.`,
      "The HR system still shows every adjuster as active until payroll closes.",
    ]),
  );
  for (const event of documents.events) {
    context.writeFile(
      `${BULLETIN_DIRECTORY}/${event.code.toLowerCase()}.md`,
      renderMarkdown(`Catastrophe bulletin ${event.code}: ${event.name}`, [
        `**Event code:** ${event.code}`,
        `**Covered perils:** ${event.perils.join(", ")}`,
        `**First day:** ${event.start}`,
        `**Last day:** ${event.end}`,
        "Tag every claim, open or closed but not denied, whose loss date falls on or between the first and last day, whose loss ZIP is listed below and whose cause of loss is one of the covered perils.",
        { heading: "Affected ZIP codes" },
        markdownTable(
          ["zip"],
          event.zips.map((zip) => [zip]),
        ),
      ]),
    );
  }
  const fileCount = 4 * factors.files;
  for (let index = 0; index < fileCount; index += 1) {
    const sections = documents.fieldNotes.filter((_, n) => n % fileCount === index);
    context.writeFile(
      `${FIELD_NOTES_DIRECTORY}/batch-${String(index + 1).padStart(2, "0")}.md`,
      [`# Field notes, batch ${index + 1}`, "", ...sections].join("\n"),
    );
  }
  for (const { id, cause, loss, policy, adjuster } of documents.correspondence) {
    const body = random.pick([
      `I am writing about my claim ${id} for the ${cause.replace("_", " ")} on ${loss}. Could you tell me when the inspection will happen?`,
      `Following up on claim ${id}. The contractor needs a decision before starting repairs. Please call me back.`,
      `Attached are the receipts for claim ${id}. Let me know if anything else is needed.`,
    ]);
    context.writeFile(
      `${CORRESPONDENCE_DIRECTORY}/${id.toLowerCase()}.txt`,
      renderEmail({ From: policy.holderName, To: adjuster.name, Subject: `Claim ${id}` }, [
        body,
        `Thanks,\n${policy.holderName}`,
      ]),
    );
  }
}
