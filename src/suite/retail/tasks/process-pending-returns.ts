import {
  allRows,
  check,
  checkNone,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  nearlyEqual,
  checkAnswerTally,
  variantNearMisses,
} from "../../../envs/index.js";
import { retailDomain } from "../domain.js";
import { PATHS, computeReturnDecisions, type ExpectedReturnDecision } from "../expectations.js";
import { FETCH_ALL_PY, changedOutside, checkListed, py, strayRows } from "./common.js";

interface Variant {
  windows: Record<string, number>;
  restockingFee: boolean;
  fraudScreen: boolean;
}

const POLICY_AS_WRITTEN: Variant = {
  windows: { Electronics: 15, Apparel: 45 },
  restockingFee: true,
  fraudScreen: true,
};

function cells(variant: Variant): string[] {
  return [
    FETCH_ALL_PY,
    `policy = read_text("${PATHS.returnsPolicy}")
print(policy)`,
    `watch_rows = list(csv.DictReader(io.StringIO(read_text("${PATHS.watchList}"))))
active_emails = {row["email"].strip().lower() for row in watch_rows if row["status"].strip().lower() == "active"}
pending = fetch_all("list_returns", "returns", status="requested")
print(len(active_emails), "active watch-list entries;", len(pending), "requests waiting")`,
    `WINDOWS = ${JSON.stringify(variant.windows)}
DEFECT_REASONS = {"defective", "damaged_in_transit"}
orders, products, customers = {}, {}, {}
decisions = {"approved": 0, "rejected": 0, "escalated": 0}
log = []
for item in pending:
    rma = tools.get_return(return_id=item["id"])
    order = once(orders, rma["order_id"], lambda: tools.get_order(order_id=rma["order_id"]))
    category = once(products, rma["sku"], lambda: tools.get_product(sku=rma["sku"]))["category"]
    customer = once(customers, order["customer_id"], lambda: tools.get_customer(customer_id=order["customer_id"]))
    email = customer["email"].strip().lower()
    line = next(l for l in order["lines"] if l["line_id"] == rma["order_line_id"])
    value = round(line["line_total"] / line["quantity"] * rma["quantity"], 2)
    window = WINDOWS.get(category, 30)
    if rma["reason"] in DEFECT_REASONS:
        window = max(window, 60)
    age = days_between(order["delivered_at"], rma["requested_at"])
    if ${variant.fraudScreen ? "email in active_emails" : py(false)}:
        tools.escalate_return(return_id=rma["id"], note="Customer is on the active fraud watch list: Risk team review")
        outcome = "escalated"
    elif category == "Gift Cards":
        tools.reject_return(return_id=rma["id"], reason="Gift cards are final sale")
        outcome = "rejected"
    elif category == "Personal Care" and rma["item_condition"] != "unopened":
        tools.reject_return(return_id=rma["id"], reason="Opened personal care items cannot be returned")
        outcome = "rejected"
    elif age > window:
        tools.reject_return(return_id=rma["id"], reason=f"Requested {age} days after delivery; the window is {window} days")
        outcome = "rejected"
    elif value > 400:
        tools.escalate_return(return_id=rma["id"], note=f"Merchandise value {value:.2f} is above the 400.00 approval limit")
        outcome = "escalated"
    else:
        fee = 15 if ${py(variant.restockingFee)} and category == "Electronics" and rma["item_condition"] == "opened" and rma["reason"] not in DEFECT_REASONS else 0
        tools.approve_return(return_id=rma["id"], restocking_fee_percent=fee)
        outcome = "approved"
    decisions[outcome] += 1
    log.append((rma["id"], category, rma["reason"], rma["item_condition"], age, value, outcome))
for entry in log:
    print(entry)`,
    `left = fetch_all("list_returns", "returns", status="requested")
assert not left, left
print(json.dumps(decisions))`,
  ];
}

export const processPendingReturnsTask = defineTask({
  id: "retail.process-pending-returns",
  domain: retailDomain,
  summary:
    "Decide every pending return request (approve with the right restocking fee, reject, or escalate) per the returns policy and the fraud watch list.",
  instruction:
    'Please clear the returns queue: every return request still waiting for a decision (status \'requested\') needs to be approved, rejected or escalated exactly as our returns & refunds policy says, including the fraud watch list check and any restocking fee. Both documents are in the workspace. When you\'re done, reply with only a JSON object counting your decisions: {"approved": <n>, "rejected": <n>, "escalated": <n>}.',
  tools: [
    "list_returns",
    "get_return",
    "get_order",
    "get_product",
    "get_customer",
    "list_customers",
    "approve_return",
    "reject_return",
    "escalate_return",
  ],
  verify: ({ initial, final, answer }) => {
    const expected = computeReturnDecisions(initial.db, initial.readFile(PATHS.watchList) ?? "");
    const finalRows = new Map(
      allRows<{ id: number; status: string; restocking_fee: number }>(
        final.db,
        "SELECT id, status, restocking_fee FROM returns",
      ).map((row) => [row.id, row]),
    );
    const found = (item: ExpectedReturnDecision) => finalRows.get(item.returnId);
    const wrongStatus = expected
      .filter((item) => found(item)?.status !== item.status)
      .map(
        (item) =>
          `${item.returnId}: expected ${item.status} (${item.rule}), found ${found(item)?.status ?? "missing"}`,
      );
    const wrongFees = expected
      .filter(
        (item) =>
          item.status === "approved" &&
          !nearlyEqual(found(item)?.restocking_fee ?? Number.NaN, item.restockingFee),
      )
      .map(
        (item) =>
          `${item.returnId}: expected fee ${item.restockingFee.toFixed(2)}, found ${found(item)?.restocking_fee ?? "missing"}`,
      );
    const expectedIds = new Set(expected.map((item) => String(item.returnId)));
    const stray = strayRows(
      diffTable(initial.db, final.db, "returns", "id"),
      (change) =>
        expectedIds.has(change.key) && !changedOutside(change, ["status", "restocking_fee", "decision_note"]),
    );
    const counts = { approved: 0, rejected: 0, escalated: 0 };
    for (const item of expected) counts[item.status] += 1;
    return [
      check("instance-has-requests", expected.length > 0, `${expected.length} return requests were waiting`),
      checkNone(
        "decisions",
        wrongStatus,
        `all ${expected.length} requests decided as the policy requires`,
        (wrong) => `${wrong.length} wrong decision(s): ${wrong.slice(0, 8).join("; ")}`,
      ),
      checkListed("restocking-fees", wrongFees, "restocking fees match the policy", 8, "wrong fee(s): "),
      checkListed(
        "only-requests-changed",
        stray,
        "only the waiting requests' decision fields changed",
        8,
        "unexpected return changes: ",
        ", ",
      ),
      checkOtherTablesUnchanged(initial.db, final.db, ["returns"]),
      checkAnswerTally(answer, counts),
    ];
  },
  oracle: cells(POLICY_AS_WRITTEN),
  nearMisses: variantNearMisses(cells, POLICY_AS_WRITTEN, {
    "one-window-for-all": [
      { windows: {} },
      "Applies the 30-day standard window to every category (misses Electronics 15 and Apparel 45).",
    ],
    "no-restocking-fee": [
      { restockingFee: false },
      "Approves opened electronics without the 15% restocking fee.",
    ],
    "skips-fraud-screen": [{ fraudScreen: false }, "Never checks the fraud watch list."],
  }),
});
