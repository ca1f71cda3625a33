import type Database from "better-sqlite3";
import { check, checkStateDiff, defineTask, variantNearMisses } from "../../../envs/index.js";
import {
  CANCELLATION_INBOX_DIR,
  CANCELLATION_PROCEDURE_PATH,
  computeCancellations,
  plantCancellationRequests,
} from "../cancellation-requests.js";
import { retailDomain } from "../domain.js";
import { FETCH_ALL_PY, checkAnswerIdList, py } from "./common.js";

const PROCEDURE = { checkAddress: true, ignoreCase: true, latestWins: true };
type Variant = typeof PROCEDURE;

function cells(variant: Variant): string[] {
  const same = variant.ignoreCase ? "a.lower() == b.lower()" : "a == b";
  return [
    FETCH_ALL_PY,
    `print(read_text("${CANCELLATION_PROCEDURE_PATH}"))
def parse(text):
    body = text[text.index("\\n\\n") + 2:]
    return {
        "from": re.search(r"^From: .*<([^>]+)>", text, re.M).group(1),
        "sent": re.search(r"^Date: (.+)$", text, re.M).group(1).strip(),
        "order": int(re.search(r"\\b(2\\d{5})\\b", body).group(1)),
        "withdraw": bool(re.search(r"ignore my earlier|keep order", body, re.I)),
    }
emails = sorted((parse(read_text(path)) for path in workspace_files("${CANCELLATION_INBOX_DIR}")), key=lambda e: e["sent"])
for email in emails:
    print(email)`,
    `def same_address(a, b):
    return ${same}

orders, customers, latest = {}, {}, {}
for email in emails:
    order = once(orders, email["order"], lambda: tools.get_order(order_id=email["order"]))
    holder = once(customers, order["customer_id"], lambda: tools.get_customer(customer_id=order["customer_id"]))["email"]
    if ${py(variant.checkAddress)} and not same_address(holder, email["from"]):
        print("not from the account holder:", email["order"], email["from"], holder)
        continue
    if not ${py(variant.latestWins)} and email["order"] in latest:
        continue
    latest[email["order"]] = email
cancelled = []
for order_id, email in sorted(latest.items()):
    if email["withdraw"] or orders[order_id]["status"] not in ("pending", "processing"):
        continue
    result = tools.cancel_order(order_id=order_id, reason="customer_request")
    assert result["status"] == "cancelled", result
    cancelled.append(order_id)
not_cancelled = sorted(set(orders) - set(cancelled))`,
    `print(json.dumps({"cancelled": cancelled, "not_cancelled": not_cancelled}))`,
  ];
}

function authorizedPayments(db: Database.Database, orderIds: number[]): number[] {
  const find = db.prepare("SELECT id FROM payments WHERE order_id = ? AND status = 'authorized'");
  return orderIds.flatMap((orderId) => (find.all(orderId) as Array<{ id: number }>).map((row) => row.id));
}

export const customerCancellationRequestsTask = defineTask({
  id: "retail.customer-cancellation-requests",
  domain: retailDomain,
  summary:
    "Work through customers' e-mailed cancellation requests: cancel only orders not yet shipped, only when the e-mail comes from the account holder's address (case-insensitive), and honour a later e-mail withdrawing the request.",
  instruction:
    'Customers have e-mailed us asking to cancel orders; the messages are in the support inbox in the workspace, and our procedure for them is in the policies folder. Handle every request exactly as the procedure says and change nothing else. Reply with only a JSON object with two lists of order ids in ascending order: {"cancelled": [orders you cancelled], "not_cancelled": [orders customers asked about that you did not cancel]}.',
  tools: ["get_order", "list_orders", "get_customer", "list_customers", "cancel_order"],
  prepare: plantCancellationRequests,
  verify: ({ initial, final, answer }) => {
    const emails = initial
      .listFiles()
      .filter((path) => path.startsWith(`${CANCELLATION_INBOX_DIR}/`))
      .map((path) => initial.readFile(path) ?? "");
    const { cancelled, notCancelled } = computeCancellations(initial.db, emails);
    const payments = authorizedPayments(initial.db, cancelled);
    return [
      check("instance-has-requests", cancelled.length > 0, `${cancelled.length} orders to cancel`),
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "orders",
          key: "id",
          changed: new Map(
            cancelled.map((id) => [id, { status: "cancelled", cancel_reason: "customer_request" }]),
          ),
        },
        { table: "payments", key: "id", changed: new Map(payments.map((id) => [id, { status: "voided" }])) },
      ]),
      checkAnswerIdList("answer-cancelled", answer, "cancelled", cancelled),
      checkAnswerIdList("answer-not-cancelled", answer, "not_cancelled", notCancelled),
    ];
  },
  oracle: cells(PROCEDURE),
  nearMisses: variantNearMisses(cells, PROCEDURE, {
    "trusts-any-address": [
      { checkAddress: false },
      "Cancels on a request sent from an address other than the account holder's.",
    ],
    "case-sensitive-address": [
      { ignoreCase: false },
      "Compares addresses case-sensitively and refuses a genuine request written in capitals.",
    ],
    "first-message-wins": [
      { latestWins: false },
      "Acts on the first e-mail and ignores the customer's later withdrawal.",
    ],
  }),
});
