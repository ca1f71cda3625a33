// The domain: a schema, a seeded generator and the tools over them. Tasks (tasks/*.ts) build on it.
import { defineDomain } from "progagent";
import { generateLibrary } from "./generate.js";
import { SCHEMA_SQL } from "./schema.js";
import { chargeLateFee, listLoans } from "./tools.js";

export const libraryDomain = defineDomain({
  // snake_case; every task id of the domain starts with it ("lending.late-fees").
  id: "lending",
  title: "Lending library",
  description: "Members, their loans and the late-fee policy of a small lending library.",
  // Instances are keyed on this folder's sources already; bump the version to force a rebuild anyway.
  version: 1,
  schemaSql: SCHEMA_SQL,
  generate: generateLibrary,
  // Every tool any task of the domain may expose; each task picks its own subset.
  tools: [listLoans, chargeLateFee],
});
