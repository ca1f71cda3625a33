import { defineDomain } from "../../envs/index.js";
import { generateUniversity } from "./generate.js";
import { schemaSql } from "./schema.js";
import { universityTools } from "./tools.js";

/** A graduate school registrar: students, programs, courses, sections, registrations and grades. */
export const universityDomain = defineDomain({
  id: "university",
  title: "University registrar",
  description:
    "The registrar's office of a graduate school: students in degree and certificate programs, the course catalog with prerequisites, sections by term, registrations with grades, and an audit log. Academic regulations, the program handbook, the academic calendar, the transfer credit register, grade change memos, prerequisite waivers and committee notes live in the workspace.",
  version: 1,
  schemaSql,
  generate: generateUniversity,
  tools: universityTools,
});
