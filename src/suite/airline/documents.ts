import type { GenerateContext } from "../../envs/index.js";
import {
  addDays,
  longDate,
  parseMarkdownTable,
  renderMarkdown,
  toCsv,
  writeEmailsBySent,
} from "../../envs/index.js";
import { BAND_THRESHOLDS, HUB, HUB_MCT, NOW_TIME, UM_MCT } from "./reference.js";

export const COMPENSATION_POLICY_PATH = "policies/passenger-compensation.md";
export const CONNECTION_STANDARDS_PATH = "policies/connection-standards.md";
export const REBOOKING_MEMO_PATH = "memos/rebooking-priority.md";
export const NETWORK_MEMO_PATH = "memos/network-planning.md";
export const CREW_DUTY_PATH = "policies/crew-duty-time.md";
export const weatherExportPath = (day: string): string => `exports/weather-delays-${day}.csv`;

export const EXEMPT_CODES = ["WX", "ATC", "SEC"];
export const LOAD_FACTOR_THRESHOLD = 0.65;
export const CREW_LIMITS = {
  reportMinutes: 60,
  releaseMinutes: 30,
  maxDutyHours: { captain: 13, first_officer: 13, cabin: 14 } as Record<string, number>,
  minRestHours: 10,
};

export function writeCompensationPolicy(context: GenerateContext): void {
  context.writeFile(
    COMPENSATION_POLICY_PATH,
    renderMarkdown("Passenger compensation policy (delays)", [
      `Effective ${longDate(addDays(context.referenceDate, -210))}. Owner: Customer Relations.`,
      "Passengers whose flight reaches its destination late are owed a fixed cash compensation per passenger, set by the flight's route distance and its arrival delay. The arrival delay is the actual arrival time minus the scheduled arrival time; departure delays do not count on their own (time made up in the air reduces what is owed).",
      { heading: "Compensation bands" },
      {
        table: {
          headers: [
            "band",
            "distance from (km)",
            "distance to (km)",
            "arrival delay at least (minutes)",
            "amount per passenger (USD)",
          ],
          rows: BAND_THRESHOLDS.map((band, index) => [
            band.band,
            index === 0 ? 0 : (BAND_THRESHOLDS[index - 1]?.maxKm ?? 0) + 1,
            Number.isFinite(band.maxKm) ? band.maxKm : "no limit",
            band.minutes,
            band.amount,
          ]),
        },
      },
      { heading: "Who is owed" },
      "Only passengers who actually travelled on the delayed flight (booking status `flown`). No-shows, cancelled bookings and passengers rebooked away are not owed anything under this policy.",
      { heading: "Extraordinary circumstances" },
      {
        bullets: [
          `No compensation is owed when the delay code is one of: ${EXEMPT_CODES.join(", ")}.`,
          "A reactionary delay (code RA, late inbound aircraft) is extraordinary only when the flight is listed in the operations weather export for its flight date (`exports/weather-delays-<date>.csv`); any other RA delay is compensated like a technical delay.",
          "All other codes (TECH, CREW, OPS) are within the airline's control and are compensated.",
        ],
      },
      { heading: "Cancellations" },
      "Cancelled flights are handled by the refund and rebooking process, not by this policy.",
    ]),
  );
}

export interface CompensationPolicy {
  bands: Array<{ band: string; fromKm: number; toKm: number; minutes: number; amount: number }>;
  exemptCodes: string[];
}

export function parseCompensationPolicy(text: string): CompensationPolicy {
  const bands = parseMarkdownTable(text, "Compensation bands").map((row) => ({
    band: row[0] ?? "",
    fromKm: Number(row[1]),
    toKm: row[2] === "no limit" ? Infinity : Number(row[2]),
    minutes: Number(row[3]),
    amount: Number(row[4]),
  }));
  const codes = /delay code is one of: ([A-Z, ]+)\./.exec(text)?.[1] ?? "";
  return { bands, exemptCodes: codes.split(",").map((code) => code.trim()) };
}

