import {
  CORRECT,
  addDays,
  daysBetween,
  defineTask,
  parseAnswerJson,
  parseMarkdownTable,
  REFERENCE_DATE,
  renderMarkdown,
  roundCents,
  type GenerateContext,
  type StateView,
  variantNearMisses,
} from "../../../envs/index.js";
import { billingDomain } from "../domain.js";
import { PATHS, creditNoteId } from "../rules.js";
import { answerAmount, problemsCheck } from "./expectations.js";
import { BILLING_PY } from "./python.js";

/** Aging buckets: label, first and last day past due (null: unbounded). */
const BUCKETS: Array<[string, number | null, number | null]> = [
  ["current", null, 0],
  ["1-30", 1, 30],
  ["31-60", 31, 60],
  ["61-90", 61, 90],
  ["over_90", 91, null],
];

/**
 * Plants what the aging rules are about: credit notes against open invoices (one crediting an invoice in
 * full), voided invoices that are still past due on paper, invoices exactly on the bucket boundaries, and
 * an open invoice on an account whose statement the receivables service drops once.
 */
function prepare(context: GenerateContext): void {
  const { db, random, referenceDate } = context;
  context.writeFile(
    PATHS.aging,
    renderMarkdown("Receivables aging rules", [
      "Owner: Finance Operations. Collections reviews the aging every month end.",
      { heading: "What counts" },
      "Only invoices in status `open` are receivables. Paid invoices are settled and void invoices were cancelled: neither is aged, whatever its due date says. An open invoice's outstanding amount is its total minus every credit note issued against it; an invoice credited in full has nothing outstanding.",
      { heading: "Aging buckets" },
      "Days past due = the report date minus the invoice's due date, in calendar days (an invoice due on the report date is 0 days past due).",
      {
        table: {
          headers: ["bucket", "days past due from", "days past due to"],
          rows: BUCKETS.map(([label, from, to]) => [label, from ?? "-", to ?? "-"]),
        },
      },
      "Report each account's outstanding amounts per bucket, rounded to cents.",
    ]),
  );
  const open = db
    .prepare("SELECT invoice_id, customer_id, total FROM invoices WHERE status = 'open' ORDER BY invoice_id")
    .all() as Array<{ invoice_id: string; customer_id: string; total: number }>;
  if (open.length < 12) throw new Error("too few open invoices to age");
  // Boundaries: exactly 0, 30, 60 and 90 days past due.
  [0, 30, 60, 90].forEach((days, index) =>
    db
      .prepare("UPDATE invoices SET due_on = ? WHERE invoice_id = ?")
      .run(addDays(referenceDate, -days), open[1 + index * 2]!.invoice_id),
  );
  // Voided invoices that were past due.
  const voided = [open[open.length - 1]!, open[open.length - 3]!];
  for (const invoice of voided)
    db.prepare("UPDATE invoices SET status = 'void' WHERE invoice_id = ?").run(invoice.invoice_id);
  // Credit notes: partial ones and one in full.
  const credited = open.filter((_, index) => index % 4 === 2 && index < open.length - 3);
  const insert = db.prepare("INSERT INTO credit_notes VALUES (?, ?, ?, ?, ?, ?)");
  let count = 0;
  credited.forEach((invoice, index) => {
    const amount = index === 0 ? invoice.total : roundCents(invoice.total * (0.1 + 0.4 * random.next()));
    insert.run(
      creditNoteId.format(++count),
      invoice.customer_id,
      invoice.invoice_id,
      amount,
      index === 0 ? "billing error: invoice credited in full" : "goodwill credit",
      addDays(referenceDate, -random.int(2, 40)),
    );
  });
  // An account the receivables service drops once (customer number % 5 === 2) always has an open invoice
  // with something outstanding (one credited in full would leave nothing to miss).
  const dropped = db
    .prepare(
      `SELECT COUNT(*) AS n FROM invoices i WHERE i.status = 'open' AND CAST(substr(i.customer_id, 5) AS INTEGER) % 5 = 2
          AND i.total - COALESCE((SELECT SUM(c.amount) FROM credit_notes c WHERE c.invoice_id = i.invoice_id), 0) > 0.005`,
    )
    .get() as { n: number };
  if (dropped.n === 0) {
    const paid = db
      .prepare(
        `SELECT invoice_id FROM invoices WHERE status = 'paid' AND CAST(substr(customer_id, 5) AS INTEGER) % 5 = 2
          ORDER BY invoice_id LIMIT 1`,
      )
      .get() as { invoice_id: string } | undefined;
    if (!paid) throw new Error("no invoice on an account the receivables service drops");
    db.prepare("UPDATE invoices SET status = 'open' WHERE invoice_id = ?").run(paid.invoice_id);
  }
}

