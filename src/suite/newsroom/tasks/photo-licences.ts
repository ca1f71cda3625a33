import { defineNewsroomTask } from "./python.js";
import { allRows, REFERENCE_DATE, type StateView } from "../../../envs/index.js";
import { PATHS } from "../rules.js";
import { checkList, readLicences } from "./expectations.js";

export function expectedUnlicensedPhotos(state: StateView): string[] {
  const bad = new Set<string>();
  for (const licence of readLicences(state))
    if ((licence.lastDay !== null && licence.lastDay < REFERENCE_DATE) || !licence.web)
      for (const image of licence.images) bad.add(image);
  const sql =
    "SELECT p.photo_id FROM photos p JOIN stories s ON s.story_id = p.story_id WHERE s.status = 'published'";
  const photos = allRows<{ photo_id: string }>(state.db, sql).filter((row) => bad.has(row.photo_id));
  if (photos.length === 0) throw new Error("generation produced no unlicensed photo");
  return photos.map((row) => row.photo_id);
}

function cells({ lastDayLapsed = false, ignoreMedia = false }): string[] {
  return [
    `MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

def shift_months(day, months):
    year, index = divmod(day.year * 12 + day.month - 1 + months, 12)
    following = date(year + 1, 1, 1) if index == 11 else date(year, index + 2, 1)
    return date(year, index + 1, min(day.day, (following - timedelta(days=1)).day))

print(read_text("${PATHS.styleGuide}"))
licences = {}
for path in workspace_files("${PATHS.licencesDir}"):
    text = read_text(path)
    last_day = None
    found = re.match(r"(\\d+) months from (\\w+) (\\d+), (\\d+)", form_field(text, "Term"))
    if found:
        start = date(int(found.group(4)), MONTHS.index(found.group(2)) + 1, int(found.group(3)))
        last_day = (shift_months(start, int(found.group(1))) - timedelta(days=1)).isoformat()
    web = re.search(r"\\bweb\\b", form_field(text, "Permitted media")) is not None
    licences[form_field(text, "Licence no.")] = {"last_day": last_day, "web": web}
print(licences)`,
    `bad = []
for photo in fetch_all("list_photos", "photos"):
    licence = licences.get(photo["licence_ref"])
    if licence is None:
        continue
    lapsed = licence["last_day"] is not None and licence["last_day"] ${lastDayLapsed ? "<=" : "<"} TODAY
    if (lapsed or ${ignoreMedia ? "False" : 'not licence["web"]'}) and tools.get_story(story_id=photo["story_id"])["story"]["status"] == "published":
        bad.append(photo["photo_id"])
print(json.dumps(sorted(bad)))`,
  ];
}

export const photoLicencesTask = defineNewsroomTask({
  id: "newsroom.photo-licences",
  summary:
    "Find photos on published stories whose licence (text documents) has run out or does not permit web use.",
  instruction:
    "The picture desk needs to know which photos we are showing without a valid licence. Using the photo licences in the workspace and our style guide, find every photo on a published story that we may not show on our website today. Reply with only a JSON list of the photo ids, sorted.",
  tools: ["list_photos", "list_stories", "get_story"],
  verify: ({ initial, answer }) => [checkList("answer", answer, expectedUnlicensedPhotos(initial))],
  cells,
  nearMisses: {
    "last-day-lapsed": [{ lastDayLapsed: true }, "Treats a licence's last day as already lapsed."],
    "ignores-media": [
      { ignoreMedia: true },
      "Checks only the term, not whether the licence permits web use.",
    ],
  },
});
