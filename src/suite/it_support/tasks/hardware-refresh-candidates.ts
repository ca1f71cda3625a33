import type Database from "better-sqlite3";
import {
  addDays,
  type Check,
  check,
  defineTask,
  type GenerateContext,
  parseAnswerJson,
} from "../../../envs/index.js";
import { addBusinessMinutes, minutesToIso } from "../business-time.js";
import { itSupportDomain } from "../domain.js";
import {
  REFRESH_AGE_ASSET_TYPES,
  REFRESH_AGE_TICKET_THRESHOLD,
  REFRESH_AGE_YEARS,
  REFRESH_ELIGIBLE_STATUSES,
  REFRESH_LOOKBACK_DAYS,
  REFRESH_WARRANTY_TICKET_THRESHOLD,
} from "../policy.js";
import { ORACLE_OPENING, flagOracle, snapshotFromHandbook, type FlagNearMiss } from "../oracle-cells.js";
import { checkNamedItems } from "../ticket-checks.js";
import { TicketPlanter, readSnapshotMinutes, holidayDates } from "../task-support.js";
import { statusEvent, type ResolutionCode } from "../ticket-records.js";
import { ASSET_MODELS, SUBJECTS } from "../vocabulary.js";

const DAY = 24 * 60;

/** A planted asset and the days before today of its hardware tickets, each with its resolution code. */
type PlantedAsset = [
  type: string,
  status: string,
  purchasedDaysAgo: number,
  warrantyYears: number,
  tickets: Array<{ daysAgo: number; code: ResolutionCode }>,
];

function yearsBefore(date: string, years: number): string {
  return `${Number(date.slice(0, 4)) - years}${date.slice(4)}`;
}

/**
 * Plants assets on each edge of the refresh policy: warranty rule met, a duplicate ticket that must not
 * count, the age rule (and its exact boundary), a ticket just outside the look-back window, an asset
 * already pending replacement, and a server that only the age rule would catch (it does not apply).
 */
