/**
 * The SCADA alarm journal, exported one UTC day per file: breaker trips (RAISE, repeated while reclosers
 * try, then CLEAR), analog limit alarms chattering on the same feeders, pump-station and RTU alarms,
 * operator acknowledgements and heartbeats. Outages are planned first; the journal is rendered from them,
 * and verifiers read the files back with `readOutages`.
 */
import { addDays, dateRange } from "../../envs/index.js";
import type { GenerateContext, StateView } from "../../envs/index.js";
import { isoAt, secondsOf } from "./world.js";

type Random = GenerateContext["random"];

export interface Outage {
  feeder: string;
  substation: string;
  raise: number;
  clear: number;
  /** Further RAISE lines while the breaker stayed open (reclose attempts). */
  repeats: number[];
}

export interface Interruption {
  feeder: string;
  start: number;
  end: number;
  minutes: number;
}

const OPERATORS = ["jlee", "mokafor", "tbrandt", "rsingh"];
const DAY = 86_400;

/** The exported days: the last `5 * files - 1` days before the reference date. */
export function scadaDays(referenceDate: string, files: number): string[] {
  return dateRange(addDays(referenceDate, -(5 * files - 1)), addDays(referenceDate, -1));
}

export const scadaPath = (day: string): string => `scada/alarm-journal-${day}.log`;

/** Plans the feeder outages: random ones plus the cases the tasks turn on, none overlapping on a feeder. */
export function planOutages(
  random: Random,
  feeders: Array<{ id: string; substation: string }>,
  days: string[],
): Outage[] {
  const first = secondsOf(`${days[0]}T00:00:00Z`);
  const last = secondsOf(`${days.at(-1)}T00:00:00Z`);
  const outages: Outage[] = [];
  const add = (index: number, raise: number, seconds: number, repeats: number[] = []): void => {
    const feeder = feeders[index % feeders.length]!;
    const clear = raise + seconds;
    if (outages.some((o) => o.feeder === feeder.id && o.raise < clear + 600 && raise < o.clear + 600)) return;
    outages.push({ feeder: feeder.id, substation: feeder.substation, raise, clear, repeats });
  };
  const dayStart = (n: number): number => first + (n % days.length) * DAY;
  // Planted: a 5-minute trip exactly; a 62-minute outage whose last reclose left 58 minutes.
  add(0, dayStart(1) + 10 * 3600 + 17, 300);
  add(0, dayStart(2) + 15 * 3600 + 41, 62 * 60 + 20, [240, 250]);
  // Planted: an outage across midnight (two files), and a second shorter one: over 60 minutes together.
  add(1, dayStart(0) + 23 * 3600 + 35 * 60 + 12, 51 * 60 + 9);
  add(1, dayStart(2) + 6 * 3600 + 5 * 60, 24 * 60 + 33, [95]);
  // Planted: momentary trips just under the threshold.
  add(2, dayStart(1) + 3 * 3600 + 2 * 60, 296);
  add(3, dayStart(3) + 18 * 3600 + 44 * 60, 41, [12]);
  // Planted: an interruption of exactly 60:00 (the follow-up threshold is inclusive).
  add(2, dayStart(2) + 11 * 3600 + 20 * 60 + 7, 3600);
  for (let index = 0; index < feeders.length; index += 1) {
    const count = random.int(1, 1 + Math.floor(days.length / 3));
    for (let n = 0; n < count; n += 1) {
      const momentary = random.chance(0.35);
      // The planted feeders' other outages stay under an hour, so only the planted ones reach it.
      const longest = index < 3 ? 50 * 60 : 200 * 60;
      const seconds = momentary ? random.int(15, 285) : random.int(6 * 60, longest);
      const raise = random.int(first + 1800, last + 20 * 3600 - seconds);
      const repeats = random.chance(0.4)
        ? Array.from({ length: random.int(1, 3) }, () => random.int(5, Math.min(seconds - 5, 300))).sort(
            (a, b) => a - b,
          )
        : [];
      add(index, raise, seconds, repeats);
    }
  }
  return outages;
}

interface JournalLine {
  at: number;
  text: string;
}

function stamp(random: Random, at: number, millis?: number): string {
  return `${isoAt(at).slice(0, 19).replace("T", " ")}.${String(millis ?? random.int(0, 999)).padStart(3, "0")}`;
}

function line(
  random: Random,
  at: number,
  source: string,
  tag: string,
  state: string,
  pri: string,
  text: string,
  millis?: number,
): JournalLine {
  return {
    at,
    text: `${stamp(random, at, millis)}  ${source.padEnd(11)} ${tag.padEnd(22)} ${state.padEnd(6)} ${pri}  ${text}`,
  };
}

