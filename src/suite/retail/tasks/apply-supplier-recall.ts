import {
  check,
  checkNone,
  checkOtherTablesUnchanged,
  defineTask,
  diffTable,
  parseAnswerList,
  type Check,
} from "../../../envs/index.js";
import { retailDomain } from "../domain.js";
import { PATHS, computeRecallCancellations, readNotices, recallScope } from "../expectations.js";
import { FETCH_ALL_PY, changedOutside, py, strayRows } from "./common.js";

interface Variant {
  applyUpdates: boolean;
  statuses: string[];
  cancel: boolean;
}

const PROCEDURE: Variant = { applyUpdates: true, statuses: ["pending", "processing"], cancel: true };

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
    const scope = recallScope(readNotices(initial));
    const expected = computeRecallCancellations(initial.db, scope);
    const expectedKeys = new Set(expected.map(String));
    const checks: Check[] = [];
    checks.push(
      check(
        "instance-has-affected-orders",
        expected.length > 0,
        `${expected.length} open orders hold recalled SKUs`,
      ),
    );
    const orders = diffTable(initial.db, final.db, "orders", "id");
    const finalOrders = new Map(
      (
        final.db.prepare("SELECT id, status, cancel_reason FROM orders").all() as Array<{
          id: number;
          status: string;
          cancel_reason: string | null;
        }>
      ).map((row) => [row.id, row]),
    );
    const notCancelled = expected.filter((id) => {
      const row = finalOrders.get(id);
      return row?.status !== "cancelled" || row.cancel_reason !== "supplier_recall";
    });
    checks.push(
      checkNone(
        "affected-orders-cancelled",
        notCancelled.map(String),
        `all ${expected.length} affected orders cancelled with reason supplier_recall`,
        (ids) => `not cancelled with reason supplier_recall: ${ids.slice(0, 10).join(", ")}`,
      ),
    );
    const strayOrders = strayRows(
      orders,
      (change) => expectedKeys.has(change.key) && !changedOutside(change, ["status", "cancel_reason"]),
    );
    checks.push(
      checkNone(
        "no-other-orders-changed",
        strayOrders,
        "no other order changed",
        (stray) => `orders that should not change: ${stray.slice(0, 10).join(", ")}`,
      ),
    );
    const payments = diffTable(initial.db, final.db, "payments", "id");
    const paymentProblems = strayRows(
      payments,
      (change) =>
        expectedKeys.has(String(change.after.order_id)) &&
        change.after.status === "voided" &&
        !changedOutside(change, ["status"]),
      "payment",
    );
    const unvoided = (
      final.db.prepare("SELECT order_id, status FROM payments").all() as Array<{
        order_id: number;
        status: string;
      }>
    ).filter((row) => expectedKeys.has(String(row.order_id)) && row.status === "authorized");
    checks.push(
      checkNone(
        "payments-voided",
        [...paymentProblems, ...unvoided.map((row) => `still authorized for ${row.order_id}`)],
        "exactly the cancelled orders' authorizations were voided",
        (problems) => `payment problems: ${problems.slice(0, 10).join(", ")}`,
      ),
    );
    checks.push(checkOtherTablesUnchanged(initial.db, final.db, ["orders", "payments"]));
    const answered = [...new Set(parseAnswerList(answer).map((item) => item.replace(/\D/g, "")))].filter(
      Boolean,
    );
    const matches =
      answered.length === expected.length && answered.every((item) => expectedKeys.has(String(Number(item))));
    checks.push(
      check(
        "answer-lists-cancelled-orders",
        matches,
        `expected ${JSON.stringify(expected)}, found ${answer.trim().slice(0, 300) || "(empty answer)"}`,
      ),
    );
    return checks;
  },
  oracle: cells(PROCEDURE),
  nearMisses: [
    {
      id: "ignores-recall-updates",
      description:
        "Uses only the original recall notices, missing SKUs removed from or added to the scope later.",
      cells: cells({ ...PROCEDURE, applyUpdates: false }),
    },
    {
      id: "pending-only",
      description: "Cancels pending orders but leaves processing (not yet shipped) orders alone.",
      cells: cells({ ...PROCEDURE, statuses: ["pending"] }),
    },
    {
      id: "reports-without-cancelling",
      description: "Lists the right orders but never cancels them.",
      cells: cells({ ...PROCEDURE, cancel: false }),
    },
  ],
});
