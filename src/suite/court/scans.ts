import type { SeededRandom } from "../../core/index.js";
import {
  MONTH_NAMES,
  hyphenate,
  ocrAmount,
  ocrConfuse,
  renderPages,
  scanStamp,
  strayLine,
} from "../../envs/index.js";
import { COUNTY } from "./rules.js";

/** A case number as papers write it: `CV-2025-00123`, `CV 25-123`, `No. 2025CV123`, digits now and then misread. */
export function caseNumberText(random: SeededRandom, caseId: string, noisy = true): string {
  const [prefix, year, number] = caseId.split("-") as [string, string, string];
  const n = String(Number(number));
  const text = random.pick([
    caseId,
    `${prefix} ${year.slice(2)}-${n}`,
    `No. ${year}${prefix}${n}`,
    `${prefix}-${year}-${number}`,
  ]);
  if (!noisy || !random.chance(0.35)) return text;
  const digits = [...text.matchAll(/[01]/g)].map((m) => m.index ?? 0);
  if (digits.length === 0) return text;
  const at = random.pick(digits);
  return text.slice(0, at) + (text[at] === "0" ? "O" : "l") + text.slice(at + 1);
}

const MON = MONTH_NAMES.map((name) => name.slice(0, 3).toUpperCase());

/** A date as typed or stamped on a paper: five styles. */
export function dateText(random: SeededRandom, day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const mm = String(m).padStart(2, "0");
  const dd = String(d).padStart(2, "0");
  return random.pick([
    `${MONTH_NAMES[m - 1]} ${d}, ${y}`,
    `${mm}/${dd}/${y}`,
    `${m}/${d}/${String(y).slice(2)}`,
    `${MON[m - 1]} ${dd} ${y}`,
    `${d} ${MON[m - 1]} ${y}`,
    day,
  ]);
}

const pad = (random: SeededRandom, text: string, column: number): string =>
  " ".repeat(Math.max(0, column + random.int(-3, 3))) + text;

function filedStamp(random: SeededRandom, day: string): string[] {
  return [
    pad(random, "F I L E D", 52),
    pad(random, `Superior Court of ${COUNTY} County`, 44),
    pad(random, dateText(random, day), 50),
    pad(random, "By ____________, Deputy Clerk", 44),
  ];
}

function caption(
  random: SeededRandom,
  caseId: string,
  plaintiff: string,
  defendant: string,
  noisy: boolean,
  column = 46,
): string[] {
  const defendantLines = hyphenate(ocrConfuse(random, defendant, 0.3), random.int(10, 16));
  return [
    `SUPERIOR COURT OF CALIFORNIA, COUNTY OF ${COUNTY.toUpperCase()}`,
    "",
    `PLAINTIFF: ${ocrConfuse(random, plaintiff, 0.3)}`,
    "",
    "DEFENDANT:",
    ...defendantLines.map((line) => `   ${line}`),
    pad(random, "CASE NUMBER:", column),
    pad(random, caseNumberText(random, caseId, noisy), column),
  ];
}

function document(
  random: SeededRandom,
  scannedOn: string,
  form: string,
  firstPage: string[],
  body: string[][],
): string[] {
  return renderPages({
    body: [firstPage, ...body],
    linesPerPage: random.int(26, 34),
    header: () => [scanStamp(random, scannedOn), ""],
    footer: (page, pages) => [
      "",
      ...strayLine(random, 0.25),
      `${form}`.padEnd(58) + `Page ${page} of ${pages}`,
    ],
  });
}

export interface ProofFacts {
  caseId: string;
  plaintiff: string;
  defendant: string;
  served: string;
  method: "personal" | "substituted";
  mailed: string | null;
  executed: string;
  filed: string;
  server: string;
  signed: boolean;
}

