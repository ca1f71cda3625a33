/**
 * Instants as whole seconds since the epoch (UTC), and the ways the team's systems print them: the pager in
 * UTC (`2025-06-12T14:03:27Z`), the deploy system with the deployer's offset, people in their own zone.
 */
import { mondayOf } from "../../envs/index.js";

/** The moment the agent works in: the instance's reference date, 18:00 UTC. */
export const NOW = "2025-06-30T18:00:00Z";
export const JUNE_START = Date.UTC(2025, 5, 1) / 1000;
export const HOUR = 3600;
export const DAY = 86_400;

/** Zones people and systems print times in: abbreviation and offset from UTC in minutes. */
export const ZONES = [
  { abbreviation: "UTC", offsetMinutes: 0 },
  { abbreviation: "PDT", offsetMinutes: -420 },
  { abbreviation: "CEST", offsetMinutes: 120 },
  { abbreviation: "IST", offsetMinutes: 330 },
] as const;
export type Zone = (typeof ZONES)[number];

export function seconds(iso: string): number {
  const value = Date.parse(iso);
  if (Number.isNaN(value)) throw new Error(`not a timestamp: ${iso}`);
  return value / 1000;
}

/** `2025-06-12T14:03:27Z` */
export function isoUtc(at: number): string {
  return new Date(at * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function offsetText(offsetMinutes: number, separator: string): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${separator}${String(abs % 60).padStart(2, "0")}`;
}

/** The wall-clock fields of an instant in a zone: `2025-06-12T07:03:27` for PDT. */
export function localFields(at: number, zone: Zone): string {
  return isoUtc(at + zone.offsetMinutes * 60).slice(0, 19);
}

/** `2025-06-12T07:03:27-07:00` (`Z` in UTC), as the deploy system prints times. */
export function isoWithOffset(at: number, zone: Zone): string {
  return zone.offsetMinutes === 0
    ? isoUtc(at)
    : `${localFields(at, zone)}${offsetText(zone.offsetMinutes, ":")}`;
}

/** `2025-06-12 07:03 PDT`, as a person writes a time. */
export function wallClock(at: number, zone: Zone): string {
  return `${localFields(at, zone).slice(0, 16).replace("T", " ")} ${zone.abbreviation}`;
}

/** `2025-06-12 07:03 PDT (UTC-07:00)`, as a request that must be exact writes it. */
export function wallClockWithOffset(at: number, zone: Zone): string {
  return `${wallClock(at, zone)} (UTC${offsetText(zone.offsetMinutes, ":")})`;
}

/** The Monday 09:00 UTC handover that starts the rotation week containing `at`. */
export function shiftStart(at: number): number {
  return seconds(`${mondayOf(isoUtc(at - 9 * HOUR).slice(0, 10))}T09:00:00Z`);
}
