import { defineBillingTask } from "./python.js";
import {
  addDays,
  checkStateDiff,
  REFERENCE_DATE,
  type GenerateContext,
  type StateView,
} from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { answerCountCheck } from "./expectations.js";

/** Customers on a payment plan, as the dunning policy lists them. */
export function paymentPlanCustomers(state: StateView): Set<string> {
  const text = state.readFile(PATHS.dunning) ?? "";
  const section = text.slice(text.indexOf("## Payment plan exceptions"));
  return new Set([...section.matchAll(/^- (CUS-\d{5})/gm)].map((match) => match[1]!));
}

function suspensionDays(state: StateView): number {
  const match = /open MORE than (\d+) days after its due date/.exec(state.readFile(PATHS.dunning) ?? "");
  if (!match) throw new Error("the dunning policy has no suspension rule");
  return Number(match[1]);
}

export function expectedSuspensions(state: StateView): string[] {
  const exempt = paymentPlanCustomers(state);
  const cutoff = addDays(REFERENCE_DATE, -suspensionDays(state));
  const rows = state.db
    .prepare(
      `SELECT DISTINCT s.subscription_id, s.customer_id FROM invoices i
         JOIN subscriptions s ON s.subscription_id = i.subscription_id
        WHERE i.status = 'open' AND i.due_on < ? AND s.status NOT IN ('suspended', 'cancelled')
        ORDER BY s.subscription_id`,
    )
    .all(cutoff) as Array<{ subscription_id: string; customer_id: string }>;
  return rows.filter((row) => !exempt.has(row.customer_id)).map((row) => row.subscription_id);
}

/** Plants an open invoice exactly at the suspension boundary (45 days past due: not yet suspended). */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const candidate = db
    .prepare(
      `SELECT i.invoice_id, i.subscription_id FROM invoices i JOIN subscriptions s ON s.subscription_id = i.subscription_id
        WHERE s.status = 'active' AND i.status = 'paid' AND i.issued_on < '2025-05-01'
          AND NOT EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.subscription_id AND o.status = 'open')
        ORDER BY i.invoice_id LIMIT 1`,
    )
    .get() as { invoice_id: string; subscription_id: string } | undefined;
  if (!candidate) throw new Error("no invoice to plant at the suspension boundary");
  const due = addDays(context.referenceDate, -45);
  db.prepare("UPDATE invoices SET status = 'open', due_on = ? WHERE invoice_id = ?").run(
    due,
    candidate.invoice_id,
  );
  db.prepare(
    "UPDATE payments SET status = 'failed', failure_code = 'insufficient_funds', attempted_on = ? WHERE invoice_id = ?",
  ).run(due, candidate.invoice_id);
  db.prepare("UPDATE subscriptions SET status = 'past_due' WHERE subscription_id = ?").run(
    candidate.subscription_id,
  );
  // A cancelled subscription with a long-overdue invoice (left as it is).
  const other = db
    .prepare(
      `SELECT s.subscription_id, MIN(i.invoice_id) AS invoice_id FROM subscriptions s JOIN invoices i ON i.subscription_id = s.subscription_id
        WHERE s.subscription_id != ? AND s.status IN ('active', 'cancelled')
        GROUP BY s.subscription_id ORDER BY s.status = 'cancelled' DESC, s.subscription_id DESC LIMIT 1`,
    )
    .get(candidate.subscription_id) as { subscription_id: string; invoice_id: string };
  db.prepare("UPDATE subscriptions SET status = 'cancelled' WHERE subscription_id = ?").run(
    other.subscription_id,
  );
  db.prepare("UPDATE invoices SET status = 'open', due_on = ? WHERE invoice_id = ?").run(
    addDays(context.referenceDate, -80),
    other.invoice_id,
  );
}

interface Variant {
  inclusive?: boolean;
  ignoreExemptions?: boolean;
  includeCancelled?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    `policy = read_text("${PATHS.dunning}")
print(policy)
limit = int(re.search(r"open MORE than (\\d+) days", policy).group(1))
exempt = set(re.findall(r"^- (CUS-\\d{5})", policy[policy.index("## Payment plan exceptions"):], re.M))
print(limit, sorted(exempt))`,
    `open_invoices = fetch_all("list_invoices", "invoices", status="open")
late = {}
for inv in open_invoices:
    days = days_between(inv["due_on"], TODAY)
    if days ${variant.inclusive ? ">=" : ">"} limit:
        late.setdefault(inv["subscription_id"], []).append((inv["invoice_id"], days))
suspended = []
for sid in sorted(late):
    sub = tools.get_subscription(subscription_id=sid)["subscription"]
    if ${variant.includeCancelled ? "sub['status'] == 'suspended'" : "sub['status'] in ('suspended', 'cancelled')"}:
        continue
    if ${variant.ignoreExemptions ? "False" : "sub['customer_id'] in exempt"}:
        continue
    worst = max(days for _, days in late[sid])
    tools.update_subscription_status(subscription_id=sid, status="suspended", reason=f"dunning: invoice open {worst} days past due")
    suspended.append(sid)
print(len(suspended))`,
  ];
}

export const dunningSuspensionsTask = defineBillingTask({
  id: "billing.dunning-suspensions",
  summary: "Suspend subscriptions per the dunning policy (days past due, payment-plan exceptions, boundary).",
  instruction:
    "Run today's dunning suspensions: apply the suspension rule of our dunning policy to every subscription with open invoices, set the subscriptions it calls for to status 'suspended' (give a short reason), and change nothing else. Reply with only the number of subscriptions you suspended.",
  tools: [
    "list_invoices",
    "get_invoice",
    "list_subscriptions",
    "get_subscription",
    "update_subscription_status",
    "get_customer",
  ],
  prepare,
  verify: ({ initial, final, answer }) => {
    const expected = expectedSuspensions(initial);
    if (expected.length === 0) throw new Error("generation produced no suspension");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "subscriptions",
          key: "subscription_id",
          changed: new Map(expected.map((id) => [id, { status: "suspended" }])),
          ignoreColumns: ["status_reason"],
        },
      ]),
      answerCountCheck(answer, expected.length),
    ];
  },
  cells,
  nearMisses: {
    "boundary-inclusive": [
      { inclusive: true },
      "Suspends at exactly the limit (45 days) instead of more than 45.",
    ],
    "ignores-payment-plans": [
      { ignoreExemptions: true },
      "Suspends accounts that have an agreed payment plan.",
    ],
    "suspends-cancelled": [{ includeCancelled: true }, "Turns cancelled subscriptions into suspended ones."],
  },
});
