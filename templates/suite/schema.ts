// The library domain's database schema, id formats and fixed names, shared by the generator, the tools
// and the task's verifier.
import { defineIdFormat } from "progagent";

// SQLite DDL, run on an empty database before the generator fills it. Small pages keep small scales small.
export const SCHEMA_SQL = `
PRAGMA page_size = 1024;
CREATE TABLE members (
  member_id TEXT PRIMARY KEY,                                        -- M-0001
  name      TEXT NOT NULL,
  email     TEXT NOT NULL UNIQUE,
  tier      TEXT NOT NULL CHECK (tier IN ('standard', 'student', 'senior'))
);
CREATE TABLE loans (
  loan_id     TEXT PRIMARY KEY,                                      -- L-00001
  member_id   TEXT NOT NULL REFERENCES members (member_id),
  title       TEXT NOT NULL,
  borrowed_on TEXT NOT NULL,                                         -- YYYY-MM-DD
  due_on      TEXT NOT NULL,                                         -- YYYY-MM-DD
  returned_on TEXT,                                                  -- NULL while the book is still out
  late_fee    REAL NOT NULL DEFAULT 0                                -- dollars, set by charge_late_fee
);
`;

// One id format per entity: the generator formats ids with it, tools validate arguments with it (and say
// what was expected when the model writes a bad one), and not-found errors name the tool that lists ids.
export const memberId = defineIdFormat({
  field: "member_id",
  entity: "member",
  prefix: "M-",
  digits: 4,
  listTool: "list_loans",
});
export const loanId = defineIdFormat({
  field: "loan_id",
  entity: "loan",
  prefix: "L-",
  digits: 5,
  listTool: "list_loans",
});

// The member tiers, each with its own daily late-fee rate in the policy document.
export const TIERS = ["standard", "student", "senior"] as const;
export type Tier = (typeof TIERS)[number];

// Where the generator writes the late-fee policy; the task's instruction names the same path.
export const POLICY_PATH = "policies/late-fees.md";