/** Lines with nothing to do with breaker trips: analog chatter, pumps, RTUs, heartbeats. */
function noise(
  random: Random,
  day: string,
  feeders: Array<{ id: string; substation: string }>,
): JournalLine[] {
  const start = secondsOf(`${day}T00:00:00Z`);
  const lines: JournalLine[] = [];
  for (let minute = 0; minute < 1440; minute += 5)
    lines.push(line(random, start + minute * 60, "SCADA-FE01", "SYS.HEARTBEAT", "INFO", "--", "ok"));
  for (const feeder of feeders)
    for (let n = random.int(8, 16); n > 0; n -= 1) {
      const at = start + random.int(0, DAY - 900);
      const tag = `${feeder.id}.${random.pick(["AMPS.HI", "VOLT.LO", "PF.LO"])}`;
      for (let chatter = random.int(1, 4), t = at; chatter > 0; chatter -= 1) {
        lines.push(line(random, t, feeder.substation, tag, "RAISE", "P3", "LIMIT EXCEEDED"));
        t += random.int(2, 40);
        lines.push(line(random, t, feeder.substation, tag, "CLEAR", "P3", "RETURN TO NORMAL"));
        t += random.int(5, 120);
      }
    }
  for (let n = random.int(4, 10); n > 0; n -= 1) {
    const at = start + random.int(0, DAY - 4000);
    const tag = random.pick(["PS-2.PUMP1.FAIL", "PS-4.PUMP2.FAIL", "RES-1.LEVEL.LO", "RTU-07.COMM.FAIL"]);
    const source = tag.startsWith("RTU") ? "SCADA-FE01" : "WATER-OPS";
    lines.push(line(random, at, source, tag, "RAISE", "P2", tag.includes("COMM") ? "COMM LOSS" : "ALARM"));
    lines.push(line(random, at + random.int(60, 3600), source, tag, "CLEAR", "P2", "NORMAL"));
  }
  return lines;
}

function tripLines(random: Random, outage: Outage): JournalLine[] {
  const tag = `${outage.feeder}.CB.TRIP`;
  const millis = random.int(0, 999);
  const lines = [line(random, outage.raise, outage.substation, tag, "RAISE", "P1", "BREAKER OPEN", millis)];
  for (const after of outage.repeats)
    lines.push(line(random, outage.raise + after, outage.substation, tag, "RAISE", "P1", "BREAKER OPEN"));
  lines.push(line(random, outage.clear, outage.substation, tag, "CLEAR", "P1", "BREAKER CLOSED", millis));
  if (outage.clear - outage.raise > 120)
    lines.push(
      line(
        random,
        outage.raise + random.int(30, 110),
        outage.substation,
        tag,
        "ACK",
        "--",
        `by opr ${random.pick(OPERATORS)}`,
      ),
    );
  return lines;
}

/** Writes one journal file per exported day. */
export function writeJournals(
  context: GenerateContext,
  feeders: Array<{ id: string; substation: string }>,
  days: string[],
  outages: Outage[],
): void {
  const { random } = context;
  const trips = outages.flatMap((outage) => tripLines(random, outage));
  for (const day of days) {
    const start = secondsOf(`${day}T00:00:00Z`);
    const lines = [
      ...noise(random, day, feeders),
      ...trips.filter((l) => l.at >= start && l.at < start + DAY),
    ];
    lines.sort((a, b) => a.at - b.at || a.text.localeCompare(b.text));
    const header = [
      "# SCADA ALARM JOURNAL EXPORT",
      `# host scada-fe01  period ${day} 00:00:00 .. ${day} 23:59:59 UTC  records ${lines.length}`,
      "# time (UTC)              source      tag                    state  pri text",
    ];
    context.writeFile(scadaPath(day), `${[...header, ...lines.map((l) => l.text)].join("\n")}\n`);
  }
}

const TRIP =
  /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}\.\d{3})\s+\S+\s+(FDR-\d{3})\.CB\.TRIP\s+(RAISE|CLEAR)\b/;

/** Every interruption in the exported journals: first RAISE to the next CLEAR, across files. */
export function readOutages(state: StateView): Interruption[] {
  const open = new Map<string, number>();
  const found: Interruption[] = [];
  for (const path of state
    .listFiles()
    .filter((p) => p.startsWith("scada/"))
    .sort())
    for (const text of (state.readFile(path) ?? "").split("\n")) {
      const match = TRIP.exec(text);
      if (!match) continue;
      const at = Date.parse(`${match[1]}T${match[2]}Z`) / 1000;
      const feeder = match[3]!;
      if (match[4] === "RAISE" && !open.has(feeder)) open.set(feeder, at);
      if (match[4] === "CLEAR" && open.has(feeder)) {
        const start = open.get(feeder)!;
        open.delete(feeder);
        found.push({ feeder, start, end: at, minutes: (at - start) / 60 });
      }
    }
  return found;
}
