import type { RolloutService } from "./rollout-service.js";

/** Prometheus text exposition of the service's counters, gauges and the step-latency histogram. */
export function prometheusText(service: RolloutService): string {
  const stats = service.stats;
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string, samples: Array<[string, number]>): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
  };
  metric("progagent_rollout_episodes_live", "gauge", "Live episodes.", [["", stats.live]]);
  metric("progagent_rollout_episodes_max", "gauge", "Maximum live episodes.", [["", service.maxEpisodes]]);
  metric("progagent_rollout_episodes_created_total", "counter", "Episodes created.", [["", stats.created]]);
  metric(
    "progagent_rollout_episodes_finished_total",
    "counter",
    "Episodes ended, by reason.",
    [...stats.endReasons].map(([reason, count]) => [`{reason="${reason}"}`, count]),
  );
  metric(
    "progagent_rollout_rejected_total",
    "counter",
    "Episode creations refused because the service was full.",
    [["", stats.rejected]],
  );
  metric("progagent_rollout_tool_calls_total", "counter", "Tool calls dispatched.", [["", stats.toolCalls]]);
  metric(
    "progagent_rollout_rewards_total",
    "counter",
    "Finished episodes by reward.",
    [...stats.rewardsByValue].map(([reward, count]) => [`{reward="${reward}"}`, count]),
  );
  metric("progagent_rollout_reward_sum", "counter", "Sum of rewards of finished episodes.", [
    ["", stats.rewardSum],
  ]);
  metric("progagent_rollout_history_bytes", "gauge", "Bytes of history the live episodes retain.", [
    ["", service.historyBytes],
  ]);
  metric("progagent_rollout_history_bytes_max", "gauge", "The history budget of all episodes.", [
    ["", service.limits.maxTotalHistoryBytes],
  ]);
  const tokenizer = service.tokenizerLoad;
  metric("progagent_rollout_tokenizer_jobs", "gauge", "Tokenizer jobs on its threads, by state.", [
    ['{state="running"}', tokenizer.running],
    ['{state="waiting"}', tokenizer.waiting],
  ]);
  metric("progagent_rollout_tokenizer_threads", "gauge", "Tokenizer threads started.", [
    ["", tokenizer.threads],
  ]);
  const histogram = stats.stepLatency;
  lines.push(
    "# HELP progagent_rollout_step_seconds Latency of tool_calls and completion steps.",
    "# TYPE progagent_rollout_step_seconds histogram",
  );
  let cumulative = 0;
  histogram.buckets.forEach((bound, index) => {
    cumulative += histogram.counts[index] ?? 0;
    lines.push(`progagent_rollout_step_seconds_bucket{le="${bound}"} ${cumulative}`);
  });
  lines.push(
    `progagent_rollout_step_seconds_bucket{le="+Inf"} ${histogram.count}`,
    `progagent_rollout_step_seconds_sum ${histogram.sum}`,
    `progagent_rollout_step_seconds_count ${histogram.count}`,
  );
  return `${lines.join("\n")}\n`;
}
