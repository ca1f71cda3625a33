/**
 * Technicians' handheld notes, synced as one text dump per crew and day: free text in local time, work
 * order numbers and meter readings written however the technician typed them. Verifiers read the dumps
 * back with `readNotes`.
 */
import type { GenerateContext, StateView } from "../../envs/index.js";
import { LOCAL_OFFSET_HOURS, isoAt, secondsOf } from "./world.js";

type Random = GenerateContext["random"];

export interface NoteEntry {
  workOrder: number;
  meter: number;
  /** Minutes after local midnight. */
  minute: number;
  done: boolean;
  /** The reading the technician wrote down, null when none or illegible. */
  reading: number | null;
  illegible: boolean;
}

export interface NoteDump {
  crew: string;
  lead: string;
  skill: "electric" | "water";
  day: string;
  entries: NoteEntry[];
}

const DONE = ["CMPLT", "done", "completed", "job complete", "finished, site clean", "done - tested ok"];
const NOT_DONE = [
  "not done - need 2nd crew for excavation",
  "incomplete, parts on order",
  "no access, dog in yard, card left",
  "cust not home. rtn visit tmrw",
];
const WORK = {
  electric: ["replaced seal", "reset breaker", "tightened lugs"],
  water: ["curb stop exercised", "checked regs", "new gasket"],
};
const ASIDES = [
  "fuel 42.1 gal",
  "lunch 1200-1230",
  "truck inv: used 2x seal kit",
  "called dispatch re: traffic ctl",
];

const woText = (random: Random, n: number): string =>
  random.pick([
    `WO-${String(n).padStart(5, "0")}`,
    `wo ${n}`,
    `w/o #${String(n).padStart(5, "0")}`,
    `WO${String(n).padStart(5, "0")}`,
    `WO#${n}`,
  ]);

const meterText = (random: Random, n: number): string =>
  random.pick([`mtr M-${String(n).padStart(6, "0")}`, `meter ${n}`, `M${n}`, `mtr#${n}`]);

const readingText = (random: Random, value: number): string =>
  random.pick([
    `rdg ${String(value).padStart(6, "0")}`,
    `read ${value.toLocaleString("en-US")}`,
    `rd=${value}`,
    `rdg: ${value.toLocaleString("en-US")}`,
  ]);

const clock = (random: Random, minute: number): string => {
  const hh = String(Math.floor(minute / 60)).padStart(2, "0");
  const mm = String(minute % 60).padStart(2, "0");
  return random.chance(0.5) ? `${hh}${mm}` : `${hh}:${mm}`;
};

export const notesPath = (dump: Pick<NoteDump, "crew" | "day">): string =>
  `handheld/${dump.crew}_${dump.day}.txt`;

/** Renders one dump: header, then one line per entry, asides between. */
export function renderNotes(random: Random, dump: NoteDump): string {
  const [y, m, d] = dump.day.split("-");
  const lines = [
    `HH-SYNC EXPORT  crew ${dump.crew} (lead: ${dump.lead})  date ${m}/${d}/${y}`,
    `times local CDT (UTC${LOCAL_OFFSET_HOURS})`,
    "-".repeat(50),
  ];
  for (const entry of dump.entries) {
    const parts = [woText(random, entry.workOrder)];
    if (entry.reading !== null || entry.illegible)
      parts.push(
        `${meterText(random, entry.meter)} ${entry.illegible ? "rdg ?? glass fogged" : readingText(random, entry.reading!)}`,
      );
    parts.push(random.pick(WORK[dump.skill]));
    // A dump's first unfinished job is one whose note also holds "done" or "complete".
    const unfinished = entry === dump.entries.find((e) => !e.done) ? NOT_DONE.slice(0, 2) : NOT_DONE;
    parts.push(random.pick(entry.done ? DONE : unfinished));
    lines.push(`${clock(random, entry.minute)} ${parts.join(entry.reading === null ? " - " : ". ")}`);
    if (random.chance(0.3)) lines.push(random.pick(ASIDES));
  }
  return `${lines.join("\n")}\n`;
}

const WO_REF = /\bw\/?o\s*[-#]?\s*0*(\d+)/i;
const METER_REF = /\b(?:mtr|meter|m)\s*[#-]?\s*0*(\d+)\b/i;
const READING = /\b(?:rdg|read|rd)\s*[:=]?\s*(\d[\d,]*)/i;
const NOT_DONE_TEXT = /not done|incomplete|no access|rtn visit/i;
const DONE_TEXT = /cmplt|done|complete|finished/i;

export interface ParsedNote {
  workOrderId: string;
  meterId: string | null;
  day: string;
  completedAt: string;
  done: boolean;
  reading: number | null;
}

/** Every work-order line of every dump, as a careful reader takes it. */
export function readNotes(state: StateView): ParsedNote[] {
  const notes: ParsedNote[] = [];
  for (const path of state
    .listFiles()
    .filter((p) => p.startsWith("handheld/"))
    .sort()) {
    const text = state.readFile(path) ?? "";
    const [, m, d, y] = /date (\d{2})\/(\d{2})\/(\d{4})/.exec(text)!;
    const day = `${y}-${m}-${d}`;
    for (const line of text.split("\n")) {
      const wo = WO_REF.exec(line);
      const time = /^(\d{2}):?(\d{2}) /.exec(line);
      if (!wo || !time) continue;
      const local = secondsOf(`${day}T${time[1]}:${time[2]}:00Z`);
      const meter = METER_REF.exec(line.slice(wo.index + wo[0].length));
      const reading = READING.exec(line);
      notes.push({
        workOrderId: `WO-${wo[1]!.padStart(5, "0")}`,
        meterId: meter ? `M-${meter[1]!.padStart(6, "0")}` : null,
        day,
        completedAt: isoAt(local - LOCAL_OFFSET_HOURS * 3600),
        done: !NOT_DONE_TEXT.test(line) && DONE_TEXT.test(line),
        reading: reading ? Number(reading[1]!.replace(/,/g, "")) : null,
      });
    }
  }
  return notes;
}