function prepare(context: GenerateContext): void {
  const { db, random, referenceDate } = context;
  const plant = new TicketPlanter(context);
  const holidays = holidayDates(context);
  const { snapshot } = plant;
  const today = referenceDate;
  const ageBoundaryDaysAgo = Math.round(
    (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${yearsBefore(today, REFRESH_AGE_YEARS)}T00:00:00Z`)) /
      86_400_000,
  );
  const fixed = (daysAgo: number): { daysAgo: number; code: ResolutionCode } => ({ daysAgo, code: "fixed" });
  const planted: PlantedAsset[] = [
    ["laptop", "in_service", 1300, 3, [fixed(150), fixed(90), fixed(20)]],
    ["printer", "in_service", 900, 1, [fixed(120), { daysAgo: 119, code: "duplicate" }, fixed(40)]],
    ["desktop", "in_repair", 1900, 5, [fixed(100), fixed(12)]],
    ["laptop", "in_service", ageBoundaryDaysAgo, 5, [fixed(60), fixed(30)]],
    ["server", "in_service", 1500, 3, [fixed(200), fixed(80), fixed(15)]],
    ["laptop", "replacement_pending", 1400, 3, [fixed(160), fixed(110), fixed(50), fixed(9)]],
    ["server", "in_service", 1650, 5, [fixed(70), fixed(25)]],
  ];
  const untouched = db
    .prepare(
      "SELECT id, company_id FROM assets WHERE id NOT IN (SELECT asset_id FROM tickets WHERE asset_id IS NOT NULL) ORDER BY id",
    )
    .all() as Array<{ id: number; company_id: number }>;
  const chosen = random.shuffle(untouched).slice(0, planted.length);
  const endpoint = plant.team("Endpoint Engineering");
  planted.forEach(([type, status, purchasedDaysAgo, warrantyYears, tickets], index) => {
    const row = chosen[index];
    if (!row) return;
    const purchased = addDays(today, -purchasedDaysAgo);
    db.prepare(
      "UPDATE assets SET asset_type = ?, model = ?, purchased_on = ?, warranty_expires_on = ?, status = ? WHERE id = ?",
    ).run(
      type,
      random.pick(ASSET_MODELS[type] as readonly string[]),
      purchased,
      addDays(purchased, 365 * warrantyYears),
      status,
      row.id,
    );
    for (const ticket of tickets) {
      const createdAt = addBusinessMinutes(snapshot - ticket.daysAgo * DAY, random.int(0, 120), holidays);
      const id = plant.reuseId(createdAt, "status IN ('resolved', 'closed') AND created_at < ?", [
        minutesToIso(snapshot - 20 * DAY),
      ]);
      const agent = plant.worker(endpoint);
      const record = plant.record(id, {
        subject: random.pick(SUBJECTS.hardware),
        category: "hardware",
        priority: random.pick(["P2", "P3", "P3", "P4"] as const),
        companyId: row.company_id,
        teamId: endpoint,
        createdAt,
      });
      const firstResponse = createdAt + random.int(15, 90);
      const resolvedAt = addBusinessMinutes(firstResponse, random.int(120, 1200), holidays);
      Object.assign(record, {
        assetId: row.id,
        status: "closed",
        assigneeAgentId: agent,
        firstResponseAt: firstResponse,
        resolvedAt,
        closedAt: resolvedAt + 3 * DAY,
        resolutionCode: ticket.code,
        events: [
          statusEvent(firstResponse, "new", "open", agent),
          statusEvent(resolvedAt, "open", "resolved", agent),
        ],
      });
      plant.write(record);
    }
  });
}

/** Asset tags due for replacement under the hardware refresh policy, sorted. */
export function expectedRefreshTags(db: Database.Database): string[] {
  const today = minutesToIso(readSnapshotMinutes(db)).slice(0, 10);
  const windowStart = `${addDays(today, -REFRESH_LOOKBACK_DAYS)}T00:00:00Z`;
  const ageCutoff = yearsBefore(today, REFRESH_AGE_YEARS);
  const statuses = REFRESH_ELIGIBLE_STATUSES.map((status) => `'${status}'`).join(", ");
  const rows = db
    .prepare(
      `SELECT assets.asset_tag, assets.asset_type, assets.purchased_on, assets.warranty_expires_on,
         (SELECT COUNT(*) FROM tickets WHERE tickets.asset_id = assets.id AND tickets.category = 'hardware'
            AND tickets.created_at >= ? AND COALESCE(tickets.resolution_code, '') != 'duplicate') AS faults
       FROM assets WHERE assets.status IN (${statuses})`,
    )
    .all(windowStart) as Array<{
    asset_tag: string;
    asset_type: string;
    purchased_on: string;
    warranty_expires_on: string;
    faults: number;
  }>;
  return rows
    .filter(
      (asset) =>
        (asset.warranty_expires_on < today && asset.faults >= REFRESH_WARRANTY_TICKET_THRESHOLD) ||
        ((REFRESH_AGE_ASSET_TYPES as readonly string[]).includes(asset.asset_type) &&
          asset.purchased_on <= ageCutoff &&
          asset.faults >= REFRESH_AGE_TICKET_THRESHOLD),
    )
    .map((asset) => asset.asset_tag)
    .sort();
}

/** The near-misses, each the oracle below with one switch on. */
const NEAR_MISSES: FlagNearMiss[] = [
  ["counts-duplicates", "countDuplicates", "Counts tickets closed as duplicates."],
  ["warranty-rule-only", "noAgeRule", "Forgets the age rule for old laptops and desktops."],
  ["whole-history", "ignoreWindow", "Counts tickets older than the 180-day window."],
  ["includes-replacement-pending", "allStatuses", "Reviews assets already pending replacement or retired."],
  ["age-rule-for-servers", "ageRuleForAllTypes", "Applies the age rule to every asset type."],
  [
    "strict-age-boundary",
    "strictAgeBoundary",
    "Requires the purchase to be strictly more than four years ago.",
  ],
];

function cells(flags: string): string[] {
  return [
    `${ORACLE_OPENING}
policy = read_text("policies/hardware-refresh-policy.md")
print(policy)`,
    `${flags}

${snapshotFromHandbook()}
today = now.date()
window_start = today - timedelta(days=180)
age_cutoff = today.replace(year=today.year - 4).isoformat()
filters = {"category": "hardware"}
if not IGNORE_WINDOW:
    filters["created_from"] = window_start.isoformat()
faults = {}
for ticket in fetch_all("list_tickets", "tickets", **filters):
    if ticket["asset_id"] is None:
        continue
    if ticket["resolution_code"] == "duplicate" and not COUNT_DUPLICATES:
        continue
    faults[ticket["asset_id"]] = faults.get(ticket["asset_id"], 0) + 1
print(len(faults), "assets with hardware tickets since", window_start)`,
    `due = []
for asset_id, count in sorted(faults.items()):
    if count < 2:
        continue
    asset = tools.get_asset(asset_id=asset_id)["asset"]
    if asset["status"] not in ("in_service", "in_repair") and not ALL_STATUSES:
        continue
    warranty_rule = asset["warranty_expires_on"] < today.isoformat() and count >= 3
    old = asset["purchased_on"] < age_cutoff if STRICT_AGE_BOUNDARY else asset["purchased_on"] <= age_cutoff
    type_ok = AGE_RULE_FOR_ALL_TYPES or asset["asset_type"] in ("laptop", "desktop")
    age_rule = (not NO_AGE_RULE) and type_ok and old and count >= 2
    if warranty_rule or age_rule:
        due.append(asset["asset_tag"])
print(json.dumps({"asset_tags": sorted(due)}))`,
  ];
}

export const hardwareRefreshCandidatesTask = defineTask({
  id: "it_support.hardware-refresh-candidates",
  domain: itSupportDomain,
  summary:
    "Apply the hardware refresh policy (look-back window, duplicates excluded, warranty and age rules, eligible statuses) to the assets' hardware ticket history.",
  instruction:
    "Endpoint Engineering wants this quarter's hardware refresh list. Apply our hardware refresh policy to the ticket history, with today's data snapshot date (see the service desk handbook) as the review date, and tell me which assets are due for replacement. Reply with only a JSON object {\"asset_tags\": [asset tags sorted alphabetically]}.",
  tools: ["list_tickets", "get_ticket", "list_assets", "get_asset"],
  prepare,
  verify: ({ initial, answer }): Check[] => {
    const expected = expectedRefreshTags(initial.db);
    const parsed = parseAnswerJson(answer) as { asset_tags?: unknown } | null;
    const tags = Array.isArray(parsed?.asset_tags)
      ? parsed.asset_tags.map((tag) => String(tag).trim().toUpperCase())
      : null;
    return [
      check(
        "answer-format",
        tags !== null,
        tags !== null
          ? "answer has asset_tags"
          : `expected {"asset_tags": [...]}, got: ${answer.slice(0, 200)}`,
      ),
      checkNamedItems("asset-tags", tags, expected, "assets"),
    ];
  },
  ...flagOracle(NEAR_MISSES, cells),
});
