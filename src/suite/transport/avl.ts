/**
 * AVL (GPS telematics) exports as the bus units write them: one line per fix, door or ignition event,
 * stamped in local time with its offset by current units and in UTC with speeds in km/h by legacy ones,
 * with raw NMEA sentences, truncated writes and modem noise in between.
 */
import { getRow } from "../../envs/index.js";
import type { ToolContext } from "../../envs/index.js";
import { KPH_PER_MPH, LOCAL_OFFSET_MINUTES } from "./world.js";
import type { Bus, Random } from "./world.js";

/** A planned line: seconds since local midnight, the event and its fields. */
export interface AvlEvent {
  at: number;
  event: "GPS" | "DOOR_OPEN" | "DOOR_CLOSE" | "IGN_ON" | "IGN_OFF";
  mph?: number;
  geo?: string;
  /** A garbled line is written right after this one. */
  noiseAfter?: boolean;
}

const pad = (value: number): string => String(value).padStart(2, "0");

function stamp(date: string, localSeconds: number, legacy: boolean): string {
  const utcSeconds = legacy ? localSeconds - LOCAL_OFFSET_MINUTES * 60 : localSeconds;
  const day = new Date(Date.parse(`${date}T00:00:00Z`) + utcSeconds * 1000).toISOString();
  if (legacy) return `${day.slice(0, 19)}Z`;
  const offset = -LOCAL_OFFSET_MINUTES;
  return `${day.slice(0, 19)}-${pad(Math.floor(offset / 60))}:${pad(offset % 60)}`;
}

/** Noise the units write between real lines; none of it parses as an event line. */
function noiseLine(random: Random, real: string): string {
  switch (random.int(0, 3)) {
    case 0:
      return `$GPRMC,${random.int(100000, 235959)},A,4152.${random.int(100, 999)},N,08737.${random.int(100, 999)},W,0${random.int(10, 40)}.${random.int(0, 9)},${random.int(100, 359)}.0,${random.int(100000, 311299)},,*${random.int(10, 99)}`;
    case 1:
      return real.slice(0, random.int(12, 30));
    case 2:
      return `${real.slice(0, 27)}\uFFFD\uFFFD${real.slice(33, 40)}\uFFFD`;
    default:
      return `!! modem: link reset (rssi=-${random.int(95, 118)} dBm), buffered ${random.int(2, 40)} records`;
  }
}

/** The lines of one bus-day: a header, then every event in order with noise in between. */
export function renderAvlDay(random: Random, bus: Bus, date: string, events: AvlEvent[]): string[] {
  let lat = 41.82 + random.next() * 0.12;
  let lon = -87.72 + random.next() * 0.14;
  const lines = [
    `# AVL export unit=${bus.avlUnit} bus=${bus.id} date=${date} fw=${bus.legacy ? "2.4.1" : "3.1.7"}`,
  ];
  for (const item of events) {
    lat += (random.next() - 0.5) * 0.004;
    lon += (random.next() - 0.5) * 0.004;
    let tail = "";
    if (item.event === "GPS") {
      const speed = bus.legacy
        ? `${((item.mph ?? 0) * KPH_PER_MPH).toFixed(1)}kph`
        : `${(item.mph ?? 0).toFixed(1)}mph`;
      tail = ` ${lat.toFixed(4)},${lon.toFixed(4)} spd=${speed}`;
    } else if (item.event.startsWith("DOOR")) tail = ` geo=${item.geo ?? "NONE"}`;
    const line = `${stamp(date, item.at, bus.legacy)} ${bus.id} ${item.event}${tail}`;
    lines.push(line);
    if (item.noiseAfter) lines.push(noiseLine(random, line));
  }
  return lines;
}

export interface ParsedAvl {
  /** Seconds since the Unix epoch. */
  at: number;
  bus: string;
  event: string;
  mph: number | null;
  geo: string | null;
}

const LINE =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})) (BUS-\d{3}) (GPS|DOOR_OPEN|DOOR_CLOSE|IGN_ON|IGN_OFF)((?: \S+)*)$/;

/** One export line read back (null for headers and noise). */
export function parseAvlLine(line: string): ParsedAvl | null {
  const found = LINE.exec(line);
  if (!found) return null;
  const rest = found[4]!;
  const speed = / spd=([\d.]+)(mph|kph)/.exec(rest);
  const mph = speed ? (speed[2] === "kph" ? Number(speed[1]) / KPH_PER_MPH : Number(speed[1])) : null;
  return {
    at: Date.parse(found[1]!) / 1000,
    bus: found[2]!,
    event: found[3]!,
    mph,
    geo: / geo=(\S+)/.exec(rest)?.[1] ?? null,
  };
}

/** A bus-day's export as stored, or undefined when there is none. */
export const avlText = (db: ToolContext["db"], bus: string, date: string): string | undefined =>
  getRow<{ text: string }>(db, "SELECT text FROM avl_exports WHERE bus_id = ? AND log_date = ?", bus, date)
    ?.text;
