import { threadMessagesTable } from "../../envs/index.js";

/**
 * The newsroom schema. Mail is stored as each message's own text; quoting, signatures and attachments are
 * rendered by the mail tools. The rules live in workspace documents, as on a real editorial desk.
 */
export const newsroomSchemaSql = `
PRAGMA page_size = 1024;

CREATE TABLE staff (
  staff_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('reporter', 'desk_editor', 'standards', 'legal', 'photo_editor')),
  desk TEXT
);

CREATE TABLE freelancers (
  freelancer_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  tier TEXT NOT NULL CHECK (tier IN ('A', 'B', 'C')),
  country TEXT NOT NULL
);

CREATE TABLE stories (
  story_id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  desk TEXT NOT NULL,
  headline TEXT NOT NULL,
  byline TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'edited', 'legal_hold', 'ready', 'published', 'spiked')),
  word_count INTEGER NOT NULL,
  updated_on TEXT NOT NULL,
  embargo_until TEXT,
  published_at TEXT
);

CREATE TABLE publish_events (
  event_id INTEGER PRIMARY KEY,
  story_id TEXT NOT NULL REFERENCES stories (story_id),
  channel TEXT NOT NULL,
  published_at TEXT NOT NULL
);

CREATE TABLE commissions (
  commission_id TEXT PRIMARY KEY,
  freelancer_id TEXT NOT NULL REFERENCES freelancers (freelancer_id),
  story_id TEXT NOT NULL REFERENCES stories (story_id),
  kind TEXT NOT NULL CHECK (kind IN ('article', 'photo')),
  commissioned_units INTEGER NOT NULL,
  filed_units INTEGER,
  status TEXT NOT NULL CHECK (status IN ('commissioned', 'filed', 'killed')),
  agreed_on TEXT NOT NULL,
  filed_on TEXT,
  killed_on TEXT
);

CREATE TABLE payments (
  payment_id TEXT PRIMARY KEY,
  commission_id TEXT NOT NULL REFERENCES commissions (commission_id),
  freelancer_id TEXT NOT NULL REFERENCES freelancers (freelancer_id),
  amount REAL NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('approved', 'paid')),
  approved_on TEXT NOT NULL,
  paid_on TEXT,
  note TEXT
);

CREATE TABLE corrections (
  correction_id TEXT PRIMARY KEY,
  story_id TEXT NOT NULL REFERENCES stories (story_id),
  kind TEXT NOT NULL,
  wording TEXT NOT NULL,
  logged_on TEXT NOT NULL
);

CREATE TABLE photos (
  photo_id TEXT PRIMARY KEY,
  story_id TEXT NOT NULL REFERENCES stories (story_id),
  caption TEXT NOT NULL,
  credit TEXT NOT NULL,
  licence_ref TEXT NOT NULL
);

CREATE TABLE mail_threads (
  thread_id TEXT PRIMARY KEY,
  mailbox TEXT NOT NULL CHECK (mailbox IN ('corrections', 'legal', 'freelance', 'desk')),
  subject TEXT NOT NULL
);

${threadMessagesTable("mail_messages", "mail_threads")}
CREATE INDEX mail_messages_thread ON mail_messages (thread_id, sent_at);
`;
