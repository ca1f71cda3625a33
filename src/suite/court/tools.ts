import { z } from "zod";
import {
  REFERENCE_DATE,
  defineGetTool,
  defineListTool,
  insertRow,
  isoDateSchema,
  optionalChoice,
  optionalDate,
  requireEntity,
  requireRow,
  updateEntity,
  withSilentFailures,
  withTransientFailures,
  type DomainTool,
  type ToolContext,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { DIVISIONS, ENTRY_TYPES, HEARING_TIME, caseId, courtroomId, filingId, partyId } from "./rules.js";

const caseFilter = caseId.schema("Only this case").optional();

const listCourtrooms = defineListTool({
  name: "list_courtrooms",
  description:
    "List the courtrooms (departments): id, name, division civil/small_claims, judge. Paginated: returns `courtrooms`, `page`, `per_page`, `total`, `has_more`.",
  key: "courtrooms",
  from: "courtrooms",
  orderBy: "courtroom_id",
});

const listCases = defineListTool({
  name: "list_cases",
  description:
    "List cases (case number, division, title, date filed, amount demanded USD, courtroom, status open/default_entered/judgment/dismissed), ordered by case number. Paginated: returns `cases`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    division: optionalChoice(DIVISIONS, "Only this division"),
    status: optionalChoice(["open", "default_entered", "judgment", "dismissed"], "Only this status"),
    courtroom_id: courtroomId.schema("Only this courtroom").optional(),
  },
  key: "cases",
  from: "cases",
  where: { division: "=", status: "=", courtroom_id: "=" },
  orderBy: "case_id",
});

const getCase = defineGetTool({
  name: "get_case",
  description:
    "Get one case with its parties (and their attorneys) and hearings. Returns `case`, `parties`, `hearings`.",
  input: { case_id: caseId.schema("The case number, e.g. CV-2025-00123") },
  key: "case",
  from: "cases",
  normalizeId: (id) => id.trim().toUpperCase(),
  notFound: caseId,
  related: {
    parties:
      "SELECT p.party_id, p.role, p.name, p.attorney_id, a.name AS attorney, a.firm FROM parties p LEFT JOIN attorneys a ON a.attorney_id = p.attorney_id WHERE p.case_id = ? ORDER BY p.party_id",
    hearings: "SELECT * FROM hearings WHERE case_id = ? ORDER BY hearing_date, hearing_id",
  },
});

const listParties = defineListTool({
  name: "list_parties",
  description:
    "List parties (id, case, role plaintiff/defendant, name, attorney id or null), ordered by id. Paginated: returns `parties`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    case_id: caseFilter,
    role: optionalChoice(["plaintiff", "defendant"], "Only this role"),
  },
  key: "parties",
  from: "parties",
  where: { case_id: "=", role: "=" },
  orderBy: "party_id",
});

const listDocket = defineListTool({
  name: "list_docket_entries",
  description:
    "List docket entries (register of actions: entry id, case, date, entry type, party, filing, description), oldest first. Paginated: returns `entries`, `page`, `per_page`, `total`, `has_more`. The records server can answer 503 Service Unavailable under load; repeat the call.",
  filters: {
    case_id: caseFilter,
    entry_type: optionalChoice(ENTRY_TYPES, "Only this entry type"),
    on_or_after: optionalDate("Only entries dated on or after this date"),
  },
  key: "entries",
  from: "docket_entries",
  where: { case_id: "=", entry_type: "=", on_or_after: "entry_date >= ?" },
  orderBy: "entry_date, entry_id",
});

const listFilings = defineListTool({
  name: "list_filings",
  description:
    "List filings (id, case, filing party, filing type complaint/claim/answer/demurrer/motion, title, date filed; no image: read it with get_filing_text), ordered by id. Paginated: returns `filings`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    case_id: caseFilter,
    filing_type: optionalChoice(["complaint", "claim", "answer", "demurrer", "motion"], "Only this type"),
  },
  key: "filings",
  from: "filings",
  select: "filing_id, case_id, party_id, filing_type, title, filed_on",
  where: { case_id: "=", filing_type: "=" },
  orderBy: "filing_id",
});

const getFilingText = defineGetTool({
  name: "get_filing_text",
  description:
    'Get the OCR text of a filing\'s scanned image, cashier\'s receipt stamp included. Returns `filing_id`, `case_id`, `filing_type`, `text`. When the imaging server times out the result is `{"status": "error", ...}` without text: ask again.',
  input: { filing_id: filingId.schema("The filing") },
  select: "filing_id, case_id, filing_type, scan_text AS text",
  from: "filings",
  notFound: filingId,
});

const listHearings = defineListTool({
  name: "list_hearings",
  description:
    "List hearings on the calendar (id, case, courtroom, date, time, type motion/trial/case_management, filing heard, status set/held/vacated), by date. Paginated: returns `hearings`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    case_id: caseFilter,
    courtroom_id: courtroomId.schema("Only this courtroom").optional(),
    on_or_after: optionalDate("Only hearings on or after this date"),
  },
  key: "hearings",
  from: "hearings",
  where: { case_id: "=", courtroom_id: "=", on_or_after: "hearing_date >= ?" },
  orderBy: "hearing_date, hearing_id",
});

