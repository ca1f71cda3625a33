import {
  REFERENCE_DATE,
  addDays,
  allRows,
  check,
  defineTask,
  flagNearMisses,
  nearlyEqual,
  roundCents,
} from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { propertyDomain } from "../domain.js";
import { readAddenda, readRenewalCaps } from "../workspace-facts.js";
import { answerObject } from "./answers.js";
import { PROPERTY_PY } from "./python.js";

/** Renewal rent by lease id for the active leases ending in the next 60 days. */
export function expectedRenewals(state: StateView): Map<string, number> {
  const caps = readRenewalCaps(state);
  const { renewalLimit } = readAddenda(state);
  const leases = allRows<{
    lease_id: string;
    building_id: string;
    monthly_rent: number;
    escalation_pct: number;
  }>(
    state.db,
    `SELECT l.lease_id, u.building_id, l.monthly_rent, l.escalation_pct FROM leases l JOIN units u ON u.unit_id = l.unit_id
      WHERE l.status = 'active' AND l.end_date > ? AND l.end_date <= ? ORDER BY l.lease_id`,
    REFERENCE_DATE,
    addDays(REFERENCE_DATE, 60),
  );
  return new Map(
    leases.map((lease) => {
      const cap = caps.get(lease.building_id);
      if (cap === undefined) throw new Error(`no renewal cap for ${lease.building_id}`);
      const pct = Math.min(lease.escalation_pct, cap, renewalLimit.get(lease.lease_id) ?? Infinity);
      return [lease.lease_id, roundCents(lease.monthly_rent * (1 + pct / 100))];
    }),
  );
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedRenewals(initial);
  if (expected.size === 0) throw new Error("generation produced no lease in the renewal window");
  const object = answerObject(answer);
  const given = object ?? {};
  const missing = [...expected.keys()].filter((id) => !(id in given));
  const extra = Object.keys(given).filter((id) => !expected.has(id));
  const wrong = [...expected]
    .filter(([id, rent]) => id in given && !nearlyEqual(Number(given[id]), rent))
    .map(([id, rent]) => `${id}: expected ${rent.toFixed(2)}, got ${String(given[id])}`);
  return [
    check("answer-is-object", object !== null, "a JSON object of lease id to renewal rent"),
    check(
      "renewal-leases",
      missing.length === 0 && extra.length === 0,
      `expected ${expected.size} leases; missing ${missing.join(", ") || "none"}; not due for renewal ${extra.join(", ") || "none"}`,
    ),
    check(
      "renewal-rents",
      wrong.length === 0,
      wrong.length === 0 ? "every renewal rent is right" : wrong.slice(0, 8).join("; "),
    ),
  ];
}

function cells(near: string[]): string[] {
  return [
    PROPERTY_PY,
    String.raw`
memo = read_text("memos/2025-renewal-caps.md")
caps = {m.group(1): float(m.group(2)) for m in re.finditer(r"^\| (BLD-\d+) \| [^|]+ \| ([\d.]+) \|", memo, re.M)}
due_day, renewal_limit = addendum_terms()
print(caps, renewal_limit)
`,
    String.raw`
today = "${REFERENCE_DATE}"
window_end = add_days(today, ${near.includes("window-off-by-one") ? 59 : 60})
candidates = fetch("list_leases", "leases", status="active", end_from=add_days(today, 1), end_to=window_end)
offers = {}
for summary in candidates:
    lease = call("get_lease", lease_id=summary["lease_id"])["lease"]
    pct = lease["escalation_pct"]
    ${near.includes("ignores-building-cap") ? "" : 'pct = min(pct, caps[lease["building_id"]])'}
    ${near.includes("ignores-addendum-limit") ? "" : 'pct = min(pct, renewal_limit.get(lease["lease_id"], pct))'}
    offers[lease["lease_id"]] = money(lease["monthly_rent"] * (1 + pct / 100))
print(json.dumps(offers, sort_keys=True))
`,
  ];
}

export const renewalOffersTask = defineTask({
  id: "property.renewal-offers",
  domain: propertyDomain,
  summary:
    "Renewal rents for active leases ending in the next 60 days: escalation clause, capped by the building's cap in the asset-management memo and by any addendum limit.",
  instruction:
    'We need to send renewal offers. For every active lease that ends in the next 60 days (end date from tomorrow through 60 days from today, inclusive), work out the renewal rent per the 2025 renewal memo and the lease\'s own terms and addenda. Reply with only a JSON object mapping each lease id to its renewal monthly rent in dollars rounded to cents, e.g. {"L-00012": 1854.3}.',
  tools: ["list_leases", "get_lease", "list_buildings", "get_building", "list_units", "get_unit"],
  verify,
  oracle: cells([]),
  nearMisses: flagNearMisses(cells, [
    ["ignores-building-cap", "Applies the escalation clause without the building's cap."],
    ["window-off-by-one", "Leaves out the lease ending exactly on day 60."],
    ["ignores-addendum-limit", "Misses the renewal limit a lease addendum sets."],
  ]),
});