function bucketsOf(state: StateView): Array<[string, number, number]> {
  const rows = parseMarkdownTable(state.readFile(PATHS.aging) ?? "", "Aging buckets");
  if (rows.length === 0) throw new Error("the aging rules lost their buckets");
  return rows.map(([label, from, to]) => [
    label ?? "",
    from === "-" ? -Infinity : Number(from),
    to === "-" ? Infinity : Number(to),
  ]);
}

/** Customer id -> bucket -> outstanding amount of its open invoices, net of credit notes. */
export function expectedAging(state: StateView): Map<string, Map<string, number>> {
  const buckets = bucketsOf(state);
  const rows = state.db
    .prepare(
      `SELECT i.customer_id, i.due_on, i.total - COALESCE((SELECT SUM(c.amount) FROM credit_notes c WHERE c.invoice_id = i.invoice_id), 0) AS outstanding
         FROM invoices i WHERE i.status = 'open' ORDER BY i.customer_id, i.invoice_id`,
    )
    .all() as Array<{ customer_id: string; due_on: string; outstanding: number }>;
  const aging = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (row.outstanding <= 0.005) continue;
    const days = daysBetween(row.due_on, REFERENCE_DATE);
    const bucket = buckets.find(([, from, to]) => days >= from && days <= to)?.[0];
    if (!bucket) throw new Error(`no aging bucket for ${days} days past due`);
    const account = aging.get(row.customer_id) ?? new Map<string, number>();
    account.set(bucket, roundCents((account.get(bucket) ?? 0) + row.outstanding));
    aging.set(row.customer_id, account);
  }
  return aging;
}

function compareAging(given: unknown, expected: Map<string, Map<string, number>>): string[] {
  if (!given || typeof given !== "object" || Array.isArray(given)) return ["the answer is not a JSON object"];
  const problems: string[] = [];
  const answer = new Map(
    Object.entries(given as Record<string, unknown>).map(([key, value]) => [key.trim(), value]),
  );
  for (const [customer, buckets] of expected) {
    const actual = answer.get(customer);
    if (!actual || typeof actual !== "object") {
      problems.push(`missing ${customer}`);
      continue;
    }
    const entries = new Map(
      Object.entries(actual as Record<string, unknown>).map(([key, value]) => [
        key.trim().toLowerCase(),
        answerAmount(value),
      ]),
    );
    for (const [bucket, amount] of buckets) {
      const value = entries.get(bucket);
      if (value === undefined || !(Math.abs(value - amount) <= 0.011))
        problems.push(`${customer} ${bucket}: ${String(value)}, expected ${amount.toFixed(2)}`);
    }
    for (const [bucket, value] of entries)
      if (!buckets.has(bucket) && Math.abs(value) > 0.005)
        problems.push(`${customer} ${bucket}: ${value}, expected nothing`);
  }
  for (const customer of answer.keys()) if (!expected.has(customer)) problems.push(`unexpected ${customer}`);
  return problems;
}

interface Variant {
  ignoreStatusErrors?: boolean;
  countVoid?: boolean;
  ignoreCredits?: boolean;
  exclusiveUpper?: boolean;
  fromIssueDate?: boolean;
}

