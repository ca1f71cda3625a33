import {
  REFERENCE_DATE,
  checkAnswerAmounts,
  checkAnswerCount,
  checkStateDiff,
  defineTask,
  roundCents,
  flagNearMisses,
  type NearMissRow,
} from "../../../envs/index.js";
import { courtDomain } from "../domain.js";
import { TODAY_TEXT, feeChecks, feeMismatches } from "./facts.js";
import { withNear } from "./python.js";

const FEE_MISSES: NearMissRow[] = [
  [
    "plain-amount-regex",
    "Reads the receipt's amount with a plain [\\d,]+.\\d\\d pattern, so OCR misreads go wrong.",
    "plain-amount",
  ],
  [
    "ignores-fee-waivers",
    "Charges the scheduled fee to parties whose fee waiver was granted.",
    "ignore-waiver",
  ],
  [
    "exclusive-bands",
    "Treats band limits as exclusive, putting an amount exactly at a limit in the next band.",
  ],
  ["no-retry", "Does not retry the imaging server's error bodies."],
];

const auditBody = withNear(`result = {}
for f, paid, due in fee_checks():
    if abs(paid - due) > 0.005:
        result[f["filing_id"]] = round(paid - due, 2)
print(json.dumps(result))`);

export const feeAuditTask = defineTask({
  id: "court.fee-audit",
  domain: courtDomain,
  summary:
    "Audit every filing's receipt (OCR'd amount on the scanned image) against the fee schedule's bands and fee waivers.",
  instruction:
    'Audit the filing fees: compare what was paid on each filing (the cashier\'s receipt stamp on its scanned image) with what our fee schedule charges for it. Reply with only a JSON object mapping each filing id where they differ to the amount paid minus the fee due, e.g. {"FIL-00012": -145.0, "FIL-00031": 60.0}.',
  tools: ["list_cases", "list_filings", "get_filing_text", "list_docket_entries"],
  verify: ({ initial, answer }) => {
    const expected = feeMismatches(initial);
    if (expected.size === 0) throw new Error("generation produced no fee mismatch");
    return [checkAnswerAmounts("answer", answer, expected)];
  },
  oracle: auditBody([]),
  nearMisses: flagNearMisses(auditBody, FEE_MISSES),
});

const noticeBody = withNear(`noticed = 0
done_cases = set()
for f, paid, due in fee_checks():
    if "one-per-case" in NEAR and f["case_id"] in done_cases:
        continue
    if paid < due - 0.005 or ("overpaid-too" in NEAR and abs(paid - due) > 0.005):
        call("add_docket_entry", case_id=f["case_id"], entry_type="fee_deficiency_notice", entry_date=TODAY,
             filing_id=f["filing_id"], description="Fee deficiency: $%.2f owed on %s" % (due - paid, f["filing_id"]))
        noticed += 1
        done_cases.add(f["case_id"])
print(noticed)`);

export const feeDeficiencyNoticesTask = defineTask({
  id: "court.fee-deficiency-notices",
  domain: courtDomain,
  summary:
    "Docket a fee deficiency notice, referencing the filing, for every underpaid filing (state diff on the docket).",
  instruction: `${TODAY_TEXT} Send out fee deficiency notices: for every filing that was paid less than our fee schedule charges for it, docket the notice the fee schedule describes, today. Nothing else. Reply with only the number of notices you docketed.`,
  tools: ["list_cases", "list_filings", "get_filing_text", "list_docket_entries", "add_docket_entry"],
  verify: ({ initial, final, answer }) => {
    const expected = feeChecks(initial).filter((f) => roundCents(f.due - f.paid) > 0);
    if (expected.length === 0) throw new Error("generation produced no underpaid filing");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "docket_entries",
          key: "entry_id",
          added: expected.map((f) => ({
            case_id: f.case_id,
            entry_type: "fee_deficiency_notice",
            entry_date: REFERENCE_DATE,
            filing_id: f.filing_id,
          })),
        },
      ]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: noticeBody([]),
  nearMisses: flagNearMisses(noticeBody, [
    [
      "notices-overpayments",
      "Also notices overpaid filings, which the schedule leaves to the finance office.",
      "overpaid-too",
    ],
    FEE_MISSES[0]!,
    FEE_MISSES[1]!,
    [
      "one-notice-per-case",
      "Dockets one notice per case, skipping a second underpaid filing.",
      "one-per-case",
    ],
  ]),
});
