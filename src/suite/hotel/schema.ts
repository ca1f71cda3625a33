/**
 * The property-management system's tables: properties and their rooms (with housekeeping status), group
 * blocks, reservations, folio lines (charges positive, payments negative) and the channel manager's copy of
 * online bookings. Pages are rendered from these; the rules live in workspace documents.
 */
export const hotelSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE properties (
  code TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  city TEXT NOT NULL,
  date_format TEXT NOT NULL
);

CREATE TABLE rooms (
  property TEXT NOT NULL REFERENCES properties (code),
  room_no TEXT NOT NULL,
  room_type TEXT NOT NULL,
  floor INTEGER NOT NULL,
  hk_status TEXT NOT NULL CHECK (hk_status IN ('dirty', 'clean', 'inspected', 'out_of_order')),
  PRIMARY KEY (property, room_no)
);

CREATE TABLE group_blocks (
  group_code TEXT PRIMARY KEY,
  property TEXT NOT NULL REFERENCES properties (code),
  name TEXT NOT NULL,
  rooms_blocked INTEGER NOT NULL,
  group_rate REAL NOT NULL,
  arrival TEXT NOT NULL,
  departure TEXT NOT NULL,
  cutoff TEXT NOT NULL
);

CREATE TABLE reservations (
  reservation_id TEXT PRIMARY KEY,
  property TEXT NOT NULL REFERENCES properties (code),
  guest TEXT NOT NULL,
  adults INTEGER NOT NULL,
  children INTEGER NOT NULL,
  room_type TEXT NOT NULL,
  room_no TEXT,
  rate_plan TEXT NOT NULL,
  nightly_rate REAL NOT NULL,
  arrival TEXT NOT NULL,
  departure TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('booked', 'in_house', 'checked_out', 'cancelled', 'no_show')),
  channel TEXT NOT NULL,
  payment TEXT NOT NULL,
  group_code TEXT REFERENCES group_blocks (group_code),
  booked_on TEXT NOT NULL,
  cancelled_on TEXT
);

CREATE TABLE folio_lines (
  line_id INTEGER PRIMARY KEY,
  reservation_id TEXT NOT NULL REFERENCES reservations (reservation_id),
  posted_on TEXT NOT NULL,
  code TEXT NOT NULL,
  description TEXT NOT NULL,
  amount REAL NOT NULL
);

CREATE TABLE channel_bookings (
  channel_ref TEXT PRIMARY KEY,
  channel TEXT NOT NULL,
  reservation_id TEXT NOT NULL REFERENCES reservations (reservation_id),
  property TEXT NOT NULL,
  guest TEXT NOT NULL,
  arrival TEXT NOT NULL,
  departure TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('confirmed', 'cancelled')),
  amount REAL NOT NULL
);
`;
