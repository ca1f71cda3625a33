/**
 * The truck scale's daily ticket journals (`logs/<elevator>/scale-<date>.log`): lanes interleaved, scale
 * heartbeats, tare-only weighings, operator comments, re-probed samples (the last probe is the grade), and
 * voided tickets reissued under a new number on one REISSUE line. Weights print in the elevator's units.
 * Verifiers read the files back with `readScaleLogs`.
 */
import type { GenerateContext, StateView } from "../../envs/index.js";
import { KG_TO_LB } from "./world.js";

type Random = GenerateContext["random"];

export interface Grade {
  moisture: number;
  testWeight: number;
  fm: number;
}

/** One weighing as the scale saw it: weights in the elevator's units. */
export interface ScaleTicket {
  id: string;
  elevator: string;
  date: string;
  member: string;
  crop: string;
  designation: string;
  gross: number;
  tare: number;
  grade: Grade;
  /** An earlier probe of the same load, superseded by `grade`. */
  reprobe?: Grade;
  /** Seconds after midnight of the IN line, and the lane. */
  at: number;
  lane: number;
  /** The ticket that replaced this one (VOID + REISSUE lines), with what was corrected. */
  reissue?: { ticket: ScaleTicket; at: number; reason: string };
}

export interface LogSite {
  id: string;
  name: string;
  units: "lb" | "kg";
  commas: boolean;
}

export const logPath = (elevator: string, day: string): string => `logs/${elevator}/scale-${day}.log`;

