/** The district's fixed facts: the week under review, the policy's numbers and the shapes the generator fills. */
import type { SeededRandom } from "../../core/index.js";

export type Random = SeededRandom;
export type Level = "elementary" | "middle" | "high";

/** The school week the telematics, ridership and timesheets cover (Monday to Friday). */
export const WEEK = ["2025-06-23", "2025-06-24", "2025-06-25", "2025-06-26", "2025-06-27"] as const;
export const SATURDAY = "2025-06-28";
/** Wednesday: late-start day, every bell an hour later (the policy says so; the bell table does not). */
export const LATE_START_DAY = WEEK[2];
export const LATE_START_MINUTES = 60;
/** Thursday: page 2 of every bus's AVL export first comes back partial (a slow shard). */
export const PARTIAL_DAY = WEEK[3];
export const AVL_PAGE_LINES = 15;
/** The district's local offset (CDT) as the current AVL units print it. */
export const LOCAL_OFFSET_MINUTES = -300;

export const UNLOAD_BEFORE_BELL_MINUTES = 10;
export const SPEED_LIMIT_MPH = 50;
export const KPH_PER_MPH = 1.609344;
export const DAILY_HOURS_LIMIT = 10;
export const WEEKLY_HOURS_LIMIT = 50;
export const CROWDED_DAYS = 2;
export const WALK_LIMITS: Array<[band: string, grades: string, miles: number]> = [
  ["elementary", "K-5", 1.0],
  ["middle", "6-8", 1.5],
  ["high", "9-12", 2.0],
];
export const ZONES = "Northgate,Riverside,Elm Park,Cedar Hills,Lakeview,Old Mill,Southport,Westfield".split(
  ",",
);
/** Zones whose walk to school the district rates hazardous (no sidewalks, a highway crossing). */
export const HAZARD_ZONES = ["Old Mill", "Southport"];
export const REPORTABLE = ["collision", "injury", "evacuation"] as const;
export type Category = (typeof REPORTABLE)[number] | "behavior" | "mechanical";

export type School = { id: string; name: string; level: Level; bell: string };
export type Bus = {
  id: string;
  capacity: number;
  lift: boolean;
  legacy: boolean;
  avlUnit: string;
  status: "in_service" | "spare" | "shop";
};
export type Driver = {
  id: string;
  name: string;
  email: string;
  cdlClass: string;
  endorsements: string;
  medicalExpires: string;
  liftUntil: string | null;
};
export type Stop = {
  id: string;
  seq: number;
  location: string;
  zone: string;
  pickup: string;
  closed: boolean;
};
export type Route = { id: string; school: School; bus: Bus; driver: Driver; stops: Stop[] };
export interface Student {
  id: string;
  name: string;
  grade: string;
  school: School;
  zone: string;
  miles: number;
  needs: "none" | "iep_transport" | "wheelchair";
  stop: Stop | null;
}
export type Shift = { driver: Driver; date: string; duty: string; start: string; end: string };
export interface IncidentMail {
  route: Route;
  driver: Driver;
  date: string;
  sent: string;
  category: Category;
  /** How the body names the day: "today" (the sent day), "yesterday", or a weekday with its date. */
  when: "today" | "yesterday" | "named";
  forwarded?: boolean;
  filed?: boolean;
}

export interface TransportWorld {
  schools: School[];
  buses: Bus[];
  drivers: Driver[];
  routes: Route[];
  students: Student[];
  shifts: Shift[];
  ridership: Array<{ route: Route; date: string; boardings: number }>;
  mails: IncidentMail[];
  closures: Stop[];
  avl: Array<{ bus: Bus; date: string; lines: string[] }>;
}

export const gradeNumber = (grade: string): number => (grade === "K" ? 0 : Number(grade));
export const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
export const minutesOf = (text: string): number => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
