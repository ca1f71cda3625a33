import type Database from "better-sqlite3";
import { addDays, allRows, longDate, renderEmail, slug, type GenerateContext } from "../../envs/index.js";
import { addMinutes } from "./carrier.js";
import { STORE_NAME } from "./catalog.js";

/**
 * Customers' e-mailed cancellation requests: the care team's procedure, the e-mails a task plants in the
 * support inbox, and which orders they cancel.
 */

export const CANCELLATION_PROCEDURE_PATH = "policies/order-cancellation-requests.md";
export const CANCELLATION_INBOX_DIR = "support/inbox";

type Scenario = "cancel" | "cancel-shouting" | "shipped" | "other-address" | "withdrawn";

const PROCEDURE = `# ${STORE_NAME} — Cancellation requests by e-mail (Customer Care)

Customers may ask us to cancel an order by e-mail. Requests are filed in \`${CANCELLATION_INBOX_DIR}/\`.

1. **Account holder only.** Act only on a request sent from the e-mail address of the customer who
   placed the order, as recorded in the customer system (addresses compare case-insensitively). A
   request from any other address (even with the same name) is not actioned: the customer is asked to
   write from their account address.
2. **Before shipping only.** An order can be cancelled while it is \`pending\` or \`processing\`. Orders
   already shipped or delivered are not cancelled; the customer is sent return instructions instead.
3. **Latest message wins.** When a customer writes more than once about the same order, the most
   recent e-mail (by its Date line) is the one that counts: a customer who withdraws a request keeps
   their order.
4. Cancel with reason code \`customer_request\`. Cancelling voids the payment authorization.
`;

interface OrderRow {
  id: number;
  placed_at: string;
  status: string;
  first_name: string;
  last_name: string;
  email: string;
}

function message(options: {
  name: string;
  address: string;
  sentAt: string;
  subject: string;
  body: string;
}): string {
  return renderEmail(
    {
      From: `${options.name} <${options.address}>`,
      To: "Customer Care <care@larkspurco.com>",
      Date: options.sentAt.replace("T", " "),
      Subject: options.subject,
    },
    options.body,
  );
}

