import { check, checkStateDiff, defineTask, variantNearMisses } from "../../../envs/index.js";
import { computeCarrierSync, plantCarrierTracking } from "../carrier.js";
import { retailDomain } from "../domain.js";
import { FETCH_ALL_PY, checkAnswerIdList } from "./common.js";

const CAREFUL = {
  detectSilentErrors: true,
  deliveryScanTime: true,
  deliveredStatuses: ["delivered"],
};
type Variant = typeof CAREFUL;

function cells(variant: Variant): string[] {
  const lookup = variant.detectSilentErrors
    ? `def track(order_id):
    for attempt in range(5):
        result = tools.get_carrier_tracking(order_id=order_id)
        if result.get("status") != "error" and "events" in result:
            return result
        print("retrying", order_id, result)
    raise RuntimeError(f"tracking for {order_id} kept failing")`
    : `def track(order_id):
    return tools.get_carrier_tracking(order_id=order_id)`;
  const when = variant.deliveryScanTime
    ? `next(event["at"] for event in tracking["events"] if event["code"] == "DELIVERED")`
    : `tracking["events"][-1]["at"]`;
  return [
    FETCH_ALL_PY,
    `${lookup}

shipped = fetch_all("list_orders", "orders", status="shipped")
print(len(shipped), "orders shown as shipped")
trackings = {order["id"]: track(order["id"]) for order in shipped}
for order_id, tracking in trackings.items():
    print(order_id, tracking.get("status"), [event.get("code") for event in tracking.get("events", [])])`,
    `DELIVERED = ${JSON.stringify(variant.deliveredStatuses)}
delivered, exceptions = [], []
for order_id, tracking in sorted(trackings.items()):
    if tracking.get("status") == "exception":
        exceptions.append(order_id)
    if tracking.get("status") in DELIVERED:
        when = ${when} if any(event["code"] == "DELIVERED" for event in tracking["events"]) else tracking["events"][-1]["at"]
        result = tools.mark_order_delivered(order_id=order_id, delivered_at=when)
        assert result["status"] == "delivered", result
        delivered.append(order_id)
print(json.dumps({"delivered": delivered, "exceptions": exceptions}))`,
  ];
}

export const syncCarrierDeliveriesTask = defineTask({
  id: "retail.sync-carrier-deliveries",
  domain: retailDomain,
  summary:
    "Reconcile every order still shown as shipped with the carrier's tracking API (which sometimes answers with an error in an ordinary body), mark the delivered ones with the time of the delivery scan, and report the carrier exceptions.",
  instruction:
    'Our carrier status sync has been failing for a few days, so some orders still show as shipped although the carrier has already delivered them. Check every order we show as shipped against the carrier\'s tracking, and mark each one the carrier has delivered as delivered, with the time of the carrier\'s delivery scan (not of any later scan). Don\'t change anything else. Reply with only a JSON object with two lists of order ids in ascending order: {"delivered": [the orders you marked delivered], "exceptions": [the orders whose shipment the carrier reports as an exception]}.',
  tools: ["list_orders", "get_order", "get_carrier_tracking", "mark_order_delivered"],
  prepare: plantCarrierTracking,
  verify: ({ initial, final, answer }) => {
    const { delivered, exceptions } = computeCarrierSync(initial.db);
    const changed = new Map(
      [...delivered].map(([id, at]) => [id, { status: "delivered", delivered_at: at }]),
    );
    return [
      check("instance-has-deliveries", delivered.size > 0, `${delivered.size} deliveries to record`),
      ...checkStateDiff(initial.db, final.db, [{ table: "orders", key: "id", changed }]),
      checkAnswerIdList(
        "answer-delivered",
        answer,
        "delivered",
        [...delivered.keys()].sort((a, b) => a - b),
      ),
      checkAnswerIdList("answer-exceptions", answer, "exceptions", exceptions),
    ];
  },
  oracle: cells(CAREFUL),
  nearMisses: variantNearMisses(cells, CAREFUL, {
    "trusts-every-response": [
      { detectSilentErrors: false },
      "Takes every tracking response at face value: a timed-out lookup (an error body) reads as 'not delivered'.",
    ],
    "latest-scan-time": [
      { deliveryScanTime: false },
      "Records the time of the latest scan (the proof-of-delivery upload) as the delivery time.",
    ],
    "out-for-delivery-counts": [
      { deliveredStatuses: ["delivered", "out_for_delivery"] },
      "Marks orders that are out for delivery as delivered too.",
    ],
  }),
});