function cells(variant: Variant): string[] {
  const statement = variant.ignoreStatusErrors
    ? `def statement(customer_id):
    return tools.get_account_statement(customer_id=customer_id)`
    : `def statement(customer_id):
    for attempt in range(4):
        result = tools.get_account_statement(customer_id=customer_id)
        if result.get("status") != "error" and "invoices" in result:
            return result
        print("retrying", customer_id, "after:", result.get("error"))
    raise RuntimeError(f"no statement for {customer_id}")`;
  return [
    BILLING_PY,
    `rules = read_text("${PATHS.aging}")
print(rules)
buckets = []
for m in re.finditer(r"^\\| ([\\w-]+) \\| (-|\\d+) \\| (-|\\d+) \\|$", rules, re.M):
    low = float("-inf") if m.group(2) == "-" else int(m.group(2))
    high = float("inf") if m.group(3) == "-" else int(m.group(3))
    buckets.append((m.group(1), low, high))
print(buckets)
${statement}`,
    `accounts = sorted({inv["customer_id"] for inv in fetch_all("list_invoices", "invoices", status="open")}${variant.countVoid ? ' | {inv["customer_id"] for inv in fetch_all("list_invoices", "invoices", status="void")}' : ""})
aging = {}
for cid in accounts:
    st = statement(cid)
    credited = {}
    for note in st.get("credit_notes", []):
        credited[note["invoice_id"]] = credited.get(note["invoice_id"], 0) + note["amount"]
    for inv in st.get("invoices", []):
        if inv["status"] ${variant.countVoid ? '== "paid"' : '!= "open"'}:
            continue
        outstanding = inv["total"] ${variant.ignoreCredits ? "" : '- credited.get(inv["invoice_id"], 0)'}
        if outstanding <= 0.005:
            continue
        days = days_between(inv["${variant.fromIssueDate ? "issued_on" : "due_on"}"], TODAY)
        label = next(name for name, low, high in buckets if ${variant.exclusiveUpper ? "days < high" : "low <= days <= high"})
        account = aging.setdefault(cid, {})
        account[label] = round(account.get(label, 0) + outstanding + 1e-9, 2)
print(len(aging), "accounts with a balance")`,
    `print(json.dumps(aging))`,
  ];
}

export const receivablesAgingTask = defineTask({
  id: "billing.receivables-aging",
  domain: billingDomain,
  summary:
    "Month-end receivables aging per account from account statements (silent upstream errors to detect), net of credit notes, void invoices excluded, bucket boundaries from the aging rules.",
  instruction:
    'Collections needs the month-end receivables aging as of today, June 30, 2025. Follow our receivables aging rules (policies/receivables-aging.md): age every account\'s outstanding open invoices, net of the credit notes issued against them, into the buckets the rules define. Reply with only a JSON object mapping each customer id with an outstanding balance to an object of its buckets with a balance (bucket label -> USD rounded to cents), e.g. {"CUS-00012": {"current": 1200.0, "31-60": 455.1}}.',
  tools: ["list_customers", "get_customer", "list_invoices", "get_invoice", "get_account_statement"],
  prepare,
  verify: ({ initial, answer }) => {
    const expected = expectedAging(initial);
    if (expected.size === 0) throw new Error("generation produced no receivables");
    const problems = compareAging(parseAnswerJson(answer), expected);
    return [problemsCheck("aging", problems, `aging matches for all ${expected.size} accounts`)];
  },
  oracle: cells({}),
  nearMisses: variantNearMisses(cells, CORRECT, {
    "ignores-silent-errors": [
      { ignoreStatusErrors: true },
      "Takes the receivables service's error body for an empty statement and drops those accounts.",
    ],
    "ages-void-invoices": [{ countVoid: true }, "Ages every invoice that is not paid, void ones included."],
    "ignores-credit-notes": [
      { ignoreCredits: true },
      "Ages invoice totals without subtracting the credit notes against them.",
    ],
    "bucket-upper-exclusive": [
      { exclusiveUpper: true },
      "Treats each bucket's last day as belonging to the next bucket (30 days in 31-60).",
    ],
    "ages-from-issue-date": [
      { fromIssueDate: true },
      "Counts the days from the invoice's issue date instead of its due date.",
    ],
  }),
});