/** Plants the procedure and one or two e-mails per chosen order, covering every rule at every scale. */
export function plantCancellationRequests(context: GenerateContext): void {
  const { db, random } = context;
  const today = context.referenceDate.slice(0, 10);
  context.writeFile(CANCELLATION_PROCEDURE_PATH, PROCEDURE);
  const orders = allRows<OrderRow>(
    db,
    `SELECT o.id, o.placed_at, o.status, c.first_name, c.last_name, c.email FROM orders o
       JOIN customers c ON c.id = o.customer_id
      WHERE substr(o.placed_at, 1, 10) >= ? AND o.status <> 'cancelled' AND c.email NOT LIKE '%@larkspurco.com' AND o.placed_at < ?
      ORDER BY o.id`,
    addDays(today, -12),
    `${today}T18:00:00`,
  );
  const open = random.shuffle(
    orders.filter((order) => order.status === "pending" || order.status === "processing"),
  );
  const sent = random.shuffle(
    orders.filter((order) => order.status === "shipped" || order.status === "delivered"),
  );
  const openCount = Math.min(open.length, 2 + 2 * context.factors.files);
  const shippedCount = Math.min(sent.length, 1 + context.factors.files);
  if (openCount < 4 || shippedCount < 1) throw new Error("too few recent orders for cancellation requests");
  const openScenarios = random.shuffle(
    open.slice(0, openCount).map((order, index) => ({
      order,
      scenario: (index < 4
        ? (["cancel", "cancel-shouting", "other-address", "withdrawn"] as const)[index]
        : random.pick([
            "cancel",
            "cancel",
            "cancel-shouting",
            "other-address",
            "withdrawn",
          ] as const)) as Scenario,
    })),
  );
  const planned = random.shuffle([
    ...openScenarios,
    ...sent.slice(0, shippedCount).map((order) => ({ order, scenario: "shipped" })),
  ]);
  planned.forEach(({ order, scenario }, index) => {
    const name = `${order.first_name} ${order.last_name}`;
    const placed = longDate(order.placed_at);
    const sentAt = addMinutes(order.placed_at, random.int(10, 240));
    const address =
      scenario === "cancel-shouting"
        ? order.email.toUpperCase()
        : scenario === "other-address"
          ? `${slug(order.first_name)}.${slug(order.last_name)}${random.int(1, 99)}@${random.pick(["mailbox.example", "fastpost.example", "homenet.example"])}`
          : order.email;
    const file = (kind: string) =>
      `${CANCELLATION_INBOX_DIR}/${sentAt.slice(0, 10)}-${String(index + 1).padStart(2, "0")}-${kind}.eml`;
    const request = random.pick([
      {
        subject: `Cancel order #${order.id}`,
        body: `Hi,\n\nI placed order #${order.id} on ${placed} but I ordered the wrong thing. Please cancel it.\n\nThanks,\n${order.first_name}`,
      },
      {
        subject: "Please cancel my order",
        body: `Hello,\n\nI no longer need the items in order number ${order.id}. Could you cancel it before it goes out? A refund to my card is fine.\n\n${name}`,
      },
      {
        subject: `Order ${order.id}`,
        body: `Hi there, I found the same thing cheaper locally, so please cancel order ${order.id} from ${placed}. Thank you!\n\n${order.first_name}`,
      },
    ]);
    context.writeFile(file("request"), message({ name, address, sentAt, ...request }));
    if (scenario === "withdrawn") {
      const later = addMinutes(sentAt, random.int(20, 100));
      context.writeFile(
        file("follow-up"),
        message({
          name,
          address,
          sentAt: later,
          subject: `Re: ${request.subject}`,
          body: `Hi again,\n\nPlease ignore my earlier message: I've sorted things out and would like to keep order ${order.id} after all. Sorry for the confusion!\n\n${order.first_name}`,
        }),
      );
    }
  });
}

interface ParsedRequest {
  from: string;
  sentAt: string;
  orderId: number;
  withdraw: boolean;
}

function parseCancellationEmail(text: string): ParsedRequest {
  const from = /^From: .*<([^>]+)>/m.exec(text)?.[1] ?? "";
  const sentAt = /^Date: (.+)$/m.exec(text)?.[1]?.trim() ?? "";
  const body = text.slice(text.indexOf("\n\n") + 2);
  const orderId = Number(/\b(2\d{5})\b/.exec(body)?.[1] ?? Number.NaN);
  return { from, sentAt, orderId, withdraw: /ignore my earlier|keep order/i.test(body) };
}

/** Which requested orders must be cancelled and which not, per the procedure. */
export function computeCancellations(
  db: Database.Database,
  emails: string[],
): { cancelled: number[]; notCancelled: number[] } {
  const orderOf = db.prepare(
    "SELECT o.status, c.email FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = ?",
  );
  const latest = new Map<number, ParsedRequest>();
  const requested = new Set<number>();
  for (const request of emails
    .map(parseCancellationEmail)
    .sort((left, right) => left.sentAt.localeCompare(right.sentAt))) {
    const order = orderOf.get(request.orderId) as { status: string; email: string } | undefined;
    if (!order) continue;
    requested.add(request.orderId);
    if (order.email.toLowerCase() === request.from.toLowerCase()) latest.set(request.orderId, request);
  }
  const cancelled: number[] = [];
  for (const [orderId, request] of latest) {
    const { status } = orderOf.get(orderId) as { status: string };
    if (!request.withdraw && (status === "pending" || status === "processing")) cancelled.push(orderId);
  }
  cancelled.sort((left, right) => left - right);
  const notCancelled = [...requested]
    .filter((id) => !cancelled.includes(id))
    .sort((left, right) => left - right);
  return { cancelled, notCancelled };
}
