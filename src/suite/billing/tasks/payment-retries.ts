import { defineBillingTask } from "./python.js";
import {
  addDays,
  checkStateDiff,
  daysBetween,
  parseMarkdownTable,
  REFERENCE_DATE,
  type GenerateContext,
  type StateView,
} from "../../../envs/index.js";
import { DUNNING, PATHS, paymentId } from "../rules.js";
import { answerCountCheck } from "./expectations.js";

/** Open invoices planted with a failure history: days since the first failure, and whether it was a hard decline. */
const PLANTED: Array<{ age: number; hard: boolean }> = [
  { age: 3, hard: false },
  { age: 7, hard: false },
  { age: 14, hard: false },
  { age: 3, hard: true },
  { age: 10, hard: false },
  { age: 21, hard: false },
];

function prepare(context: GenerateContext): void {
  const { db, referenceDate } = context;
  const candidates = db
    .prepare(
      `SELECT i.invoice_id, i.total FROM invoices i JOIN subscriptions s ON s.subscription_id = i.subscription_id
        WHERE i.status = 'paid' AND s.status = 'active' AND i.issued_on <= '2025-05-31' ORDER BY i.invoice_id DESC`,
    )
    .all() as Array<{ invoice_id: string; total: number }>;
  if (candidates.length < PLANTED.length) throw new Error("too few invoices to plant payment failures on");
  let count = paymentId.highest(db, "payments");
  PLANTED.forEach(({ age, hard }, index) => {
    const invoice = candidates[index * 3]!;
    const firstFailure = addDays(referenceDate, -age);
    db.prepare("DELETE FROM payments WHERE invoice_id = ?").run(invoice.invoice_id);
    db.prepare("UPDATE invoices SET status = 'open', due_on = ? WHERE invoice_id = ?").run(
      addDays(firstFailure, -2),
      invoice.invoice_id,
    );
    const code = hard
      ? DUNNING.hardDeclines[index % DUNNING.hardDeclines.length]!
      : DUNNING.softDeclines[index % 3]!;
    const insert = db.prepare("INSERT INTO payments VALUES (?, ?, ?, ?, ?, 'failed', ?)");
    const fail = (attempt: number, on: string) =>
      insert.run(paymentId.format(++count), invoice.invoice_id, attempt, on, invoice.total, code);
    fail(1, firstFailure);
    if (!hard)
      for (const [attempt, after] of DUNNING.retryDays)
        if (after < age) fail(attempt, addDays(firstFailure, after));
  });
}

export function expectedRetries(state: StateView): string[] {
  const text = state.readFile(PATHS.dunning) ?? "";
  const schedule = new Map(
    parseMarkdownTable(text, "Payment retry schedule").map(([attempt, days]) => [
      Number(attempt),
      Number(days),
    ]),
  );
  const hard = new Set(
    [
      ...text
        .slice(text.indexOf("Hard declines"))
        .split("\n")[0]!
        .matchAll(/`(\w+)`/g),
    ].map((m) => m[1]!),
  );
  const rows = state.db
    .prepare(
      `SELECT p.invoice_id, p.attempt_no, p.attempted_on, p.status, p.failure_code FROM payments p
         JOIN invoices i ON i.invoice_id = p.invoice_id WHERE i.status = 'open' ORDER BY p.invoice_id, p.attempt_no`,
    )
    .all() as Array<{
    invoice_id: string;
    attempt_no: number;
    attempted_on: string;
    status: string;
    failure_code: string | null;
  }>;
  const byInvoice = new Map<string, typeof rows>();
  for (const row of rows) byInvoice.set(row.invoice_id, [...(byInvoice.get(row.invoice_id) ?? []), row]);
  const retries: string[] = [];
  for (const [invoice, attempts] of byInvoice) {
    if (attempts.some((a) => a.status !== "failed") || attempts.some((a) => hard.has(a.failure_code ?? "")))
      continue;
    const first = attempts[0]!.attempted_on;
    const next = Math.max(...attempts.map((a) => a.attempt_no)) + 1;
    const after = schedule.get(next);
    if (after !== undefined && daysBetween(first, REFERENCE_DATE) === after) retries.push(invoice);
  }
  return retries;
}

interface Variant {
  retryHard?: boolean;
  fromLatest?: boolean;
  fromDueDate?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    `policy = read_text("${PATHS.dunning}")
print(policy)
schedule = {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"^\\| (\\d) \\| (\\d+) \\|$", policy, re.M)}
hard = set(re.findall(r"\`(\\w+)\`", policy[policy.index("Hard declines"):].split("\\n")[0]))
print(schedule, hard)`,
    `scheduled = []
for inv in fetch_all("list_invoices", "invoices", status="open"):
    attempts = sorted(fetch_all("list_payments", "payments", invoice_id=inv["invoice_id"]), key=lambda a: a["attempt_no"])
    if not attempts or any(a["status"] != "failed" for a in attempts):
        continue
    if ${variant.retryHard ? "False" : 'any(a["failure_code"] in hard for a in attempts)'}:
        continue
    nxt = attempts[-1]["attempt_no"] + 1
    if nxt not in schedule:
        continue
    start = ${variant.fromDueDate ? 'inv["due_on"]' : variant.fromLatest ? 'attempts[-1]["attempted_on"]' : 'attempts[0]["attempted_on"]'}
    offset = schedule[nxt]
    if days_between(start, TODAY) == offset:
        tools.schedule_payment_retry(invoice_id=inv["invoice_id"])
        scheduled.append(inv["invoice_id"])
print(len(scheduled))`,
  ];
}

export const paymentRetriesTask = defineBillingTask({
  id: "billing.payment-retries",
  summary:
    "Schedule today's payment retries per the dunning schedule (counted from the first failure, no hard declines).",
  instruction:
    "Schedule today's payment retries. Go through the open invoices with failed payment attempts and schedule a retry (schedule_payment_retry) for every invoice whose next attempt falls due today under the retry schedule of our dunning policy; nothing else should change. Reply with only the number of retries you scheduled.",
  tools: ["list_invoices", "get_invoice", "list_payments", "schedule_payment_retry"],
  prepare,
  verify: ({ initial, final, answer }) => {
    const expected = expectedRetries(initial);
    if (expected.length === 0) throw new Error("generation produced no retry due today");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "payments",
          key: "payment_id",
          added: expected.map((invoice) => ({
            invoice_id: invoice,
            status: "scheduled",
            attempted_on: REFERENCE_DATE,
          })),
        },
      ]),
      answerCountCheck(answer, expected.length),
    ];
  },
  cells,
  nearMisses: {
    "retries-hard-declines": [{ retryHard: true }, "Retries invoices whose card was hard-declined."],
    "counts-from-latest-attempt": [
      { fromLatest: true },
      "Counts the schedule's gaps from the latest attempt instead of the first failure.",
    ],
    "counts-from-due-date": [
      { fromDueDate: true },
      "Counts from the invoice's due date instead of the first failed attempt.",
    ],
  },
});
