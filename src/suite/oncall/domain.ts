import { defineDomain } from "../../envs/index.js";
import { generateOncall } from "./generate.js";
import { oncallSchemaSql } from "./schema.js";
import { oncallTools } from "./tools.js";

/** A software team's incident management and on-call: pages, deploys, incidents, logs and the rotation. */
export const oncallDomain = defineDomain({
  id: "oncall",
  title: "Incident management and on-call",
  description:
    "A software team's production operations: services and engineers, the pager's pages, deploy history, incidents with free-text timelines, postmortem action items, schedule overrides and a log store of raw mixed-format log lines. The on-call rotation, SLO and paging policies, monitoring exports (Prometheus text and CSV), postmortems and cover requests live in workspace documents.",
  version: 1,
  schemaSql: oncallSchemaSql,
  generate: generateOncall,
  tools: oncallTools,
});