const addDocketEntry = defineTool({
  name: "add_docket_entry",
  description:
    "Enter a docket entry on a case. `filing_id` (optional) links the entry to a filing of the same case, and the filing's party becomes the entry's party. Returns `entry`. The records server can answer 503 Service Unavailable under load (nothing is entered then); repeat the call.",
  kind: "write",
  inputSchema: z.object({
    case_id: caseId.schema("The case number, e.g. CV-2025-00123"),
    entry_type: z.enum(ENTRY_TYPES).describe("The docket entry type"),
    entry_date: isoDateSchema.describe("The entry's date, YYYY-MM-DD"),
    description: z.string().min(3).describe("What was filed or done"),
    filing_id: filingId.schema("A filing of this case the entry refers to").optional(),
  }),
  handler: ({ case_id, entry_type, entry_date, description, filing_id }, { db }: ToolContext) => {
    requireEntity(db, "cases", caseId, case_id);
    if (entry_date > REFERENCE_DATE)
      throw new ToolFailure(`entry_date ${entry_date} is in the future; today is ${REFERENCE_DATE}`);
    let party: unknown = null;
    if (filing_id) {
      const filing = requireEntity(db, "filings", filingId, filing_id);
      if (filing.case_id !== case_id)
        throw new ToolFailure(
          `filing ${filing_id} belongs to case ${String(filing.case_id)}, not ${case_id}`,
        );
      party = filing.party_id;
    }
    const row = {
      case_id,
      entry_date,
      entry_type,
      party_id: party,
      filing_id: filing_id ?? null,
      description: description.trim(),
    };
    return { entry: insertRow(db, "docket_entries", row) };
  },
});

const scheduleHearing = defineTool({
  name: "schedule_hearing",
  description: `Set a motion for hearing in its case's courtroom at ${HEARING_TIME} and docket the hearing. Returns \`hearing\`.`,
  kind: "write",
  inputSchema: z.object({
    filing_id: filingId.schema("The motion to be heard"),
    hearing_date: isoDateSchema.describe("The hearing date, YYYY-MM-DD"),
  }),
  handler: ({ filing_id, hearing_date }, { db }: ToolContext) => {
    const filing = requireEntity(db, "filings", filingId, filing_id);
    if (filing.filing_type !== "motion")
      throw new ToolFailure(`filing ${filing_id} is a ${String(filing.filing_type)}, not a motion`);
    if (hearing_date <= REFERENCE_DATE)
      throw new ToolFailure(`hearing_date must be after today (${REFERENCE_DATE})`);
    const c = requireEntity(db, "cases", caseId, String(filing.case_id));
    const values = {
      case_id: c.case_id,
      courtroom_id: c.courtroom_id,
      hearing_date,
      hearing_time: HEARING_TIME,
      hearing_type: "motion",
      filing_id,
      status: "set",
    };
    const hearing = insertRow(db, "hearings", values);
    insertRow(db, "docket_entries", {
      case_id: c.case_id,
      entry_date: REFERENCE_DATE,
      entry_type: "hearing_set",
      party_id: null,
      filing_id,
      description: `motion hearing set for ${hearing_date}`,
    });
    return { hearing };
  },
});

const enterDefault = defineTool({
  name: "enter_default",
  description:
    "Enter the default of a defendant in a case: the case's status becomes default_entered and a default_entered docket entry is dated today. Returns `case`.",
  kind: "write",
  inputSchema: z.object({
    case_id: caseId.schema("The case number"),
    party_id: partyId.schema("The defaulting defendant"),
  }),
  handler: ({ case_id, party_id }, { db }: ToolContext) => {
    const c = requireEntity(db, "cases", caseId, case_id);
    if (c.status !== "open")
      throw new ToolFailure(
        `case ${case_id} is ${String(c.status)}; defaults are entered only in open cases`,
      );
    const party = requireRow(
      db,
      "SELECT * FROM parties WHERE party_id = ?",
      [party_id],
      `party ${party_id} not found; use list_parties`,
    );
    if (party.case_id !== case_id || party.role !== "defendant")
      throw new ToolFailure(`party ${party_id} is not a defendant in ${case_id}`);
    const defaulted = updateEntity(db, "cases", caseId, case_id, { status: "default_entered" });
    insertRow(db, "docket_entries", {
      case_id,
      entry_date: REFERENCE_DATE,
      entry_type: "default_entered",
      party_id,
      filing_id: null,
      description: `Default entered against ${String(party.name)}`,
    });
    return { case: defaulted };
  },
});

/** The records server fails once on every fourth page of an unfiltered docket listing and on the first page by entry type. */
const flakyDocket = withTransientFailures(listDocket, {
  when: (input) =>
    input.case_id === undefined && (input.entry_type === undefined ? input.page % 4 === 3 : input.page === 1),
});
/** The imaging server times out on some filings, saying so only in the body. */
const flakyFilingText = withSilentFailures(getFilingText, {
  when: (input) => Number(input.filing_id.slice(4)) % 7 === 3,
});
/** The records server turns away each substitution of attorney once (before entering it). */
const flakyAddDocketEntry = withTransientFailures(addDocketEntry, {
  when: (input) => input.entry_type === "substitution_of_attorney",
});
/** The calendar service fails once on the second page. */
const flakyHearings = withTransientFailures(listHearings, { when: (input) => input.page === 2 });

export const courtTools: DomainTool[] = [
  listCourtrooms,
  listCases,
  getCase,
  listParties,
  flakyDocket,
  listFilings,
  flakyFilingText,
  flakyHearings,
  flakyAddDocketEntry,
  scheduleHearing,
  enterDefault,
] as DomainTool[];
