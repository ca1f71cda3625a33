import { parseMarkdownTable } from "../../envs/index.js";

/**
 * The business rules of the claims domain as the workspace documents state them, and the parsers that read
 * them back. Verifiers read the documents (not these constants), so expectations follow the text the agent
 * read.
 */

export const COVERAGE_RULES_PATH = "policies/coverage-rules.md";
export const ASSIGNMENT_GUIDELINE_PATH = "guidelines/adjuster-assignment.md";
export const RESERVE_GUIDELINE_PATH = "guidelines/reserve-guideline.md";
export const FRAUD_MEMO_PATH = "memos/fraud-indicators.md";
export const STAFF_MEMO_PATH = "memos/staff-leave.md";
export const BULLETIN_DIRECTORY = "bulletins";
export const FIELD_NOTES_DIRECTORY = "field-notes";
export const CORRESPONDENCE_DIRECTORY = "correspondence";

export const REGIONS: Record<string, readonly string[]> = {
  North: ["MN", "WI"],
  Central: ["IA", "IL"],
  South: ["MO", "KS"],
};
export const ZIP_PREFIX: Record<string, string> = {
  MN: "55",
  WI: "53",
  IA: "50",
  IL: "61",
  MO: "64",
  KS: "66",
};

export const HOME_CAUSES = ["wind", "hail", "fire", "theft", "water_damage", "mold", "lightning"] as const;
export const AUTO_CAUSES = ["collision", "glass", "theft", "hail", "vandalism"] as const;

export const EXCLUSIONS = [
  {
    cause: "flood",
    lines: "home",
    buyBack: "FLOOD_BUYBACK",
    indicators: ["rising water", "surface water", "river overflowed", "flood water"],
  },
  {
    cause: "wear_and_tear",
    lines: "home, auto",
    buyBack: "none",
    indicators: ["long-term deterioration", "gradual leak", "rotted", "worn out"],
  },
  {
    cause: "earth_movement",
    lines: "home",
    buyBack: "none",
    indicators: ["sinkhole", "settling foundation", "earth movement"],
  },
] as const;

export const SUBLIMITS: ReadonlyArray<readonly [string, string, number]> = [
  ["home", "mold", 10000],
  ["home", "theft", 5000],
  ["auto", "glass", 2500],
];
export const NOTICE_DAYS: Record<string, number> = { home: 60, auto: 30 };
export const EXTENDED_NOTICE_DAYS = 120;
export const CASELOAD_CAPS: Record<string, number> = { North: 14, Central: 15, South: 13 };
export const MINIMUM_RESERVES: Record<string, number> = {
  wind: 4000,
  hail: 3500,
  fire: 15000,
  theft: 2500,
  water_damage: 6000,
  mold: 5000,
  lightning: 3000,
  collision: 4500,
  glass: 600,
  vandalism: 1500,
};
export const FRAUD_LATE_DAYS = 21;
export const FRAUD_NEW_POLICY_DAYS = 30;
export const FRAUD_REPEAT_COUNT = 2;

const money = (text: string): number => Number(text.replace(/[$,\s]/g, ""));

export function parseCoverageRules(text: string) {
  const sublimits = new Map(
    parseMarkdownTable(text, "Sublimits").map(([line, cause, amount]) => [
      `${line}/${cause}`,
      money(amount ?? ""),
    ]),
  );
  const noticeDays = new Map(
    parseMarkdownTable(text, "Notice of loss").map(([line, days]) => [line ?? "", Number(days)]),
  );
  const extended = /extends the notice period to (\d+) days/.exec(text);
  const exclusions = parseMarkdownTable(text, "Excluded causes").map(
    ([cause, lines, buyBack, indicators]) => ({
      cause: cause ?? "",
      lines: (lines ?? "").split(",").map((line) => line.trim()),
      buyBack: buyBack === "none" ? null : (buyBack ?? null),
      indicators: (indicators ?? "").split(";").map((phrase) => phrase.trim().replace(/^"|"$/g, "")),
    }),
  );
  return { sublimits, noticeDays, extendedNoticeDays: Number(extended?.[1] ?? 0), exclusions };
}

/** The assignment guideline's caseload cap per region. */
export function parseCaseloadCaps(text: string): Map<string, number> {
  return new Map(
    parseMarkdownTable(text, "Caseload caps").map(([region, cap]) => [region ?? "", Number(cap)]),
  );
}

export function parseReserveGuideline(text: string): Map<string, number> {
  return new Map(
    parseMarkdownTable(text, "Minimum reserves").map(([cause, amount]) => [cause ?? "", money(amount ?? "")]),
  );
}

export function parseFraudMemo(text: string) {
  const rows = new Map(
    parseMarkdownTable(text, "Indicators").map(([code, , threshold]) => [code ?? "", Number(threshold)]),
  );
  const minimum = /at least (\w+) indicators/.exec(text)?.[1] ?? "two";
  const words: Record<string, number> = { one: 1, two: 2, three: 3 };
  return {
    lateDays: rows.get("LATE_REPORT") ?? 0,
    newPolicyDays: rows.get("NEW_POLICY") ?? 0,
    repeatCount: rows.get("REPEAT_LOSS") ?? 0,
    minimumIndicators: words[minimum] ?? Number(minimum),
  };
}

/** The adjuster the staffing memo puts on leave ("" when the memo names none). */
export function parseOnLeave(text: string): string {
  return /\*\*(ADJ-\d+)\*\*[^\n]*begins leave/.exec(text)?.[1] ?? "";
}

export interface CatEvent {
  code: string;
  name: string;
  perils: string[];
  start: string;
  end: string;
  zips: string[];
}

export function parseBulletin(text: string): CatEvent {
  const field = (name: string): string =>
    new RegExp(`\\*\\*${name}:\\*\\* (.+)`).exec(text)?.[1]?.trim() ?? "";
  return {
    code: field("Event code"),
    name: /^# Catastrophe bulletin [^:]+: (.+)$/m.exec(text)?.[1]?.trim() ?? "",
    perils: field("Covered perils")
      .split(",")
      .map((peril) => peril.trim()),
    start: field("First day"),
    end: field("Last day"),
    zips: parseMarkdownTable(text, "Affected ZIP codes").map(([zip]) => zip ?? ""),
  };
}
