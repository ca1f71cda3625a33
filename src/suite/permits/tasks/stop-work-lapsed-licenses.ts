import { definePermitsTask } from "./python.js";
import { REFERENCE_DATE, check, checkStateDiff, parseAnswerNumber } from "../../../envs/index.js";
import { STOP_WORK_LICENSE_CODE } from "../rules.js";
import { stopWorkTargets } from "./expectations.js";
import { NAIVE_SUBMIT_PY } from "./python.js";

const LAPSED = 'status != "Active" or iso(info["License expires"]) < TODAY.isoformat()';

function cells({ lapsed = LAPSED }): string[] {
  return [
    String.raw`
lapsed = []
for row in listing("/contractors", "Licensed contractors"):
    snap = page(f"/contractors/{row['License']}")
    info = fields(snap)
    status = [t for t in texts(snap) if t.startswith("License status:")][0].split(": ", 1)[1]
    if ${lapsed}:
        lapsed.append(row["License"])
stopped = []
for lic in lapsed:
    for row in listing(f"/permits?contractor={lic}&status=issued", "Permits"):
        submit(f"/permits/{row['Permit']}/stop-work", reason_code="SW-LIC", notes="License lapsed")
        stopped.append(row["Permit"])
print(f"Issued {len(stopped)} stop-work orders: {', '.join(stopped)}")
`,
  ];
}

export const stopWorkLapsedLicensesTask = definePermitsTask({
  id: "permits.stop-work-lapsed-licenses",
  summary:
    "Issue SW-LIC stop-work orders on every issued permit whose contractor's license is suspended, expired, or shown Active past its expiry date (the memo's lag rule).",
  instruction:
    "The state licensing board sent its monthly update. Please go through the contractor licenses on the portal and, following the enforcement section of the inspection policy memo, issue a stop-work order on every permit that must stop because of its contractor's license. Don't change anything else. Reply with the number of stop-work orders you issued, e.g. `Issued 4 stop-work orders`.",
  tools: ["open_page", "submit_form"],
  verify: ({ initial, final, answer }) => {
    const expected = stopWorkTargets(initial);
    const order = (permit_id: string) => ({
      permit_id,
      reason_code: STOP_WORK_LICENSE_CODE,
      issued_on: REFERENCE_DATE,
    });
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "permits",
          key: "permit_id",
          changed: new Map(expected.map((id) => [id, { status: "stop_work" }])),
        },
        { table: "stop_work_orders", key: "order_id", added: expected.map(order) },
      ]),
      check(
        "answer-count",
        parseAnswerNumber(answer) === expected.length,
        `expected ${expected.length} orders`,
      ),
    ];
  },
  cells,
  nearMisses: {
    "status-only": [
      { lapsed: 'status != "Active"' },
      "Trusts the Active badge and misses licenses whose expiry date has passed.",
    ],
    "date-only": [
      { lapsed: 'iso(info["License expires"]) < TODAY.isoformat()' },
      "Looks only at expiry dates and misses suspended licenses.",
    ],
    "ignores-session-expired": [
      { helpers: NAIVE_SUBMIT_PY },
      "Does not read the page a form post returns, so posts answered with the session-expired page are lost.",
    ],
  },
});