export function writeConnectionStandards(context: GenerateContext): void {
  context.writeFile(
    CONNECTION_STANDARDS_PATH,
    renderMarkdown("Connection standards at the hub", [
      `All connections in our network run through ${HUB.code} (${HUB.name}).`,
      { heading: "Minimum connection times" },
      {
        table: {
          headers: ["passenger", "minimum connection (minutes)"],
          rows: [
            ["all passengers", HUB_MCT],
            ["unaccompanied minors (UMNR)", UM_MCT],
          ],
        },
      },
      "A connection is the time between the actual arrival of the inbound flight and the actual departure of the onward flight on the same booking reference (PNR). A connection shorter than the all-passengers minimum is a missed connection: the passenger could not make the onward flight, whatever the booking status shows. This holds for unaccompanied minors too; their longer minimum below is an escort standard, not a different misconnection rule.",
      { heading: "Unaccompanied minors" },
      "Children travelling alone under our UMNR service are escorted between gates by a station agent, which takes longer; that is why their minimum is longer. A connection of an unaccompanied minor below the UMNR minimum is an escort incident and must be reported to Customer Care, even when the child made the flight. The service is recorded in the booking notes; a note that the service was declined or that the child travels with an adult means the child is not an unaccompanied minor.",
    ]),
  );
}

export function parseConnectionStandards(text: string): { all: number; minor: number } {
  const rows = parseMarkdownTable(text, "Minimum connection times");
  return { all: Number(rows[0]?.[1]), minor: Number(rows[1]?.[1]) };
}

export function writeRebookingMemo(context: GenerateContext): void {
  context.writeFile(
    REBOOKING_MEMO_PATH,
    renderMarkdown("Rebooking priority after a cancellation", [
      `From: Director, Customer Service · ${longDate(addDays(context.referenceDate, -45))}`,
      "When a flight is cancelled, its passengers with confirmed bookings are moved onto later flights of the same route (same origin and destination) that depart after the cancelled flight's scheduled departure, no later than the end of the following day. Seats are scarce, so we protect passengers in this order:",
      {
        numbered: [
          "Unaccompanied minors (UMNR service in the booking notes; not children whose notes say the service was declined or that they travel with an adult).",
          "Passengers with an onward connection: their booking reference (PNR) has a later segment after the cancelled flight.",
          "Loyalty members by tier: platinum, then gold, then silver, then blue; passengers without a loyalty membership come last.",
          "Within the same group, the earlier booking (booked_at) goes first; bookings made in the same minute go in booking id order, lowest first.",
        ],
      },
      "Work through the passengers in that order and put each on the earliest-departing alternative flight that still has a free seat. Never overbook. Passengers who cannot be placed stay on the cancelled flight's booking for the contact centre to call; do not touch their bookings.",
    ]),
  );
}

export function writeNetworkMemo(context: GenerateContext): void {
  context.writeFile(
    NETWORK_MEMO_PATH,
    renderMarkdown("Network planning: route performance review", [
      `From: Network Planning · ${longDate(addDays(context.referenceDate, -20))}`,
      "Each month we review every route's load factor. The load factor of a route is the sum of passengers boarded divided by the sum of seats flown, over the flights of that route that operated in the period (cancelled flights have no seats flown and do not count). Seats flown on a flight are the seats of the aircraft that operated it.",
      `Routes are directional (BOS-PWM and PWM-BOS are two routes). A route whose load factor is below ${Math.round(LOAD_FACTOR_THRESHOLD * 100)}% goes on the watch list for schedule review.`,
    ]),
  );
}

export function parseLoadFactorThreshold(text: string): number {
  return Number(/load factor is below (\d+)%/.exec(text)?.[1]) / 100;
}

export function writeCrewDutyRules(context: GenerateContext): void {
  context.writeFile(
    CREW_DUTY_PATH,
    renderMarkdown("Crew duty-time rules", [
      "Applies to every flight and cabin crew member rostered on our flights.",
      { heading: "Duty period" },
      `A duty period starts at report time, ${CREW_LIMITS.reportMinutes} minutes before the scheduled departure of the crew member's first flight of the day, and ends at release, ${CREW_LIMITS.releaseMinutes} minutes after the scheduled arrival of their last flight of the day.`,
      { heading: "Limits" },
      {
        table: {
          headers: ["role", "maximum duty period (hours)"],
          rows: Object.entries(CREW_LIMITS.maxDutyHours).map(([role, hours]) => [role, hours]),
        },
      },
      `Minimum rest between the release of one duty period and the report of the next: ${CREW_LIMITS.minRestHours} hours.`,
    ]),
  );
}

