import type Database from "better-sqlite3";
import {
  addDays,
  checkStateDiff,
  defineTask,
  variantNearMisses,
  type Check,
  type GenerateContext,
  type VerifyContext,
} from "../../../envs/index.js";
import { itSupportDomain } from "../domain.js";
import type { Priority } from "../policy.js";
import { PYTHON_HELPERS } from "../oracle-cells.js";
import { TicketPlanter } from "../task-support.js";
import { statusEvent } from "../ticket-records.js";
import { SUBJECTS } from "../vocabulary.js";

export const WARRANTY_POLICY_PATH = "policies/vendor-warranty-repairs.md";
const HOURS = 60;

const POLICY = `# Vendor warranty repairs

Owner: Endpoint Engineering.

Hardware still under the vendor's warranty is repaired by the vendor, not by us. Every morning the
desk checks the hardware queue and hands covered repairs to the vendors:

1. **Which tickets**: hardware tickets (category \`hardware\`) linked to an asset, in status \`new\` or
   \`open\`. Tickets waiting on the customer (\`pending\`) or already \`on_hold\` are left alone.
2. **Coverage**: look the asset up in the vendor warranty portal (\`get_vendor_warranty\`). The portal is
   authoritative: the asset register only shows the original warranty, and extended plans bought later
   appear only in the portal. An asset is covered when the portal's coverage end date is today or later
   (the last covered day is included). Today is the date of the data snapshot (service desk handbook).
3. **P1 exception**: P1 tickets are never handed to a vendor; Endpoint Engineering fixes them directly.
4. **Hand-over**: put each covered ticket \`on_hold\` (waiting on a third party) with a note naming the
   vendor and the plan, e.g. "Vendor warranty case: Dell ProSupport". Do not reassign, escalate or
   comment otherwise.
`;

/**
 * A planted repair: days from today of the asset register's warranty end and of the portal's coverage end
 * (-1: the register's date), the plan the portal shows, and whether the asset's tag must be one the portal
 * times out on first.
 */
type PlantedRepair = [
  priority: Priority,
  status: "new" | "open" | "pending",
  registerDays: number,
  portalDays: number,
  plan: string,
  coldTag: boolean,
];

function vendorOf(model: string): string {
  return model.split(" ")[0] ?? model;
}

/**
 * Fills the portal from the asset register (standard plans end with the register's warranty) and plants,
 * per row factor, hardware tickets on each edge: an extended plan the register does not show, coverage
 * ending exactly today, a covered asset the portal times out on, a covered P1, an expired asset, a
 * covered ticket waiting on the customer, and an asset whose register date is still running although the
 * portal's coverage has ended (the register was keyed from the invoice; the portal is authoritative).
 */