/** A proof of service of summons (form POS-010) as scanned: one document of one or two pages. */
export function renderProof(random: SeededRandom, facts: ProofFacts): string[] {
  const box = (on: boolean): string => (on ? random.pick(["[X]", "[x]"]) : "[ ]");
  const time = `${random.int(7, 19) % 12 || 12}:${String(random.int(0, 59)).padStart(2, "0")} ${random.pick(["a.m.", "p.m."])}`;
  const first = [
    ...filedStamp(random, facts.filed),
    "",
    ...caption(random, facts.caseId, facts.plaintiff, facts.defendant, true),
    "",
    "            PROOF OF SERVICE OF SUMMONS",
    "",
    "1. At the time of service I was at least 18 years of age and not a party to",
    "   this action.",
    `2. I served copies of the summons and complaint on (name): ${facts.defendant}`,
    `3. Date of service: ${dateText(random, facts.served)}     Time: ${time}`,
    "4. I served the party:",
    `   a. ${box(facts.method === "personal")} by personal service. I personally delivered the documents`,
    "          to the party or person authorized to receive service.",
    `   b. ${box(facts.method === "substituted")} by substituted service. I left the documents with a`,
    "          competent adult at the dwelling or usual place of business and",
    facts.mailed
      ? `          thereafter mailed a copy on (date): ${dateText(random, facts.mailed)}`
      : "          thereafter mailed a copy on (date): ______________",
  ];
  const signature = facts.signed
    ? [pad(random, `/s/ ${facts.server}`, 34), pad(random, "______________________________", 30)]
    : ["", pad(random, "______________________________", 30)];
  const last = [
    `5. Person who served papers: ${facts.server}`,
    `   Registered California process server No. ${random.int(1000, 9999)}, County of ${COUNTY}`,
    `   Fee for service: $ ${ocrAmount(random, random.pick([45, 65, 85, 120]), { probability: 0.3 })}`,
    "",
    "I declare under penalty of perjury under the laws of the State of California",
    "that the foregoing is true and correct.",
    "",
    `Executed on: ${dateText(random, facts.executed)}`,
    "",
    ...signature,
    pad(random, "(SIGNATURE OF PERSON WHO SERVED)", 30),
  ];
  return document(random, facts.filed, "POS-010 [Rev. January 1, 2024]", first, [last]);
}

export interface FilingFacts {
  caseId: string;
  plaintiff: string;
  defendant: string;
  title: string;
  filed: string;
  signer: string;
  amountDemanded: number | null;
  paid: number;
  receipt: string;
}

const BOILERPLATE: Record<string, string> = {
  complaint: "Defendant failed to pay sums due under a written agreement.",
  claim: "Defendant owes me money for goods delivered and not paid for.",
  answer: "Defendant generally denies each allegation of the complaint.",
  demurrer: "The complaint does not state facts sufficient to constitute a cause of action.",
  motion: "The moving party moves for an order as set forth in the notice.",
};

/** A filing as its scanned image is read back: caption, body, signature and the cashier's receipt stamp. */
export function renderFiling(random: SeededRandom, type: string, facts: FilingFacts): string {
  const body = hyphenate(BOILERPLATE[type] ?? BOILERPLATE.motion!, random.int(60, 74));
  const demand =
    facts.amountDemanded === null
      ? []
      : [`Amount demanded: $${ocrAmount(random, facts.amountDemanded, { probability: 0.2 })}`];
  const receipt = [
    pad(random, `CASHIER RECEIPT ${facts.receipt}`, 4),
    pad(random, `FEE PAID: $ ${ocrAmount(random, facts.paid, { probability: 0.45 })}`, 4),
    pad(
      random,
      `Clerk ${random.pick(["JMK", "RTA", "LBW", "DSO"])}  Date ${dateText(random, facts.filed)}`,
      4,
    ),
  ];
  const first = [
    ...caption(random, facts.caseId, facts.plaintiff, facts.defendant, false, 8),
    `    ${facts.title.toUpperCase()}`,
    ...body,
    ...demand,
    `Dated: ${dateText(random, facts.filed)}`,
    pad(random, `/s/ ${facts.signer}`, 6),
    ...receipt,
  ];
  return [...first, "", ...strayLine(random, 0.25), "Page 1 of 1"].join("\n");
}

export interface IntakeFacts {
  caseId: string;
  plaintiff: string;
  defendant: string;
  title: string;
  signed: string;
  filed: string;
  signer: string;
}

/** A paper received by mail for the intake tray: FILED stamp, caption, a title that may wrap, signature date. */
export function renderIntake(random: SeededRandom, facts: IntakeFacts): string[] {
  const titleLines = random.chance(0.4)
    ? hyphenate(facts.title, Math.ceil(facts.title.length / 2) + 2)
    : [facts.title];
  const first = [
    ...filedStamp(random, facts.filed),
    "",
    ...caption(random, facts.caseId, facts.plaintiff, facts.defendant, true),
    "",
    ...titleLines.map((line) => `            ${line}`),
    "",
    ...hyphenate(
      "The undersigned submits this paper for filing in the above-entitled action and requests that it be entered on the register of actions.",
      random.int(60, 74),
    ),
    "",
  ];
  const close = [
    "I declare under penalty of perjury that the foregoing is true and correct.",
    `Dated: ${dateText(random, facts.signed)}`,
    pad(random, `/s/ ${facts.signer}`, 34),
  ];
  return document(random, facts.filed, "MC-INTAKE", first, [close]);
}
