import {
  allRows,
  check,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  parseAnswerList,
  variantNearMisses,
} from "../../../envs/index.js";
import { retailDomain } from "../domain.js";
import { PATHS, computeRecallCancellations, readNotices, recallScope } from "../expectations.js";
import { FETCH_ALL_PY, changedOutside, checkListed, py, strayRows } from "./common.js";

const PROCEDURE = { applyUpdates: true, statuses: ["pending", "processing"], cancel: true };
type Variant = typeof PROCEDURE;

function cells(variant: Variant): string[] {
  return [
    FETCH_ALL_PY,
    `print(read_text("${PATHS.recallProcedure}"))`,
    `def parse_notice(text):
    notice = {
        "id": re.search(r"SN-\\d{4}-\\d{3}", text).group(0),
        "issued": re.search(r"Issued:\\s*(\\d{4}-\\d{2}-\\d{2})", text).group(1),
        "type": re.search(r"Notice type:\\s*(.+)", text).group(1).strip(),
        "sections": {},
    }
    section = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip().lower()
            continue
        match = re.match(r"\\|\\s*([A-Z]{3}-\\d{4})\\s*\\|", line)
        if section and match:
            notice["sections"].setdefault(section, []).append(match.group(1))
    return notice

notices = sorted((parse_notice(read_text(path)) for path in workspace_files("${PATHS.noticesDir}")), key=lambda n: (n["issued"], n["id"]))
scope = set()
for notice in notices:
    if notice["type"] == "Product recall":
        scope |= set(notice["sections"].get("affected products", []))
    elif notice["type"].startswith("Recall update") and ${py(variant.applyUpdates)}:
        scope -= set(notice["sections"].get("removed from recall scope", []))
        scope |= set(notice["sections"].get("added to recall scope", []))
    print(notice["id"], notice["issued"], notice["type"], notice["sections"])
print("recall scope:", sorted(scope))`,
    `OPEN_STATUSES = ${JSON.stringify(variant.statuses)}
to_cancel = set()
for sku in sorted(scope):
    for order in fetch_all("list_orders", "orders", sku=sku):
        if order["status"] in OPEN_STATUSES:
            to_cancel.add(order["id"])
print(len(to_cancel), "orders to cancel")
cancelled = []
for order_id in sorted(to_cancel):
    if ${py(variant.cancel)}:
        result = tools.cancel_order(order_id=order_id, reason="supplier_recall")
        assert result["status"] == "cancelled", result
    cancelled.append(order_id)`,
    `for order_id in cancelled:
    order = tools.get_order(order_id=order_id)
    print(order_id, order["status"], order["cancel_reason"], order["payment"]["status"])`,
    `print(json.dumps(sorted(cancelled)))`,
  ];
}

export const applySupplierRecallTask = defineTask({
  id: "retail.apply-supplier-recall",
  domain: retailDomain,
  summary:
    "Work out the current recall scope from the supplier notices (recalls amended by updates, ignoring informational notices) and cancel the unshipped orders that contain a recalled SKU.",
  instruction:
    "Our suppliers have sent notices (they're in the notices folder of the workspace). Apply the product recalls following our supplier recall procedure, which is also in the workspace: cancel every order the procedure says must be cancelled, and nothing else. Reply with only a JSON array of the ids of the orders you cancelled, in ascending order.",
  tools: ["list_orders", "get_order", "cancel_order", "list_products", "get_product"],
  verify: ({ initial, final, answer }) => {
    const expected = computeRecallCancellations(initial.db, recallScope(readNotices(initial)));
    const expectedKeys = new Set(expected.map(String));
    const finalOrders = new Map(
      allRows<{ id: number; status: string; cancel_reason: string | null }>(
        final.db,
        "SELECT id, status, cancel_reason FROM orders",
      ).map((row) => [row.id, row]),
    );
    const notCancelled = expected.filter((id) => {
      const row = finalOrders.get(id);
      return row?.status !== "cancelled" || row.cancel_reason !== "supplier_recall";
    });
    const strayOrders = strayRows(
      diffTable(initial.db, final.db, "orders", "id"),
      (change) => expectedKeys.has(change.key) && !changedOutside(change, ["status", "cancel_reason"]),
    );
    const paymentProblems = strayRows(
      diffTable(initial.db, final.db, "payments", "id"),
      (change) =>
        expectedKeys.has(String(change.after.order_id)) &&
        change.after.status === "voided" &&
        !changedOutside(change, ["status"]),
      "payment",
    );
    const unvoided = allRows<{ order_id: number; status: string }>(
      final.db,
      "SELECT order_id, status FROM payments",
    ).filter((row) => expectedKeys.has(String(row.order_id)) && row.status === "authorized");
    const answered = [...new Set(parseAnswerList(answer).map((item) => item.replace(/\D/g, "")))].filter(
      Boolean,
    );
    const matches =
      answered.length === expected.length && answered.every((item) => expectedKeys.has(String(Number(item))));
    return [
      check(
        "instance-has-affected-orders",
        expected.length > 0,
        `${expected.length} open orders hold recalled SKUs`,
      ),
      checkListed(
        "affected-orders-cancelled",
        notCancelled.map(String),
        `all ${expected.length} affected orders cancelled with reason supplier_recall`,
        10,
        "not cancelled with reason supplier_recall: ",
        ", ",
      ),
      checkListed(
        "no-other-orders-changed",
        strayOrders,
        "no other order changed",
        10,
        "orders that should not change: ",
        ", ",
      ),
      checkListed(
        "payments-voided",
        [...paymentProblems, ...unvoided.map((row) => `still authorized for ${row.order_id}`)],
        "exactly the cancelled orders' authorizations were voided",
        10,
        "payment problems: ",
        ", ",
      ),
      checkOtherTablesUnchanged(initial.db, final.db, ["orders", "payments"]),
      check(
        "answer-lists-cancelled-orders",
        matches,
        `expected ${JSON.stringify(expected)}, found ${answer.trim().slice(0, 300) || "(empty answer)"}`,
      ),
    ];
  },
  oracle: cells(PROCEDURE),
  nearMisses: variantNearMisses(cells, PROCEDURE, {
    "ignores-recall-updates": [
      { applyUpdates: false },
      "Uses only the original recall notices, missing SKUs removed from or added to the scope later.",
    ],
    "pending-only": [
      { statuses: ["pending"] },
      "Cancels pending orders but leaves processing (not yet shipped) orders alone.",
    ],
    "reports-without-cancelling": [{ cancel: false }, "Lists the right orders but never cancels them."],
  }),
});
