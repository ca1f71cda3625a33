import { check, defineTask, REFERENCE_DATE, type StateView } from "../../../envs/index.js";
import { newsroomDomain } from "../domain.js";
import { PATHS } from "../rules.js";
import { answerList, readLicences, sameList } from "./expectations.js";
import { NEWSROOM_PY } from "./python.js";

export function expectedUnlicensedPhotos(state: StateView): string[] {
  const bad = new Set<string>();
  for (const licence of readLicences(state)) {
    const lapsed = licence.lastDay !== null && licence.lastDay < REFERENCE_DATE;
    if (lapsed || !licence.web) for (const image of licence.images) bad.add(image);
  }
  const rows = state.db
    .prepare(
      "SELECT p.photo_id FROM photos p JOIN stories s ON s.story_id = p.story_id WHERE s.status = 'published' ORDER BY p.photo_id",
    )
    .all() as Array<{ photo_id: string }>;
  return rows.map((row) => row.photo_id).filter((id) => bad.has(id));
}

interface Variant {
  lastDayExpired?: boolean;
  ignoreMedia?: boolean;
  anyStatus?: boolean;
}

function cells(variant: Variant): string[] {
  return [
    NEWSROOM_PY,
    `MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

def shift_months(day, months):
    total = day.year * 12 + day.month - 1 + months
    year, month = divmod(total, 12)
    month += 1
    last = (date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)).day
    return date(year, month, min(day.day, last))

licences = {}
for path in workspace_files("${PATHS.licencesDir}"):
    text = read_text(path)
    field = lambda name: re.search(r"^" + re.escape(name) + r":\\s+(.+)$", text, re.M).group(1).strip()
    term = field("Term")
    last_day = None
    found = re.match(r"(\\d+) months from (\\w+) (\\d+), (\\d+)", term)
    if found:
        start = date(int(found.group(4)), MONTHS.index(found.group(2)) + 1, int(found.group(3)))
        last_day = (shift_months(start, int(found.group(1))) - timedelta(days=1)).isoformat()
    licences[field("Licence no.")] = {"last_day": last_day, "web": re.search(r"\\bweb\\b", field("Permitted media")) is not None}
print(licences)`,
    `bad = []
for photo in fetch_all("list_photos", "photos"):
    licence = licences.get(photo["licence_ref"])
    if licence is None:
        continue
    lapsed = licence["last_day"] is not None and licence["last_day"] ${variant.lastDayExpired ? "<=" : "<"} TODAY
    if not (lapsed or ${variant.ignoreMedia ? "False" : 'not licence["web"]'}):
        continue
    story = tools.get_story(story_id=photo["story_id"])["story"]
    if ${variant.anyStatus ? "True" : 'story["status"] == "published"'}:
        bad.append(photo["photo_id"])
print(json.dumps(sorted(bad)))`,
  ];
}

export const photoLicencesTask = defineTask({
  id: "newsroom.photo-licences",
  domain: newsroomDomain,
  summary:
    "Find photos on published stories whose licence (text documents) has run out or does not permit web use.",
  instruction:
    "The picture desk needs to know which photos we are showing without a valid licence. Using the photo licences in the workspace and our style guide, find every photo on a published story that we may not show on our website today. Reply with only a JSON list of the photo ids, sorted.",
  tools: ["list_photos", "list_stories", "get_story"],
  verify: ({ initial, answer }) => {
    const expected = expectedUnlicensedPhotos(initial);
    if (expected.length === 0) throw new Error("generation produced no unlicensed photo");
    const result = sameList(answerList(answer), expected);
    return [check("answer", result.passed, result.message)];
  },
  oracle: cells({}),
  nearMisses: [
    {
      id: "last-day-lapsed",
      description: "Treats a licence's last day as already lapsed.",
      cells: cells({ lastDayExpired: true }),
    },
    {
      id: "ignores-media",
      description: "Checks only the term, not whether the licence permits web use.",
      cells: cells({ ignoreMedia: true }),
    },
  ],
});
