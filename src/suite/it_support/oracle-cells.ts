/** Python shared by the it_support oracles and their near-misses. */
import { PYTHON_WORKSPACE_HELPERS, type TaskDefinition } from "../../envs/index.js";

/** Python helpers for the oracles: reading a whole paginated listing and counting business minutes. */
export const PYTHON_HELPERS = `
import json, re, csv, io
from datetime import datetime, timedelta, timezone

${PYTHON_WORKSPACE_HELPERS}

def ts(value):
    return datetime.fromisoformat(value.replace("Z", "+00:00"))

def business_minutes(start, end, holidays):
    """Minutes inside Mon-Fri 08:00-18:00 UTC, holidays excluded, between start and end."""
    if end <= start:
        return 0
    total = 0
    day = datetime(start.year, start.month, start.day, tzinfo=timezone.utc)
    while day < end:
        if day.weekday() < 5 and day.date().isoformat() not in holidays:
            opening = max(start, day + timedelta(hours=8))
            closing = min(end, day + timedelta(hours=18))
            if closing > opening:
                total += int((closing - opening).total_seconds() // 60)
        day += timedelta(days=1)
    return total
`;

/** The oracles' opening lines: the helpers, the drive's file list and the handbook (it states the snapshot). */
export const ORACLE_OPENING = `${PYTHON_HELPERS}
print([entry["path"] for entry in tools.list_files()["files"]])
handbook = read_text("policies/service-desk-handbook.md")`;

/** Python that reads the snapshot instant the handbook states into the variable `name`. */
export function snapshotFromHandbook(name = "now"): string {
  return `${name} = ts(re.search(r"captured at \\*\\*([0-9T:\\-]+Z)\\*\\*", handbook).group(1))`;
}

/** A near-miss that is the oracle with one switch on: `[id, flag, description]`. */
export type FlagNearMiss = readonly [id: string, flag: string, description: string];

/**
 * An oracle whose near-misses each turn on one of its switches: `cells(flags)` gets the switches as Python
 * constants, one a line (`noAgeRule` is `NO_AGE_RULE = True` in that near-miss, `False` everywhere else).
 */
export function flagOracle(
  nearMisses: readonly FlagNearMiss[],
  cells: (flags: string) => string[],
): Pick<TaskDefinition, "oracle" | "nearMisses"> {
  const constant = (flag: string): string => flag.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
  const flags = (on?: string): string =>
    nearMisses.map(([, flag]) => `${constant(flag)} = ${flag === on ? "True" : "False"}`).join("\n");
  return {
    oracle: cells(flags()),
    nearMisses: nearMisses.map(([id, flag, description]) => ({ id, description, cells: cells(flags(flag)) })),
  };
}
