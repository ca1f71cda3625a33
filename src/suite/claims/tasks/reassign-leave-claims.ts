import { defineClaimsTask } from "./common.js";
import {
  allRows,
  check,
  answerListItems,
  answerObjectEntries,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import type Database from "better-sqlite3";
import { ASSIGNMENT_GUIDELINE_PATH, STAFF_MEMO_PATH, parseCaseloadCaps, parseOnLeave } from "../rules.js";
import { claimChanges } from "./common.js";

interface Plan {
  /** Claim id -> the adjuster it moves to, in the order the guideline processes them. */
  moves: Map<string, string>;
  /** Claims nobody could take. */
  unassigned: string[];
}

/** The assignment guideline run over the on-leave adjuster's open claims. */
function planReassignment(db: Database.Database, onLeave: string, caps: Map<string, number>): Plan {
  const adjusters = allRows<{ adjuster_id: string; region: string; licensed_states: string; status: string }>(
    db,
    "SELECT adjuster_id, region, licensed_states, status FROM adjusters ORDER BY adjuster_id",
  );
  const caseload = new Map(
    allRows<{ adjuster_id: string; n: number }>(
      db,
      "SELECT adjuster_id, COUNT(*) AS n FROM claims WHERE status = 'open' AND adjuster_id IS NOT NULL GROUP BY adjuster_id",
    ).map((row) => [row.adjuster_id, row.n]),
  );
  const claims = allRows<{ claim_id: string; loss_state: string }>(
    db,
    "SELECT claim_id, loss_state FROM claims WHERE adjuster_id = ? AND status = 'open' ORDER BY reported_date, claim_id",
    onLeave,
  );
  const moves = new Map<string, string>();
  const unassigned: string[] = [];
  for (const claim of claims) {
    let best: { id: string; load: number } | null = null;
    for (const adjuster of adjusters) {
      if (adjuster.status !== "active" || adjuster.adjuster_id === onLeave) continue;
      if (!adjuster.licensed_states.split(",").includes(claim.loss_state)) continue;
      const load = caseload.get(adjuster.adjuster_id) ?? 0;
      if (load >= (caps.get(adjuster.region) ?? 0)) continue;
      if (!best || load < best.load) best = { id: adjuster.adjuster_id, load };
    }
    if (!best) unassigned.push(claim.claim_id);
    else {
      moves.set(claim.claim_id, best.id);
      caseload.set(best.id, best.load + 1);
    }
  }
  return { moves, unassigned };
}

const CAP_OFFSETS: Record<string, number> = { North: 1, Central: 2, South: 0 };

/**
 * Sets this instance's caseload caps so that they matter: the largest caps (North one above South,
 * Central two above) at which some claim of the on-leave adjuster still finds every licensed colleague at
 * their cap. The guideline's table is rewritten with them; the rest of the document stays as generated.
 */
function prepare(context: GenerateContext): void {
  const onLeave = parseOnLeave(context.readFile(STAFF_MEMO_PATH) ?? "");
  const guideline = context.readFile(ASSIGNMENT_GUIDELINE_PATH) ?? "";
  if (!onLeave || !guideline) throw new Error("the staff memo or the assignment guideline is missing");
  const capsAt = (base: number) =>
    new Map(Object.entries(CAP_OFFSETS).map(([region, offset]) => [region, base + offset]));
  const unlimited = planReassignment(context.db, onLeave, capsAt(1_000_000)).unassigned.length;
  let base = 0;
  for (let candidate = 1; candidate < 500; candidate += 1)
    if (planReassignment(context.db, onLeave, capsAt(candidate)).unassigned.length > unlimited)
      base = candidate;
  if (base === 0) throw new Error("no caseload cap leaves a claim without a taker");
  let text = guideline;
  for (const [region, cap] of capsAt(base)) {
    const row = new RegExp(`^\\| ${region} \\| \\d+ \\|$`, "m");
    if (!row.test(text)) throw new Error(`the assignment guideline has no cap row for ${region}`);
    text = text.replace(row, `| ${region} | ${cap} |`);
  }
  context.writeFile(ASSIGNMENT_GUIDELINE_PATH, text);
}

export function expectedReassignment(state: StateView): Plan & { onLeave: string } {
  const onLeave = parseOnLeave(state.readFile(STAFF_MEMO_PATH) ?? "");
  const caps = parseCaseloadCaps(state.readFile(ASSIGNMENT_GUIDELINE_PATH) ?? "");
  if (!onLeave || caps.size === 0) throw new Error("the staff memo or the caps lost their content");
  return { ...planReassignment(state.db, onLeave, caps), onLeave };
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedReassignment(initial);
  if (expected.moves.size === 0) throw new Error("generation produced no claim to reassign");
  const entries = answerObjectEntries(answer, "reassigned");
  const given =
    entries &&
    new Map(
      entries.map(([claim, adjuster]) => [claim.trim().toUpperCase(), String(adjuster).trim().toUpperCase()]),
    );
  const mapOk =
    given !== null &&
    given.size === expected.moves.size &&
    [...expected.moves].every(([claim, adjuster]) => given.get(claim) === adjuster);
  const left =
    answerListItems(answer, "unassigned")
      ?.map((item) => item.toUpperCase())
      .sort() ?? null;
  const leftOk = left !== null && JSON.stringify(left) === JSON.stringify([...expected.unassigned].sort());
  return [
    ...claimChanges(
      { initial, final },
      [...expected.moves].map(([claim, adjuster]) => [claim, { adjuster_id: adjuster }]),
      [...expected.moves].map(([claim, adjuster]) => ({
        claim_id: claim,
        body: `Reassigned from ${expected.onLeave} to ${adjuster}`,
      })),
    ),
    check(
      "answer-reassigned",
      mapOk,
      mapOk
        ? `answer maps the ${expected.moves.size} reassigned claims`
        : `expected "reassigned" to map ${expected.moves.size} claims to their new adjusters, found '${answer.slice(0, 200)}'`,
    ),
    check(
      "answer-unassigned",
      leftOk,
      leftOk
        ? `answer lists the ${expected.unassigned.length} claims nobody could take`
        : `expected "unassigned": ${JSON.stringify(expected.unassigned)}, found '${answer.slice(0, 200)}'`,
    ),
  ];
}

interface Variant {
  staticCaseload?: boolean;
  ignoreLicenses?: boolean;
  claimIdOrder?: boolean;
  ignoreCaps?: boolean;
  capInclusive?: boolean;
}

function cells(variant: Variant = {}): string[] {
  return [
    String.raw`
memo = read_text("memos/staff-leave.md")
print(memo)
on_leave = re.search(r"\*\*(ADJ-\d+)\*\*[^\n]*begins leave", memo).group(1)
guideline = read_text("guidelines/adjuster-assignment.md")
print(guideline)
caps = {region: int(cap) for region, cap in md_table(guideline, "Caseload caps")}
adjusters = fetch_all("list_adjusters", "adjusters")
caseload = {a["adjuster_id"]: a["open_caseload"] for a in adjusters}
claims = fetch_all("list_claims", "claims", adjuster_id=on_leave, status="open")
claims.sort(key=lambda c: ${variant.claimIdOrder ? 'c["claim_id"]' : '(c["reported_date"], c["claim_id"])'})
print(on_leave, caps, len(claims), "claims to move")
`,
    String.raw`
moves, unassigned = {}, []
for claim in claims:
    candidates = []
    for a in adjusters:
        if a["status"] != "active" or a["adjuster_id"] == on_leave:
            continue
        if ${variant.ignoreLicenses ? "False" : 'claim["loss_state"] not in a["licensed_states"].split(",")'}:
            continue
        if ${variant.ignoreCaps ? "False" : `caseload[a["adjuster_id"]] ${variant.capInclusive ? ">" : ">="} caps[a["region"]]`}:
            continue
        candidates.append((caseload[a["adjuster_id"]], a["adjuster_id"]))
    if not candidates:
        unassigned.append(claim["claim_id"])
        continue
    _, chosen = min(candidates)
    tools.assign_claim(claim_id=claim["claim_id"], adjuster_id=chosen)
    moves[claim["claim_id"]] = chosen
    ${variant.staticCaseload ? "pass" : "caseload[chosen] += 1"}
print(json.dumps({"reassigned": moves, "unassigned": unassigned}))
`,
  ];
}

export const reassignLeaveClaimsTask = defineClaimsTask({
  id: "claims.reassign-leave-claims",
  summary:
    "Reassign the open claims of the adjuster the staffing memo puts on leave, one at a time under the assignment guideline (earliest reported first, license, regional caseload caps, lowest caseload counted as it changes).",
  instruction:
    'One of our adjusters starts leave today; the staffing memo says who. Reassign each of their open claims exactly as our adjuster assignment guideline describes, and leave any claim nobody can take where it is. Change nothing else. Reply with only a JSON object {"reassigned": {<claim id>: <new adjuster id>, ...}, "unassigned": [<ids of the claims nobody could take>]}.',
  tools: ["list_adjusters", "get_adjuster", "list_claims", "get_claim", "assign_claim"],
  prepare,
  verify,
  cells,
  nearMisses: {
    "static-caseload": [
      { staticCaseload: true },
      "Uses the caseloads listed at the start and never counts the claims it has just assigned.",
    ],
    "ignores-licenses": [
      { ignoreLicenses: true },
      "Gives claims to adjusters who are not licensed in the loss state.",
    ],
    "claim-id-order": [
      { claimIdOrder: true },
      "Processes the claims in claim id order instead of earliest reported first.",
    ],
    "ignores-caps": [
      { ignoreCaps: true },
      "Keeps assigning to adjusters who have reached their region's caseload cap.",
    ],
    "cap-inclusive": [
      { capInclusive: true },
      "Reads the cap as the last caseload that may still take a claim, so an adjuster at their cap gets one more.",
    ],
  },
});
