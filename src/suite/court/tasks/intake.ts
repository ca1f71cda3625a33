import { checkAnswerCount, checkStateDiff, defineTask, flagNearMisses } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { courtDomain } from "../domain.js";
import { intakeEntries } from "./facts.js";
import { withNear } from "./python.js";

const intakeBody = withNear(`titles = md_table(read_text(LOCAL), "Intake docket codes")
entered = 0
for doc in documents("${PATHS.intake}"):
    joined = doc if "title-first-line" in NEAR else re.sub(r"\\s+", " ", re.sub(r"-\\n\\s*", "", doc))
    found = next(((t, k) for t, k in titles if t in joined), None)
    if found is None:
        continue
    title, kind = found
    case = case_number(line_after(doc, r"CASE NUMBER:"))
    if case is None:
        continue
    if "signed-date" in NEAR:
        day = parse_date(re.search(r"Dated: (.*)", doc).group(1))
    else:
        day = stamp_date(doc)
    call("add_docket_entry", case_id=case, entry_type=kind, entry_date=day, description=title.title() + " received by mail")
    entered += 1
print(entered)`);

export const docketIntakeTask = defineTask({
  id: "court.docket-intake",
  domain: courtDomain,
  summary:
    "Docket every paper in the scanned intake trays: case number in any written form with OCR misreads, type from the title table, date from the FILED stamp.",
  instruction:
    "Work the intake trays: every paper scanned into scans/intake needs its docket entry on its case, as our local rules say. Make no other changes. Reply with only the number of entries you made.",
  tools: ["add_docket_entry"],
  verify: ({ initial, final, answer }) => {
    const expected = intakeEntries(initial);
    if (expected.length === 0) throw new Error("generation produced no intake paper");
    return [
      ...checkStateDiff(initial.db, final.db, [
        { table: "docket_entries", key: "entry_id", added: expected },
      ]),
      checkAnswerCount(answer, expected.length),
    ];
  },
  oracle: intakeBody([]),
  nearMisses: flagNearMisses(intakeBody, [
    ["strict-case-number", "Recognises only case numbers written as CV-2025-00123 and skips the rest."],
    [
      "signature-date",
      "Dates the entry with the party's signature date instead of the FILED stamp.",
      "signed-date",
    ],
    [
      "title-first-line",
      "Looks for the title on single lines, so a title wrapped over two lines is not recognised and its paper skipped.",
    ],
    ["no-retry", "Does not retry when the records server answers 503 to a docket entry."],
  ]),
});
