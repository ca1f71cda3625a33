/**
 * The transportation office's system of record: schools and their bells, buses, drivers with their
 * licences, routes and stops, students with their home distance and zone, daily ridership counts, driver
 * timesheets, state incident reports, and the AVL (GPS telematics) store, one raw export per bus per day.
 *
 * Eligibility, capacity, hours and reporting rules live in the workspace's policy document.
 */
export const transportSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE schools (
  school_id TEXT PRIMARY KEY, name TEXT NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('elementary', 'middle', 'high')), bell_time TEXT NOT NULL
);

CREATE TABLE buses (
  bus_id TEXT PRIMARY KEY, rated_capacity INTEGER NOT NULL, wheelchair_lift INTEGER NOT NULL,
  avl_unit TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('in_service', 'spare', 'shop'))
);

CREATE TABLE drivers (
  driver_id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL,
  cdl_class TEXT NOT NULL, endorsements TEXT NOT NULL,
  medical_card_expires TEXT NOT NULL, lift_training_expires TEXT
);

CREATE TABLE routes (
  route_id TEXT PRIMARY KEY, school_id TEXT NOT NULL REFERENCES schools (school_id),
  bus_id TEXT NOT NULL REFERENCES buses (bus_id), driver_id TEXT NOT NULL REFERENCES drivers (driver_id)
);

CREATE TABLE stops (
  stop_id TEXT PRIMARY KEY, route_id TEXT NOT NULL REFERENCES routes (route_id), seq INTEGER NOT NULL,
  location TEXT NOT NULL, zone TEXT NOT NULL, pickup_time TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'closed'))
);

CREATE TABLE students (
  student_id TEXT PRIMARY KEY, name TEXT NOT NULL, grade TEXT NOT NULL,
  school_id TEXT NOT NULL REFERENCES schools (school_id), home_zone TEXT NOT NULL,
  distance_miles REAL NOT NULL,
  transport_needs TEXT NOT NULL CHECK (transport_needs IN ('none', 'iep_transport', 'wheelchair')),
  stop_id TEXT REFERENCES stops (stop_id)
);
CREATE INDEX students_stop ON students (stop_id);

CREATE TABLE ridership (
  route_id TEXT NOT NULL REFERENCES routes (route_id), ride_date TEXT NOT NULL, am_boardings INTEGER NOT NULL,
  PRIMARY KEY (route_id, ride_date)
);

CREATE TABLE shifts (
  shift_id TEXT PRIMARY KEY, driver_id TEXT NOT NULL REFERENCES drivers (driver_id), work_date TEXT NOT NULL,
  duty TEXT NOT NULL, clock_in TEXT NOT NULL, clock_out TEXT NOT NULL
);

CREATE TABLE state_reports (
  report_id TEXT PRIMARY KEY, route_id TEXT NOT NULL, driver_id TEXT NOT NULL, incident_date TEXT NOT NULL,
  category TEXT NOT NULL CHECK (category IN ('collision', 'injury', 'evacuation'))
);

CREATE TABLE avl_exports (
  bus_id TEXT NOT NULL, log_date TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (bus_id, log_date)
);
`;
