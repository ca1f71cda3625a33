import { defineDomain } from "../../envs/index.js";
import { generateVet } from "./generate.js";
import { vetSchemaSql } from "./schema.js";
import { vetTools } from "./tools.js";

/** A veterinary practice of several clinics: patients, vaccines, SOAP notes, prescriptions, lab printouts, billing. */
export const vetDomain = defineDomain({
  id: "vet",
  title: "Veterinary practice",
  description:
    "A veterinary practice with several clinics: patients (species, breed, owner), vaccine histories, booked appointments, visits with the clinicians' free-text SOAP notes (abbreviations, mixed casing, weights in kg or lb), prescriptions, lab orders whose results are the analysers' fixed-width printouts in the workspace, invoices and payments, and client reminders. The vaccination protocol, the formulary's dose limits, species reference ranges and the reminders policy are workspace documents.",
  version: 1,
  schemaSql: vetSchemaSql,
  generate: generateVet,
  tools: vetTools,
});
