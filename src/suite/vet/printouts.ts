import type { SeededRandom } from "../../core/index.js";
import { ANALYTES, type Analyte } from "./rules.js";

/** One specimen's results as the analyser ran it. */
export interface LabRun {
  labId: string;
  patientId: string;
  patientName: string;
  owner: string;
  panel: string;
  ranAt: string;
  /** Analyte code -> value in conventional units; null when the analyser could not measure it. */
  values: Map<string, number | null>;
}

export interface Analyser {
  model: string;
  serial: string;
  /** Prints BUN, CREA and GLU in SI units. */
  si: boolean;
}

const WIDTH = 78;
const rule = (char: string): string => char.repeat(WIDTH);
const pad = (text: string, width: number): string => text.padEnd(width).slice(0, width);

function printed(
  analyte: Analyte,
  value: number,
  si: boolean,
): { text: string; unit: string; range: string } {
  const [low, high] = analyte.ranges.dog; // the analyser runs every species on its default canine profile
  if (si && analyte.si) {
    const [unit, factor] = analyte.si;
    const digits = unit === "umol/L" ? 0 : 1;
    const range = `${(low / factor).toFixed(digits)} - ${(high / factor).toFixed(digits)}`;
    return { text: (value / factor).toFixed(digits), unit, range };
  }
  return { text: value.toFixed(analyte.decimals), unit: analyte.unit, range: `${low} - ${high}` };
}

function resultLine(analyte: Analyte, value: number | null, si: boolean): string {
  if (value === null)
    return `${pad(analyte.code, 10)}${"---".padStart(9)}   ${pad("", 10)}${pad("", 18)}HEMOLYZED`;
  const shown = printed(analyte, value, si);
  const [low, high] = analyte.ranges.dog;
  const flag = value > high ? "H" : value < low ? "L" : "";
  return `${pad(analyte.code, 10)}${shown.text.padStart(9)}   ${pad(shown.unit, 10)}${pad(shown.range, 18)}${flag}`.trimEnd();
}

/** A batch printout: page headers repeat every `pageLines` lines, reports run across page breaks. */
export function renderPrintout(
  random: SeededRandom,
  clinic: string,
  analyser: Analyser,
  runs: LabRun[],
): string {
  const lines: string[] = [];
  for (const run of runs) {
    lines.push(
      `ACCESSION: ${run.labId}     PATIENT: ${run.patientId} "${run.patientName}"`,
      `OWNER: ${pad(run.owner, 22)}RUN: ${run.ranAt}     PANEL: ${run.panel}`,
      `SPECIES PROFILE: CANINE (default)`,
      rule("-"),
      `${pad("TEST", 10)}${"RESULT".padStart(9)}   ${pad("UNITS", 10)}${pad("REF RANGE", 18)}FLAG`,
    );
    for (const analyte of ANALYTES.filter((item) => item.panel === run.panel))
      lines.push(resultLine(analyte, run.values.get(analyte.code) ?? null, analyser.si));
    if (random.chance(0.3)) lines.push("  * sample slightly lipemic; interpret TG-sensitive tests with care");
    lines.push(rule("-"), "*** END OF REPORT ***", "");
  }
  const pageLines = random.int(14, 20);
  const pages: string[] = [];
  for (let start = 0, page = 1; start < lines.length; start += pageLines, page += 1) {
    const header = [
      `${pad(`VETLAB ${analyser.model} CHEMISTRY/HEMATOLOGY`, 50)}S/N ${analyser.serial}   PAGE ${page}`,
      `${pad(clinic, 50)}Printed ${runs[0]!.ranAt.slice(0, 10)}`,
      rule("="),
    ];
    pages.push([...header, ...lines.slice(start, start + pageLines)].join("\n"));
  }
  return `${pages.join("\n\f\n")}\n`;
}
