import {
  checkAnswerCount,
  checkAnswerIdLists,
  checkStateDiff,
  defineTask,
  flagNearMisses,
} from "../../../envs/index.js";
import { constructionDomain } from "../domain.js";
import { TODAY_TEXT, payAppsToHold, retainageErrors } from "./facts.js";
import { PATHS } from "../rules.js";
import { taskCells } from "./python.js";

const retainageCells = taskCells(`text = CONDITIONS
before = float(re.search(r"The rate is (\\d+)% while", text).group(1))
after = float(re.search(r"and (\\d+)% once", text).group(1))
threshold = float(re.search(r"less than (\\d+)% of the adjusted contract sum", text).group(1))
wrong = []
for app in fetch("list_pay_apps", "pay_apps", status="submitted"):
    contract = call("get_contract", contract_id=app["contract_id"])["contract"]
    adjusted = contract["original_sum"]
    if "original-sum" not in NEAR:
        counted = ("approved", "pending") if "with-pending" in NEAR else ("approved",)
        adjusted += sum(co["approved_amount"] or co["requested_amount"] for co in fetch("list_change_orders", "change_orders", contract_id=app["contract_id"]) if co["status"] in counted)
    work = app["work_completed_to_date"]
    rate = before if "always-10" in NEAR or work < adjusted * threshold / 100 else after
    if abs(round(work * rate / 100 + 1e-9, 2) - app["retainage_held"]) >= 0.005:
        wrong.append(app["pay_app_id"])
print(json.dumps({"pay_apps": wrong}))`);

export const retainageAuditTask = defineTask({
  id: "construction.retainage-audit",
  domain: constructionDomain,
  summary:
    "Submitted pay applications whose retainage held differs from 10%/5% of work to date, the 50% threshold on the adjusted contract sum (original + log-approved change orders).",
  instruction:
    'Before we certify this month\'s pay applications, check the retainage on every submitted one against the retainage provisions of our general conditions. Reply with only JSON: {"pay_apps": [ids of the submitted pay applications whose retainage held is wrong]}.',
  tools: ["list_pay_apps", "list_contracts", "get_contract", "list_change_orders"],
  verify: ({ initial, answer }) => {
    const wrong = retainageErrors(initial);
    if (wrong.length === 0) throw new Error("generation produced no retainage error");
    return [checkAnswerIdLists(answer, new Map([["pay_apps", wrong]]))];
  },
  oracle: retainageCells([]),
  nearMisses: flagNearMisses(retainageCells, [
    ["always-10", "Expects 10% retainage whatever the completion.", "always-10"],
    [
      "original-sum",
      "Tests the 50% threshold against the original contract sum, without approved change orders.",
      "original-sum",
    ],
    [
      "with-pending",
      "Adds pending change orders' requested amounts to the adjusted contract sum.",
      "with-pending",
    ],
    ["no-retry", "Does not retry the accounting system's 503.", "no-retry"],
  ]),
});

const holdCells =
  taskCells(`minimums = {code: money(minimum) for code, description, minimum in md_table(read_text("${PATHS.coi}"), "Required coverage")}
if "only-gl" in NEAR:
    minimums = {"GL": minimums["GL"]}
apps = fetch("list_pay_apps", "pay_apps", status="submitted") + fetch("list_pay_apps", "pay_apps", status="approved")
blocked = {}
for sub in sorted({app["sub_id"] for app in apps}):
    certificates = call("get_subcontractor", sub_id=sub)["certificates"]
    fails = False
    for code, minimum in minimums.items():
        mine = sorted((c for c in certificates if c["coverage"] == code), key=lambda c: c["expires_on"])
        if "any-expired" in NEAR and any(c["expires_on"] < TODAY for c in mine):
            fails = True
        if not mine:
            fails = True
            continue
        latest = mine[-1]
        lapsed = latest["expires_on"] <= TODAY if "expires-today" in NEAR else latest["expires_on"] < TODAY
        if lapsed or (latest["each_occurrence"] < minimum and "ignores-limit" not in NEAR):
            fails = True
    blocked[sub] = fails
held = 0
for app in apps:
    if blocked[app["sub_id"]]:
        call("hold_pay_app", pay_app_id=app["pay_app_id"], reason="certificate of insurance requirements not met")
        held += 1
print(held)`);

export const holdUninsuredPayAppsTask = defineTask({
  id: "construction.hold-uninsured-pay-apps",
  domain: constructionDomain,
  summary:
    "Hold every unpaid pay app of a subcontractor failing the COI requirements (latest certificate per coverage lapsed or under the minimum limit).",
  instruction: `${TODAY_TEXT} Apply our certificate-of-insurance requirements to payments: put on hold every unpaid pay application (submitted or approved) of a subcontractor that does not meet them today, with a short reason. Leave everything else alone. Reply with only the number of pay applications you put on hold.`,
  tools: ["list_pay_apps", "list_subcontractors", "get_subcontractor", "hold_pay_app"],
  verify: ({ initial, final, answer }) => {
    const held = payAppsToHold(initial);
    if (held.length === 0) throw new Error("generation produced no pay application to hold");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "pay_apps",
          key: "pay_app_id",
          changed: new Map(held.map((id) => [id, { status: "on_hold" }])),
          ignoreColumns: ["hold_reason"],
        },
      ]),
      checkAnswerCount(answer, held.length),
    ];
  },
  oracle: holdCells([]),
  nearMisses: flagNearMisses(holdCells, [
    [
      "any-expired",
      "Blocks a subcontractor for an expired certificate that was since renewed.",
      "any-expired",
    ],
    ["expires-today", "Treats a certificate expiring today as lapsed.", "expires-today"],
    ["only-gl", "Checks general liability only.", "only-gl"],
    ["ignores-limit", "Ignores certificates below the minimum limit.", "ignores-limit"],
  ]),
});
