import { allRows } from "../../../envs/index.js";
import type { Check, StateView, VerifyContext } from "../../../envs/index.js";
import { seconds } from "../clock.js";
import { checkIdMap, defineOncallTask } from "./common.js";

/** For every HighErrorRate page, the service's last deploy before it fired (offsets honoured). */
export function expectedSpikeDeploys(state: StateView): Map<string, string> {
  const spikes = allRows<{ page_id: string; service: string; fired_at: string }>(
    state.db,
    "SELECT page_id, service, fired_at FROM pages WHERE alert_name = 'HighErrorRate' ORDER BY page_id",
  );
  const deploys = allRows<{ deploy_id: string; service: string; deployed_at: string }>(
    state.db,
    "SELECT deploy_id, service, deployed_at FROM deploys",
  );
  const result = new Map<string, string>();
  for (const spike of spikes) {
    const fired = seconds(spike.fired_at);
    const before = deploys.filter(
      (deploy) => deploy.service === spike.service && seconds(deploy.deployed_at) < fired,
    );
    const last = before.sort((a, b) => seconds(b.deployed_at) - seconds(a.deployed_at))[0];
    if (!last) throw new Error(`no deploy before ${spike.page_id}`);
    result.set(spike.page_id, last.deploy_id);
  }
  return result;
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedSpikeDeploys(initial);
  if (expected.size === 0) throw new Error("generation produced no error spike");
  return [checkIdMap(answer, expected)];
}

function cell(near: Set<string>): string {
  const list = near.has("no-retry") ? "fetch_all" : "fetch";
  const service = near.has("any-service") ? "" : 'service=spike["service"], ';
  const lexical = near.has("compares-timestamp-text");
  const when = lexical ? 'd["deployed_at"] < spike["fired_at"]' : 'utc(d["deployed_at"]) < fired';
  const key = lexical ? 'lambda d: d["deployed_at"]' : 'lambda d: utc(d["deployed_at"])';
  return String.raw`
spikes = fetch("list_pages", "pages", alert_name="HighErrorRate")
answer = {}
for spike in spikes:
    fired = utc(spike["fired_at"])
    day_before = (fired - timedelta(days=1)).date().isoformat()
    deploys = ${list}("list_deploys", "deploys", ${service}date_from=day_before, date_to=fired.date().isoformat())
    before = [d for d in deploys if ${when}]
    answer[spike["page_id"]] = max(before, key=${key})["deploy_id"]
print(json.dumps(answer))
`;
}

export const deployBeforeSpikeTask = defineOncallTask({
  slug: "deploy-before-spike",
  summary: "Match every HighErrorRate page to the same service's last deploy before it fired.",
  instruction:
    'We\'re reviewing change-related error spikes. For every HighErrorRate page, find the deploy of the same service that went out most recently before the page fired. Reply with a JSON object mapping each page id to that deploy id, e.g. {"PG-00031": "D-00102"}.',
  tools: ["list_pages", "get_page", "list_deploys", "list_services"],
  verify,
  cell,
  nearMisses: [
    ["compares-timestamp-text", "Compares deploy and page timestamps as text, ignoring the UTC offsets."],
    ["any-service", "Takes the last deploy of any service."],
    ["no-retry", "Pages the deploy listing without retrying the transient 503."],
  ],
});
