import { renderMarkdown, type GenerateContext } from "../../envs/index.js";
import {
  ANALYTES,
  FORMULARY,
  GRACE_DAYS,
  PATHS,
  RECHECK_DAYS,
  SERIES_WEEKS,
  VACCINES,
  WEIGHT_LOSS_PCT,
} from "./rules.js";

const protocol = (): string =>
  renderMarkdown("Vaccination protocol (all clinics)", [
    "Approved by the medical director; applies to every clinic of the practice.",
    { heading: "Schedule" },
    {
      table: {
        headers: ["species", "vaccine", "category", "booster interval (months)"],
        rows: VACCINES.map(([species, code, core, months]) => [
          species,
          code,
          core ? "core" : "non-core",
          months,
        ]),
      },
    },
    { heading: "When a vaccine is overdue" },
    {
      bullets: [
        "A booster is due the interval's number of calendar months after the most recent dose of that vaccine.",
        `A core vaccine is overdue when today is more than ${GRACE_DAYS} days past its due date. Non-core vaccines are never reported as overdue; they follow the owner's choice.`,
        `A patient at least ${SERIES_WEEKS} weeks old that has never received a core vaccine of its species is overdue for it. Younger patients are still on the puppy/kitten series and are not counted.`,
        "Only active patients are counted: deceased and transferred patients are excluded.",
      ],
    },
  ]);

const formulary = (): string =>
  renderMarkdown("Practice formulary: dose limits", [
    "Maximum single dose per kilogram of body weight. A prescription above the limit must be reviewed by the prescribing vet before it is dispensed again.",
    { heading: "Limits" },
    {
      table: {
        headers: ["drug", "species", "max mg/kg per dose"],
        rows: FORMULARY.map(([drug, species, limit]) => [drug, species, limit]),
      },
    },
    { heading: "Body weight" },
    "Use the weight measured in the clinic at the visit where the drug was prescribed: the weight in the Objective section of that visit's SOAP note (owners' home-scale weights in the history and goal weights in the plan are not measurements). Convert pounds at 2.2046 lb per kg. A dose exactly at the limit is allowed.",
  ]);

const ranges = (): string =>
  renderMarkdown("Laboratory reference ranges by species", [
    "The in-house analysers print the canine reference range and flag every sample against it, whatever the species. Interpret results against the species ranges below, in conventional units. A value equal to a limit is within range.",
    { heading: "Reference ranges" },
    {
      table: {
        headers: ["analyte", "unit", "dog", "cat", "rabbit"],
        rows: ANALYTES.map((a) => [
          a.code,
          a.unit,
          ...(["dog", "cat", "rabbit"] as const).map((s) => `${a.ranges[s][0]} - ${a.ranges[s][1]}`),
        ]),
      },
    },
    { heading: "SI units" },
    "Some analysers print BUN, CREA and GLU in SI units. Convert before comparing:",
    { bullets: ["BUN: mmol/L x 2.8 = mg/dL", "CREA: umol/L / 88.4 = mg/dL", "GLU: mmol/L x 18 = mg/dL"] },
  ]);

const reminders = (): string =>
  renderMarkdown("Reminders and rechecks", [
    { heading: "Vaccine reminders" },
    {
      bullets: [
        "Every overdue core vaccine (see the vaccination protocol) gets one reminder: kind vaccine, subject the vaccine code, due 14 days after today.",
        "No reminder when the patient has an appointment booked on a date from today through 30 days after today: the vaccine is given at that visit.",
        "No reminder when the patient already has an open or sent reminder for that vaccine.",
      ],
    },
    { heading: "Laboratory rechecks" },
    "A result above the patient's species range for one of these analytes gets a recheck reminder (kind lab_recheck, subject the analyte code), due the given number of days after the run date. One reminder per patient and analyte, dated from the latest run with the value above range. Not for deceased or transferred patients.",
    { table: { headers: ["analyte", "recheck after (days)"], rows: Object.entries(RECHECK_DAYS) } },
    { heading: "Weight loss" },
    "Unintended weight loss is flagged when the weight fell by at least the threshold between the patient's two most recent visits with a clinic weight (visits where the animal was not weighed do not count).",
    { table: { headers: ["species", "threshold (%)"], rows: Object.entries(WEIGHT_LOSS_PCT) } },
    "Each flagged patient gets one weight check reminder (kind weight_check, subject WEIGHT) due 14 days after today, unless it already has an open weight_check reminder.",
  ]);

export function writeDocuments(context: GenerateContext): void {
  context.writeFile(PATHS.protocol, protocol());
  context.writeFile(PATHS.formulary, formulary());
  context.writeFile(PATHS.ranges, ranges());
  context.writeFile(PATHS.reminders, reminders());
}
