/**
 * The airline schema: a regional carrier's stations, its fleet, the routes it flies out of its hub, a
 * month of flights (scheduled and actual times, delay codes, passengers boarded), the passenger bookings of
 * the operational window (yesterday to tomorrow), loyalty members, crew and crew assignments.
 *
 * Seat capacity lives only on `aircraft` (a flight's capacity is its aircraft's seats) and a flight's free
 * seats are its capacity minus its confirmed bookings, as in a real reservation system. Tables keyed by text
 * ids are WITHOUT ROWID, so the key is stored once and the file size follows the rows.
 */
export const airlineSchemaSql = `
PRAGMA page_size = 1024;
CREATE TABLE airports (
  code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  city TEXT NOT NULL,
  country TEXT NOT NULL,
  is_hub INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE aircraft (
  tail TEXT PRIMARY KEY,
  type_code TEXT NOT NULL,
  type_name TEXT NOT NULL,
  seats INTEGER NOT NULL CHECK (seats > 0),
  status TEXT NOT NULL CHECK (status IN ('active', 'maintenance', 'grounded')),
  base TEXT NOT NULL REFERENCES airports (code),
  delivered_on TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE routes (
  route_id TEXT PRIMARY KEY,
  origin TEXT NOT NULL REFERENCES airports (code),
  destination TEXT NOT NULL REFERENCES airports (code),
  distance_km INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE flights (
  flight_id TEXT PRIMARY KEY,
  flight_number TEXT NOT NULL,
  flight_date TEXT NOT NULL,
  route_id TEXT NOT NULL REFERENCES routes (route_id),
  origin TEXT NOT NULL,
  destination TEXT NOT NULL,
  tail TEXT NOT NULL REFERENCES aircraft (tail),
  scheduled_departure TEXT NOT NULL,
  scheduled_arrival TEXT NOT NULL,
  actual_departure TEXT,
  actual_arrival TEXT,
  status TEXT NOT NULL CHECK (status IN ('scheduled', 'departed', 'arrived', 'cancelled')),
  delay_code TEXT,
  pax_boarded INTEGER
) WITHOUT ROWID;

CREATE TABLE loyalty_members (
  member_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  tier TEXT NOT NULL CHECK (tier IN ('blue', 'silver', 'gold', 'platinum')),
  joined_on TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE bookings (
  booking_id TEXT PRIMARY KEY,
  pnr TEXT NOT NULL,
  segment INTEGER NOT NULL,
  flight_id TEXT NOT NULL REFERENCES flights (flight_id),
  passenger_name TEXT NOT NULL,
  member_id TEXT REFERENCES loyalty_members (member_id),
  fare_class TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('confirmed', 'flown', 'no_show', 'cancelled', 'rebooked')),
  booked_at TEXT NOT NULL,
  notes TEXT,
  rebooked_from TEXT
) WITHOUT ROWID;

CREATE TABLE crew (
  crew_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('captain', 'first_officer', 'cabin')),
  base TEXT NOT NULL,
  qualifications TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'reserve', 'leave'))
) WITHOUT ROWID;

CREATE TABLE crew_assignments (
  assignment_id INTEGER PRIMARY KEY,
  crew_id TEXT NOT NULL REFERENCES crew (crew_id),
  flight_id TEXT NOT NULL REFERENCES flights (flight_id),
  position TEXT NOT NULL
);
`;

/** A row of `flights`, as `SELECT *` reads it. */
export interface FlightRecord {
  flight_id: string;
  flight_number: string;
  flight_date: string;
  route_id: string;
  origin: string;
  destination: string;
  tail: string;
  scheduled_departure: string;
  scheduled_arrival: string;
  actual_departure: string | null;
  actual_arrival: string | null;
  status: string;
  delay_code: string | null;
  pax_boarded: number | null;
}

/** A row of `bookings`, as `SELECT *` reads it. */
export interface BookingRecord {
  booking_id: string;
  pnr: string;
  segment: number;
  flight_id: string;
  passenger_name: string;
  member_id: string | null;
  fare_class: string;
  status: string;
  booked_at: string;
  notes: string | null;
  rebooked_from: string | null;
}