function prepare(context: GenerateContext): void {
  const { db, random, factors, referenceDate } = context;
  const plant = new TicketPlanter(context);
  context.writeFile(WARRANTY_POLICY_PATH, POLICY);
  const { snapshot } = plant;
  const endpoint = plant.team("Endpoint Engineering");
  const assets = db
    .prepare(
      "SELECT id, asset_tag, company_id, model FROM assets WHERE asset_type IN ('laptop', 'desktop') AND status = 'in_service' ORDER BY id",
    )
    .all() as Array<{ id: number; asset_tag: string; company_id: number; model: string }>;
  const setRegister = db.prepare("UPDATE assets SET warranty_expires_on = ? WHERE id = ?");
  const usedAssets = new Set<number>();
  const portal = new Map<string, { plan: string; ends: string }>();
  const cases: PlantedRepair[] = [];
  for (let copy = 0; copy < factors.rows; copy += 1) {
    cases.push(
      ["P3", "open", -random.int(20, 200), random.int(30, 400), "extended", false],
      ["P2", "open", 0, 0, "standard", false],
      [random.pick(["P2", "P3", "P4"] as const), "new", random.int(10, 300), -1, "standard", true],
      ["P1", "open", random.int(30, 300), -1, "standard", false],
      ["P3", "open", -random.int(1, 90), -1, "standard", false],
      ["P3", "open", random.int(30, 300), -random.int(5, 60), "standard", false],
      ["P4", "pending", random.int(30, 300), -1, "standard", false],
    );
  }
  for (const [priority, status, registerDays, portalDays, plan, coldTag] of cases) {
    const options = assets.filter(
      (asset) => !usedAssets.has(asset.id) && /[147]$/.test(asset.asset_tag) === coldTag,
    );
    const asset = random.pick(
      options.length > 0 ? options : assets.filter((item) => !usedAssets.has(item.id)),
    );
    usedAssets.add(asset.id);
    const register = addDays(referenceDate, registerDays);
    setRegister.run(register, asset.id);
    const vendor = vendorOf(asset.model);
    portal.set(asset.asset_tag, {
      plan: plan === "extended" ? `${vendor} extended care` : `${vendor} standard`,
      ends: portalDays === -1 ? register : addDays(referenceDate, portalDays),
    });
    const createdAt = snapshot - random.int(3, 60) * HOURS;
    const id = plant.reuseId(createdAt, "status = 'closed'");
    const agent = plant.worker(endpoint);
    const record = plant.record(id, {
      subject: random.pick(SUBJECTS.hardware),
      category: "hardware",
      priority,
      companyId: asset.company_id,
      teamId: endpoint,
      createdAt,
    });
    record.assetId = asset.id;
    record.status = status;
    if (status !== "new") {
      record.assigneeAgentId = agent;
      record.firstResponseAt = createdAt + 20;
      record.events.push(statusEvent(createdAt + 20, "new", "open", agent));
      if (status === "pending")
        record.events.push(statusEvent(createdAt + 20 + random.int(1, 2) * HOURS, "open", "pending", agent));
    }
    plant.write(record);
  }
  const insert = db.prepare(
    "INSERT INTO vendor_warranties (asset_tag, vendor, plan, coverage_ends_on) VALUES (?, ?, ?, ?)",
  );
  for (const asset of db
    .prepare("SELECT asset_tag, model, warranty_expires_on FROM assets ORDER BY id")
    .all() as Array<{ asset_tag: string; model: string; warranty_expires_on: string }>) {
    const planted = portal.get(asset.asset_tag);
    insert.run(
      asset.asset_tag,
      vendorOf(asset.model),
      planted?.plan ?? `${vendorOf(asset.model)} standard`,
      planted?.ends ?? asset.warranty_expires_on,
    );
  }
}

/** Tickets the policy hands to a vendor, from the initial state. */
export function expectedVendorHolds(db: Database.Database): number[] {
  const today = (
    db.prepare("SELECT value FROM service_desk_settings WHERE key = 'snapshot_at'").get() as { value: string }
  ).value.slice(0, 10);
  return (
    db
      .prepare(
        `SELECT t.id FROM tickets t JOIN assets a ON a.id = t.asset_id JOIN vendor_warranties w ON w.asset_tag = a.asset_tag
         WHERE t.category = 'hardware' AND t.status IN ('new', 'open') AND t.priority != 'P1' AND w.coverage_ends_on >= ?
         ORDER BY t.id`,
      )
      .all(today) as Array<{ id: number }>
  ).map((row) => row.id);
}

function verify({ initial, final }: VerifyContext): Check[] {
  const expected = expectedVendorHolds(initial.db);
  return checkStateDiff(initial.db, final.db, [
    {
      table: "tickets",
      key: "id",
      changed: new Map(expected.map((id) => [id, { status: "on_hold" }])),
      ignoreColumns: ["updated_at", "first_response_at"],
    },
    {
      table: "ticket_events",
      key: "id",
      added: expected.map((id) => ({ ticket_id: id, event_type: "status_change", to_value: "on_hold" })),
    },
  ]);
}

