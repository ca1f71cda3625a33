// The suite's entry. `progagent ... --suite <this folder>` imports this file (the folder's index.ts; a
// package.json "exports" or "main" field would name another) and reads its default export.
//
// "progagent" needs no node_modules here: progagent resolves it to the running progagent itself, and any
// package this folder does not have (zod) from progagent's own dependencies.
import { defineSuite } from "progagent";
// One module per task; the suite lists them all.
import { lateFeesTask } from "./tasks/late-fees.js";

export default defineSuite({
  // Lower-case letters, digits, '-' or '_': shown beside each task in `progagent tasks list`.
  name: "__SUITE_NAME__",
  // One line for people who list suites.
  description: "An example suite: a lending library and the task of charging its late fees.",
  // Every task of the suite. Ids must be unique across all suites loaded together (the built-in one too).
  tasks: [lateFeesTask],
});