export function writeWeatherExports(
  context: GenerateContext,
  days: Array<{
    day: string;
    rows: Array<{ flight_number: string; station: string; delay_minutes: number }>;
  }>,
): void {
  for (const { day, rows } of days)
    context.writeFile(
      weatherExportPath(day),
      toCsv(
        ["flight_date", "flight_number", "station", "phenomenon", "arrival_delay_minutes"],
        rows.map((row, index) => [
          day,
          row.flight_number,
          row.station,
          ["thunderstorms", "low visibility", "crosswinds", "icing"][index % 4] as string,
          row.delay_minutes,
        ]),
      ),
    );
}

export function writeOpsEmails(
  context: GenerateContext,
  options: {
    groundedTail: string;
    groundedType: string;
    maintenanceTail: string;
    count: number;
    spokes: string[];
  },
): void {
  const today = context.referenceDate;
  const emails: Array<{ subject: string; from: string; sent: string; body: string[] }> = [];
  emails.push({
    subject: `AOG ${options.groundedTail} - grounded, swap required`,
    from: "ops.control@regionalair.example",
    sent: `${today} ${NOW_TIME}`,
    body: [
      `${options.groundedTail} (${options.groundedType}) took a bird strike on its last arrival into ${HUB.code}. Engineering has grounded it effective immediately, until further notice.`,
      "Please do two things in the ops system right away:",
      [
        `1. Set ${options.groundedTail} to status grounded.`,
        "2. Move every flight it is scheduled to operate that has not departed yet (status scheduled, today and tomorrow) onto another aircraft of the same type that is in active status and free for the whole flight, keeping at least 30 minutes between that aircraft's flights on either side. Take the eligible aircraft with the lowest tail number, going through the flights in departure order.",
      ].join("\n"),
      "Flights already in the air or landed stay as they are. Crew scheduling will follow up on crews separately.",
    ],
  });
  emails.push({
    subject: `${options.maintenanceTail} heavy check extended`,
    from: "engineering@regionalair.example",
    sent: `${addDays(today, -2)} 16:05`,
    body: [
      `${options.maintenanceTail} stays in the hangar for its C-check; parts are late. Expected back in service on ${longDate(addDays(today, 4))}. Do not plan it before then.`,
    ],
  });
  const fillers = [
    (spoke: string) =>
      `Gate change at ${spoke}: our flights use gate 4 instead of gate 2 this week because of apron works.`,
    (spoke: string) =>
      `Catering at ${spoke} is switching suppliers; expect snack boxes only until the end of the month.`,
    (spoke: string) => `De-icing contract at ${spoke} renewed for next season, no change to procedures.`,
    (spoke: string) =>
      `Fuel uplift at ${spoke} limited to 80% of normal tomorrow morning; plan tankering from ${HUB.code}.`,
    (spoke: string) => `Ground power unit at ${spoke} repaired; APU use restrictions lifted.`,
  ];
  for (let n = emails.length; n < options.count; n += 1) {
    const spoke = options.spokes[n % options.spokes.length] as string;
    emails.push({
      subject: `Station notice ${spoke}`,
      from: `station.${spoke.toLowerCase()}@regionalair.example`,
      sent: `${addDays(today, -((n * 3) % 9) - 1)} 0${n % 10}:15`,
      body: [(fillers[n % fillers.length] as (spoke: string) => string)(spoke)],
    });
  }
  writeEmailsBySent(
    context,
    "emails/ops-",
    emails.map(({ from, sent, subject, body }) => ({
      headers: { From: from, Sent: sent, Subject: subject },
      body,
    })),
  );
}

export function writeStationMemos(
  context: GenerateContext,
  stations: Array<{ code: string; city: string }>,
): void {
  for (const [index, station] of stations.entries())
    context.writeFile(
      `stations/${station.code.toLowerCase()}.md`,
      renderMarkdown(`Station guide: ${station.code} (${station.city})`, [
        `Handling agent: ${["Swissport", "Menzies", "Worldwide Flight Services", "own staff"][index % 4]}.`,
        `Minimum turnaround for our aircraft at ${station.code}: 35 minutes. Check-in opens 2 hours before departure and closes 30 minutes before.`,
        "Escalations go to the duty station manager first, then to ops control.",
      ]),
    );
}
