import { check, checkStateDiff, defineTask, type Check } from "../../../envs/index.js";
import { computeCarrierSync, plantCarrierTracking } from "../carrier.js";
import { retailDomain } from "../domain.js";
import { FETCH_ALL_PY, checkAnswerIdList } from "./common.js";

interface Variant {
  detectSilentErrors: boolean;
  deliveryScanTime: boolean;
  deliveredStatuses: string[];
}

const CAREFUL: Variant = {
  detectSilentErrors: true,
  deliveryScanTime: true,
  deliveredStatuses: ["delivered"],
};

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
    const expected = computeCarrierSync(initial.db);
    const checks: Check[] = [
      check(
        "instance-has-deliveries",
        expected.delivered.size > 0,
        `${expected.delivered.size} deliveries to record`,
      ),
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "orders",
          key: "id",
          changed: new Map(
            [...expected.delivered].map(([id, at]) => [id, { status: "delivered", delivered_at: at }]),
          ),
        },
      ]),
    ];
    const wantDelivered = [...expected.delivered.keys()].sort((a, b) => a - b);
    checks.push(
      checkAnswerIdList("answer-delivered", answer, "delivered", wantDelivered),
      checkAnswerIdList("answer-exceptions", answer, "exceptions", expected.exceptions),
    );
    return checks;
  },
  oracle: cells(CAREFUL),
  nearMisses: [
    {
      id: "trusts-every-response",
      description:
        "Takes every tracking response at face value: a timed-out lookup (an error body) reads as 'not delivered'.",
      cells: cells({ ...CAREFUL, detectSilentErrors: false }),
    },
    {
      id: "latest-scan-time",
      description: "Records the time of the latest scan (the proof-of-delivery upload) as the delivery time.",
      cells: cells({ ...CAREFUL, deliveryScanTime: false }),
    },
    {
      id: "out-for-delivery-counts",
      description: "Marks orders that are out for delivery as delivered too.",
      cells: cells({ ...CAREFUL, deliveredStatuses: ["delivered", "out_for_delivery"] }),
    },
  ],
});