interface WarrantyVariant {
  checkStatus: boolean;
  portal: boolean;
  inclusiveEnd: boolean;
  p1Exception: boolean;
  /** Whether the portal decides even when the asset register still shows a running warranty. */
  portalOverRegister: boolean;
}

function warrantyCells(variant: WarrantyVariant): string[] {
  const lookup = variant.checkStatus
    ? `def warranty(tag):
    for attempt in range(5):
        result = tools.get_vendor_warranty(asset_tag=tag)
        if result.get("status") == "ok":
            return result
        print("portal:", result.get("error"))
    raise RuntimeError("vendor portal kept failing for " + tag)`
    : `def warranty(tag):
    return tools.get_vendor_warranty(asset_tag=tag)`;
  return [
    `${PYTHON_HELPERS}
handbook = read_text("policies/service-desk-handbook.md")
print(read_text("policies/vendor-warranty-repairs.md"))
today = re.search(r"captured at \\*\\*(\\d{4}-\\d\\d-\\d\\d)T", handbook).group(1)
queue = [t for status in ("new", "open") for t in fetch_all("list_tickets", "tickets", category="hardware", status=status)]
queue = [t for t in queue if t["asset_id"] is not None]
print("today", today, len(queue), "hardware tickets with an asset")`,
    `${lookup}

held = []
for ticket in queue:
    if ${variant.p1Exception ? 'ticket["priority"] == "P1"' : "False"}:
        continue
    asset = tools.get_asset(asset_id=ticket["asset_id"])["asset"]
    record = warranty(asset["asset_tag"])
    ends = ${variant.portal ? 'record.get("coverage_ends_on")' : 'asset["warranty_expires_on"]'}${variant.portalOverRegister ? "" : '\n    if asset["warranty_expires_on"] >= today:\n        ends = asset["warranty_expires_on"]'}
    if ends is None or not (ends ${variant.inclusiveEnd ? ">=" : ">"} today):
        continue
    plan = record.get("plan") or record.get("vendor") or "vendor"
    tools.update_ticket_status(ticket_id=ticket["id"], status="on_hold", note=f"Vendor warranty case: {plan}")
    held.append(ticket["id"])
print(len(held), "handed to vendors:", held)`,
    `print("done")`,
  ];
}

const FULL: WarrantyVariant = {
  checkStatus: true,
  portal: true,
  inclusiveEnd: true,
  p1Exception: true,
  portalOverRegister: true,
};

export const vendorWarrantyHoldsTask = defineTask({
  id: "it_support.vendor-warranty-holds",
  domain: itSupportDomain,
  summary:
    "Hand covered hardware repairs to the vendors: new/open hardware tickets whose asset the vendor portal (which sometimes answers with an error body) covers through today, P1s excepted, go on hold; checked by state difference.",
  instruction:
    "Please do this morning's vendor warranty hand-over: apply our vendor warranty repair policy (policies folder) to the hardware queue as of the data snapshot and put every ticket it covers on hold as the policy says. Leave everything else untouched. Reply 'done' when finished.",
  tools: [
    "list_tickets",
    "get_ticket",
    "list_assets",
    "get_asset",
    "get_vendor_warranty",
    "update_ticket_status",
  ],
  prepare,
  verify,
  oracle: warrantyCells(FULL),
  nearMisses: variantNearMisses(warrantyCells, FULL, {
    "misses-silent-errors": [
      { checkStatus: false },
      "Takes the portal's error answers as 'no coverage' instead of checking `status` and retrying.",
    ],
    "uses-asset-register": [
      { portal: false },
      "Judges coverage by the asset register's warranty date, missing extended plans.",
    ],
    "excludes-last-day": [{ inclusiveEnd: false }, "Treats coverage ending today as expired."],
    "ignores-p1-exception": [{ p1Exception: false }, "Hands P1 tickets to the vendor too."],
    "trusts-running-register": [
      { portalOverRegister: false },
      "Takes a warranty the asset register still shows as running as coverage, without the portal's word.",
    ],
  }),
});
