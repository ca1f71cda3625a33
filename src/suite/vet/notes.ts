import type { SeededRandom } from "../../core/index.js";
import { LB_PER_KG } from "./rules.js";

/** What a clinician's SOAP note records; the text varies in headers, casing and units as typed notes do. */
export interface NoteFacts {
  reason: string;
  /** The weight measured in the clinic, null when the animal was not weighed. */
  weightKg: number | null;
  /** Whether the note writes the weight in pounds. */
  inPounds: boolean;
  /** The owner's home-scale weight in kg, mentioned in the history (a distractor). */
  homeKg: number | null;
  /** A target weight in kg in the plan (a distractor). */
  goalKg: number | null;
  rxLine: string | null;
}

const HEADERS: Array<[string, string, string, string]> = [
  ["S:", "O:", "A:", "P:"],
  ["s:", "o:", "a:", "p:"],
  ["Subjective:", "Objective:", "Assessment:", "Plan:"],
  ["SUBJ -", "OBJ -", "ASSESS -", "PLAN -"],
];
const EXAMS = [
  "MM pink, CRT<2s. H/L ausc WNL.",
  "mm pk moist, crt <2. abd soft, nonpainful.",
  "BAR. mild dental calculus. LN wnl.",
  "QAR, mild dehydration est 5%. abd tense on palp.",
  "Otitis externa AD, erythema +, ceruminous d/c.",
];
const ASSESSMENTS: Record<string, string> = {
  "wellness exam": "healthy adult. dental dz gr 1",
  vomiting: "acute gastritis, r/o FB, pancreatitis",
  lameness: "soft tissue injury LHL vs early OA",
  "ear infection": "otitis externa, yeast on cytology",
  "weight loss": "wt loss - r/o hyperthyroid, CKD, dental dz",
  recheck: "improving, continue current plan",
  "skin lesions": "pyoderma, superficial",
};
export const VISIT_REASONS = Object.keys(ASSESSMENTS);

function weightText(random: SeededRandom, kg: number, pounds: boolean): string {
  const value = (pounds ? kg * LB_PER_KG : kg).toFixed(kg < 10 ? 2 : 1);
  const label = random.pick(["wt", "Wt:", "BW", "weight", "WT"]);
  const unit = pounds ? random.pick(["lb", " lb", "lbs", " LBS"]) : random.pick(["kg", " kg", " KG", "Kg"]);
  return `${label} ${value}${unit}`;
}

export function renderSoapNote(random: SeededRandom, facts: NoteFacts): string {
  const [s, o, a, p] = random.pick(HEADERS);
  const days = random.int(1, 6);
  const subjective = [
    `${s} ${facts.reason} x${days}d per O. eating ${random.pick(["ok", "less", "well"])}, no V/D.`,
  ];
  if (facts.homeKg !== null)
    subjective.push(`O reports home weight ${(facts.homeKg * LB_PER_KG).toFixed(0)} lb on bathroom scale.`);
  const weight =
    facts.weightKg === null
      ? random.pick(["wt not obtained (fractious)", "no wt today - scale down"])
      : weightText(random, facts.weightKg, facts.inPounds);
  const vitals = `T ${(38 + random.next() * 1.5).toFixed(1)}C HR ${random.int(80, 200)} RR ${random.int(18, 40)}`;
  const objective = `${o} ${random.chance(0.5) ? `${vitals}, ${weight}` : `${weight}. ${vitals}`}, BCS ${random.int(3, 7)}/9. ${random.pick(EXAMS)}`;
  const plan = [`${p} ${random.pick(["recheck 2 wks", "recheck prn", "owner to monitor, call if worse"])}.`];
  if (facts.rxLine) plan.push(facts.rxLine);
  if (facts.goalKg !== null) plan.push(`diet change, goal wt ${facts.goalKg.toFixed(1)} kg.`);
  return [...subjective, objective, `${a} ${ASSESSMENTS[facts.reason]}`, plan.join(" ")].join("\n");
}

const OBJECTIVE = /^(?:o|obj|objective)\s*[:-]/i;
const SECTION = /^(?:s|subj|subjective|o|obj|objective|a|assess|assessment|p|plan)\s*[:-]/i;
const WEIGHT = /\b(?:wt|bw|weight)[:=]?\s*(\d+(?:\.\d+)?)\s*(kg|lbs?)\b/i;

/** The weight measured in the clinic (Objective section), in kg, or null. */
export function objectiveWeightKg(note: string): number | null {
  const lines = note.split("\n");
  const start = lines.findIndex((line) => OBJECTIVE.test(line));
  if (start < 0) return null;
  const end = lines.findIndex((line, index) => index > start && SECTION.test(line));
  const found = WEIGHT.exec(lines.slice(start, end < 0 ? undefined : end).join("\n"));
  if (!found) return null;
  const value = Number(found[1]);
  return found[2]!.toLowerCase() === "kg" ? value : value / LB_PER_KG;
}
