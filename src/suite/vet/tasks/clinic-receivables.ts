import {
  REFERENCE_DATE,
  addDays,
  checkAnswerAmounts,
  defineTask,
  flagNearMisses,
} from "../../../envs/index.js";
import { vetDomain } from "../domain.js";
import { TODAY_TEXT } from "./checks.js";
import { receivables } from "./facts.js";
import { VET_PY } from "./python.js";

function cells(near: string[]): string[] {
  return [
    VET_PY,
    `NEAR = set(${JSON.stringify(near)})
cutoff = add_days(TODAY, -60)
owed = {}
for clinic in fetch("list_clinics", "clinics"):
    total = 0.0
    for invoice in fetch("list_invoices", "invoices", clinic_id=clinic["clinic_id"], issued_before=cutoff):
        if invoice["status"] == "void" and "include-void" not in NEAR:
            continue
        paid = sum(p["amount"] for p in fetch("list_payments", "payments", invoice_id=invoice["invoice_id"]))
        if "unpaid-only" in NEAR:
            total += invoice["total"] if paid == 0 else 0
        else:
            total += invoice["total"] - paid
    owed[clinic["clinic_id"]] = round(total, 2)
print(json.dumps(owed))`,
  ];
}

export const clinicReceivablesTask = defineTask({
  id: "vet.clinic-receivables",
  domain: vetDomain,
  summary:
    "Outstanding balances per clinic on invoices more than 60 days old (void invoices out, partial payments netted, flaky payments API).",
  instruction: `${TODAY_TEXT} For the collections review, work out how much clients still owe each clinic on invoices issued more than 60 days ago (invoice total minus payments received; void invoices owe nothing). Reply with only a JSON object mapping every clinic id to the amount in USD (e.g. {"CLN-01": 1520.75}).`,
  tools: ["list_clinics", "list_invoices", "list_payments"],
  verify: ({ initial, answer }) => [
    checkAnswerAmounts("answer", answer, receivables(initial, addDays(REFERENCE_DATE, -60)), 0.011),
  ],
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["includes-void", "Counts void invoices as owed.", "include-void"],
    [
      "unpaid-only",
      "Counts only invoices with no payment at all, missing part-paid balances.",
      "unpaid-only",
    ],
    ["no-retry", "Does not retry the payments API's 503 and stops.", "no-retry"],
  ]),
});