const OPERATORS = ["kdavis", "mhruska", "jortega", "bpetersen"];
const clock = (s: number): string =>
  [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((v) => String(v).padStart(2, "0")).join(":");

function weight(site: LogSite, value: number): string {
  return `${site.commas ? value.toLocaleString("en-US") : String(value)} ${site.units}`;
}

const gradeText = (g: Grade): string =>
  `moist ${g.moisture.toFixed(1)}%  tw ${g.testWeight.toFixed(1)}  fm ${g.fm.toFixed(1)}%`;
const num = (id: string): string => id.slice(2);

/** One day's journal at one elevator. */
export function renderLog(random: Random, site: LogSite, day: string, tickets: ScaleTicket[]): string {
  const lines: Array<{ at: number; text: string }> = [];
  const add = (at: number, lane: number, event: string, rest: string): void => {
    lines.push({ at, text: `${clock(at)} L${lane} ${event.padEnd(7)} ${rest}` });
  };
  for (let at = 5 * 3600; at < 20 * 3600; at += 180)
    for (const lane of [1, 2])
      add(
        at + lane,
        lane,
        "WT",
        `${weight(site, random.chance(0.8) ? 0 : random.int(9000, 30000))}  ${random.pick(["STABLE", "STABLE", "MOTION"])}`,
      );
  for (let n = random.int(3, 7); n > 0; n -= 1)
    add(
      random.int(6 * 3600, 19 * 3600),
      random.int(1, 2),
      "TARE",
      `truck ${random.int(10, 99)}  tare ${weight(site, random.int(12000, 16000))}  (tare only, no ticket)`,
    );
  for (let n = random.int(2, 4); n > 0; n -= 1) {
    const at = random.int(6 * 3600, 19 * 3600);
    lines.push({
      at,
      text: `# ${clock(at).slice(0, 5)} opr ${random.pick(OPERATORS)}: ${random.pick(["probe B cleaned, readings resumed", "lane 2 rail swept", "truck 44 tare re-taken", "moisture meter check vs oven sample OK", "printer ribbon changed"])}`,
    });
  }
  for (const t of tickets) {
    add(
      t.at,
      t.lane,
      "IN",
      `tkt ${num(t.id)}  mbr ${t.member}  ${t.crop.toUpperCase()}  acct ${t.designation.toUpperCase()}  gross ${weight(site, t.gross)}`,
    );
    if (t.reprobe) add(t.at + 70, t.lane, "PROBE", `tkt ${num(t.id)}  ${gradeText(t.reprobe)}`);
    add(
      t.at + 150,
      t.lane,
      "PROBE",
      `tkt ${num(t.id)}  ${gradeText(t.grade)}${t.reprobe ? "  (resample)" : ""}`,
    );
    add(
      t.at + 420,
      t.lane,
      "OUT",
      `tkt ${num(t.id)}  tare ${weight(site, t.tare)}  net ${weight(site, t.gross - t.tare)}`,
    );
    const r = t.reissue;
    if (r) {
      add(r.at, t.lane, "VOID", `tkt ${num(t.id)}  reissued as ${num(r.ticket.id)}: ${r.reason}`);
      const n = r.ticket;
      add(
        r.at + 20,
        t.lane,
        "REISSUE",
        `tkt ${num(n.id)} (was ${num(t.id)})  mbr ${n.member}  ${n.crop.toUpperCase()}  acct ${n.designation.toUpperCase()}  gross ${weight(site, n.gross)}  tare ${weight(site, n.tare)}  net ${weight(site, n.gross - n.tare)}  ${gradeText(n.grade)}`,
      );
    }
  }
  lines.sort((a, b) => a.at - b.at || a.text.localeCompare(b.text));
  const header = `SCALE-LINK 4.2  ticket journal  site ${site.id} (${site.name})  date ${day}  units ${site.units.toUpperCase()}`;
  return `${[header, ...lines.map((l) => l.text)].join("\n")}\n`;
}

/** A completed ticket read back from the journals; weights in pounds. */
export type LogTicket = {
  ticket_id: string;
  elevator_id: string;
  ticket_date: string;
  member_id: string;
  crop: string;
  designation: string;
  gross_lb: number;
  tare_lb: number;
  net_lb: number;
  moisture: number;
  test_weight: number;
  fm: number;
};

const LINE = /^\d\d:\d\d:\d\d L\d (\w+)\s+tkt (\d+)(.*)$/;
const field = (rest: string, pattern: RegExp): string | undefined => pattern.exec(rest)?.[1];

function pounds(rest: string, name: string): number | undefined {
  const match = new RegExp(`${name} ([\\d,]+) (lb|kg)`).exec(rest);
  if (!match) return undefined;
  const value = Number(match[1]!.replace(/,/g, ""));
  return match[2] === "kg" ? value * KG_TO_LB : value;
}

/** Every ticket the journals printed (IN/PROBE/OUT or REISSUE), and the numbers voided. */
export function readScaleLogs(state: StateView): { tickets: Map<string, LogTicket>; voided: Set<string> } {
  const tickets = new Map<string, LogTicket>();
  const voided = new Set<string>();
  for (const path of state.listFiles().filter((p) => /^logs\/.*\.log$/.test(p))) {
    const [header, ...lines] = (state.readFile(path) ?? "").split("\n");
    const site = /site (ELV-\d\d)/.exec(header!)![1]!;
    const day = /date (\d{4}-\d\d-\d\d)/.exec(header!)![1]!;
    for (const line of lines) {
      const match = LINE.exec(line);
      if (!match) continue;
      const [, event, number, rest] = match as unknown as [string, string, string, string];
      const id = `T-${number}`;
      if (event === "VOID") voided.add(id);
      if (event === "IN" || event === "REISSUE")
        tickets.set(id, {
          ticket_id: id,
          elevator_id: site,
          ticket_date: day,
          member_id: field(rest, /mbr (M-\d+)/)!,
          crop: field(rest, /\b(CORN|SOYBEANS)\b/)!.toLowerCase(),
          designation: field(rest, /acct (\w+)/)!.toLowerCase(),
          gross_lb: pounds(rest, "gross")!,
          tare_lb: 0,
          net_lb: 0,
          moisture: 0,
          test_weight: 0,
          fm: 0,
        });
      const ticket = tickets.get(id);
      if (!ticket) continue;
      if (event === "OUT" || event === "REISSUE") {
        ticket.tare_lb = pounds(rest, "tare")!;
        ticket.net_lb = pounds(rest, "net")!;
      }
      if (event === "PROBE" || event === "REISSUE") {
        ticket.moisture = Number(field(rest, /moist ([\d.]+)%/));
        ticket.test_weight = Number(field(rest, /tw ([\d.]+)/));
        ticket.fm = Number(field(rest, /fm ([\d.]+)%/));
      }
    }
  }
  return { tickets, voided };
}
