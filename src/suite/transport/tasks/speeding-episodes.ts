import { checkAnswerAmounts } from "../../../envs/index.js";
import type { StateView } from "../../../envs/index.js";
import { avlEvents, policyNumber, routes } from "../facts.js";
import { WEEK } from "../world.js";
import { avlExportCells, defineTransportTask, nonEmpty } from "./common.js";

/** Per bus, the week's speeding episodes: runs of GPS fixes above the limit, other lines not breaking them. */
export function expectedEpisodes(state: StateView): Map<string, number> {
  const limit = policyNumber(state, /never exceed (\d+) mph/);
  const episodes = new Map<string, number>();
  for (const route of routes(state))
    for (const date of WEEK) {
      let speeding = false;
      for (const event of avlEvents(state, route.bus_id, date)) {
        if (event.event !== "GPS") continue;
        if (event.mph! > limit && !speeding)
          episodes.set(route.bus_id, (episodes.get(route.bus_id) ?? 0) + 1);
        speeding = event.mph! > limit;
      }
    }
  return nonEmpty(episodes, "speeding episode");
}

type Variant = { countFixes?: boolean; kphAsMph?: boolean; noiseEnds?: boolean };

function cell(variant: Variant): string[] {
  const speed = variant.kphAsMph ? `float(re.search(r"spd=([\\d.]+)", line).group(1))` : `event["mph"]`;
  return [
    ...avlExportCells(),
    String.raw`
policy = read_text(POLICY)
limit = float(re.search(r"never exceed (\d+) mph", policy).group(1))
episodes = Counter()
for route in routes:
    bus = route["bus_id"]
    for day in WEEK:
        speeding = False
        for line in exports[(route["route_id"], day)]:
            event = parse_avl(line)
            if event is None:
                ${variant.noiseEnds ? "speeding = False" : "pass"}
                continue
            if event["event"] != "GPS":
                continue
            over = ${speed} > limit
            if over and ${variant.countFixes ? "True" : "not speeding"}:
                episodes[bus] += 1
            speeding = over
print(json.dumps(dict(sorted(episodes.items()))))
`,
  ];
}

export const speedingEpisodesTask = defineTransportTask<Variant>({
  id: "transport.speeding-episodes",
  summary:
    "Count each bus's speeding episodes of the week from the AVL GPS fixes under the policy's speed rule.",
  instruction:
    'Safety committee request: from the AVL exports of the route buses for 23-27 June 2025, count each bus\'s speeding episodes as our transportation policy (policies/transportation-policy.md) defines them. Reply with a JSON object mapping bus id to its number of episodes, listing only buses with at least one, e.g. {"BUS-007": 1}.',
  tools: ["list_routes", "list_buses", "fetch_avl"],
  verify: ({ initial, answer }) => [checkAnswerAmounts("answer", answer, expectedEpisodes(initial), 0)],
  cells: cell,
  nearMisses: [
    ["counts-fixes", "Counts every fix above the limit instead of episodes.", { countFixes: true }],
    ["kph-as-mph", "Reads the legacy units' km/h speeds as mph.", { kphAsMph: true }],
    ["noise-ends-episode", "Lets an unreadable line end an episode.", { noiseEnds: true }],
  ],
});
