import {
  REFERENCE_DATE,
  checkAnswerCount,
  checkProblems,
  checkStateDiff,
  defineTask,
  parseAnswerJson,
  type Check,
  flagNearMisses,
  type NearMissRow,
} from "../../../envs/index.js";
import { courtDomain } from "../domain.js";
import { TODAY_TEXT, defaultEligible, responseDeadlines } from "./facts.js";
import { withNear } from "./python.js";

/** The reply as a JSON list, compared as a set. */
export function checkCaseList(answer: string, expected: string[]): Check {
  if (expected.length === 0) throw new Error("generation produced no case for this task");
  const parsed = parseAnswerJson(answer);
  const given = Array.isArray(parsed) ? [...new Set(parsed.map((item) => String(item).trim()))] : [];
  const wanted = new Set(expected);
  return checkProblems(
    "answer",
    [
      ...expected.filter((id) => !given.includes(id)).map((id) => `missing ${id}`),
      ...given.filter((id) => !wanted.has(id)).map((id) => `unexpected ${id}`),
    ],
    `all ${expected.length} cases`,
  );
}

const DEADLINE_MISSES: NearMissRow[] = [
  [
    "ignores-holidays",
    "Counts court days as weekdays, skipping none of the listed court holidays.",
    "no-holidays",
  ],
  [
    "no-substituted-extension",
    "Counts from the date of service even for substituted service.",
    "no-extension",
  ],
  ["filed-stamp-date", "Takes the FILED stamp's date as the date of service.", "filed-date"],
  ["counts-unsigned", "Accepts unsigned proofs of service.", "unsigned"],
  ["earliest-service", "Counts from the first signed service when a defendant was served twice."],
  ["answer-only", "Only an answer counts as a response; a demurrer is overlooked."],
  [
    "includes-small-claims",
    "Applies the civil response and default rules to small claims cases.",
    "small-claims",
  ],
];
const misses = (...ids: string[]) => DEADLINE_MISSES.filter(([id]) => ids.includes(id));

const deadlinesBody = withNear(
  `print(json.dumps({case: d["due"] for case, d in sorted(response_deadlines().items())}))`,
);

export const responseDeadlinesTask = defineTask({
  id: "court.response-deadlines",
  domain: courtDomain,
  summary:
    "Last day to respond for every served civil defendant without a response: proofs of service from OCR scans, court days across holidays, substituted-service extension.",
  instruction:
    'For every open civil case where the defendant has been served (see the proofs of service in scans/service) and no answer or demurrer is on the docket yet, work out the last day to respond under our local rules. Reply with only a JSON object mapping case number to that date, e.g. {"CV-2025-00123": "2025-07-14"}.',
  tools: ["list_cases", "list_parties", "list_docket_entries"],
  verify: ({ initial, answer }) => {
    const expected = responseDeadlines(initial);
    if (expected.length === 0) throw new Error("generation produced no deadline");
    const parsed = parseAnswerJson(answer);
    const given = new Map(
      Object.entries(
        parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {},
      ).map(([key, value]) => [key.trim(), String(value).trim()]),
    );
    const problems = expected
      .filter((d) => given.get(d.case_id) !== d.due)
      .map((d) => `${d.case_id}: expected ${d.due}, got ${given.get(d.case_id) ?? "nothing"}`);
    const known = new Set(expected.map((d) => d.case_id));
    problems.push(...[...given.keys()].filter((key) => !known.has(key)).map((key) => `unexpected ${key}`));
    return [checkProblems("answer", problems, `all ${expected.length} deadlines`)];
  },
  oracle: deadlinesBody([]),
  nearMisses: flagNearMisses(
    deadlinesBody,
    misses("ignores-holidays", "no-substituted-extension", "filed-stamp-date", "counts-unsigned"),
  ),
});

const eligibleBody = withNear(
  `print(json.dumps(sorted(case for case, d in response_deadlines().items() if d["due"] < TODAY)))`,
);

export const defaultEligibleTask = defineTask({
  id: "court.default-eligible",
  domain: courtDomain,
  summary:
    "Civil cases eligible for entry of default today: signed proof of service, response time run out in court days, no answer or demurrer docketed.",
  instruction: `${TODAY_TEXT} Which cases can the clerk enter a default in today, under our default rules? Reply with only a JSON list of case numbers, e.g. ["CV-2025-00123"].`,
  tools: ["list_cases", "list_parties", "list_docket_entries"],
  verify: ({ initial, answer }) => [
    checkCaseList(
      answer,
      defaultEligible(initial).map((d) => d.case_id),
    ),
  ],
  oracle: eligibleBody([]),
  nearMisses: flagNearMisses(
    eligibleBody,
    misses("ignores-holidays", "counts-unsigned", "answer-only", "includes-small-claims", "earliest-service"),
  ),
});

const enterBody = withNear(`entered = 0
for case, d in sorted(response_deadlines().items()):
    if d["due"] < TODAY:
        call("enter_default", case_id=case, party_id=d["party_id"])
        entered += 1
print(entered)`);

export const enterDefaultsTask = defineTask({
  id: "court.enter-defaults",
  domain: courtDomain,
  summary:
    "Enter the default of every defendant whose case qualifies under the default rules (state diff on cases and docket).",
  instruction: `${TODAY_TEXT} Enter defaults: for every case where our default rules allow the clerk to enter the defendant's default today, enter it. Leave every other case alone. Reply with only the number of defaults you entered.`,
  tools: ["list_cases", "list_parties", "list_docket_entries", "enter_default"],
  verify: ({ initial, final, answer }) => {
    const expected = defaultEligible(initial);
    if (expected.length === 0) throw new Error("generation produced no default to enter");
    return [
      ...checkStateDiff(initial.db, final.db, [
        {
          table: "cases",
          key: "case_id",
          changed: new Map(expected.map((d) => [d.case_id, { status: "default_entered" }])),
        },
        {
          table: "docket_entries",
          key: "entry_id",
          added: expected.map((d) => ({
            case_id: d.case_id,
            entry_type: "default_entered",
            entry_date: REFERENCE_DATE,
            party_id: d.party_id,
          })),
        },
      ]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: enterBody([]),
  nearMisses: flagNearMisses(
    enterBody,
    misses("ignores-holidays", "answer-only", "includes-small-claims", "earliest-service"),
  ),
});
