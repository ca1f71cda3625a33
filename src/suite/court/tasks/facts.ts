import {
  REFERENCE_DATE,
  addDays,
  allRows,
  longDate,
  parseMarkdownTable,
  roundCents,
  type StateView,
  requireFile,
} from "../../../envs/index.js";
import { docCaseNumber, feePaid, intakeType, readProof, splitDocuments, stampDate } from "../reading.js";
import { PATHS, motionHearingDate, responseDeadline, type Division } from "../rules.js";

/** Said in the instructions whose answer depends on the date (the sandbox clock is not the court's). */
export const TODAY_TEXT = `Today is ${longDate(REFERENCE_DATE)}.`;

const number = (text: string, pattern: RegExp): number => {
  const found = pattern.exec(text)?.[1];
  if (found === undefined) throw new Error(`a rules document no longer states ${pattern.source}`);
  return Number(found);
};
export const courtHolidays = (state: StateView): Set<string> =>
  new Set(parseMarkdownTable(requireFile(state, PATHS.localRules), "Court holidays").map((row) => row[0]!));

interface CaseRow {
  case_id: string;
  division: Division;
  filed_on: string;
  amount_demanded: number;
  courtroom_id: string;
  status: string;
}
const cases = (state: StateView): Map<string, CaseRow> =>
  new Map(allRows<CaseRow>(state.db, "SELECT * FROM cases").map((row) => [row.case_id, row]));

const scanFiles = (state: StateView, folder: string): string[] =>
  state
    .listFiles()
    .filter((path) => path.startsWith(`${folder}/`))
    .sort();

export interface Deadline {
  case_id: string;
  party_id: string;
  due: string;
}

/** Open civil cases with a signed proof of service and no response docketed: the last day to respond. */
export function responseDeadlines(state: StateView): Deadline[] {
  const rules = requireFile(state, PATHS.localRules);
  const days: [number, number] = [
    number(rules, /within (\d+) court days after service/),
    number(rules, /complete on the (\d+)th calendar day after the copy was mailed/),
  ];
  const holidays = courtHolidays(state);
  const latest = new Map<string, [string, string]>(); // case -> [service date, deadline]
  for (const path of scanFiles(state, PATHS.service))
    for (const doc of splitDocuments(requireFile(state, path))) {
      const proof = readProof(doc);
      if (!proof.caseId || !proof.served || !proof.method) throw new Error(`unreadable proof in ${path}`);
      if (!proof.signed) continue;
      const due = responseDeadline(proof.served, proof.method, proof.mailed, holidays, days);
      const seen = latest.get(proof.caseId);
      if (!seen || seen[0] < proof.served) latest.set(proof.caseId, [proof.served, due]);
    }
  const responded = new Set(
    allRows<{ case_id: string }>(
      state.db,
      "SELECT case_id FROM docket_entries WHERE entry_type IN ('answer', 'demurrer')",
    ).map((row) => row.case_id),
  );
  const defendants = new Map(
    allRows<{ case_id: string; party_id: string }>(
      state.db,
      "SELECT case_id, party_id FROM parties WHERE role = 'defendant'",
    ).map((row) => [row.case_id, row.party_id]),
  );
  return [...cases(state).values()]
    .filter(
      (c) =>
        c.division === "civil" && c.status === "open" && latest.has(c.case_id) && !responded.has(c.case_id),
    )
    .map((c) => ({
      case_id: c.case_id,
      party_id: defendants.get(c.case_id)!,
      due: latest.get(c.case_id)![1],
    }));
}

export const defaultEligible = (state: StateView): Deadline[] =>
  responseDeadlines(state).filter((d) => d.due < REFERENCE_DATE);

export interface FeeCheck {
  filing_id: string;
  case_id: string;
  paid: number;
  due: number;
}

/** Every fee-bearing filing's receipt amount against the schedule (bands inclusive, waivers from their date). */
export function feeChecks(state: StateView): FeeCheck[] {
  const schedule = parseMarkdownTable(requireFile(state, PATHS.fees), "Filing fees").map(
    ([type, division, band, fee]) => {
      const limits = [...band!.matchAll(/\$([\d,]+\.\d\d)/g)].map((m) => Number(m[1]!.replace(/,/g, "")));
      const upTo = band!.startsWith("over") || band === "any" ? Infinity : limits.at(-1)!;
      return { types: type!.split(" or "), division, upTo, fee: Number(fee) };
    },
  );
  const waivers = new Map(
    allRows<{ party_id: string; entry_date: string }>(
      state.db,
      "SELECT party_id, MIN(entry_date) AS entry_date FROM docket_entries WHERE entry_type = 'fee_waiver_granted' GROUP BY party_id",
    ).map((row) => [row.party_id, row.entry_date]),
  );
  const byCase = cases(state);
  return allRows<{
    filing_id: string;
    case_id: string;
    party_id: string;
    filing_type: string;
    filed_on: string;
    scan_text: string;
  }>(state.db, "SELECT * FROM filings ORDER BY filing_id").map((filing) => {
    const c = byCase.get(filing.case_id)!;
    const waiver = waivers.get(filing.party_id);
    const row = schedule.find(
      (r) => r.division === c.division && r.types.includes(filing.filing_type) && c.amount_demanded <= r.upTo,
    );
    if (!row) throw new Error(`no fee for ${filing.filing_id}`);
    const paid = feePaid(filing.scan_text);
    if (paid === null) throw new Error(`no receipt on ${filing.filing_id}`);
    return {
      filing_id: filing.filing_id,
      case_id: filing.case_id,
      paid,
      due: waiver && waiver <= filing.filed_on ? 0 : row.fee,
    };
  });
}

export const feeMismatches = (state: StateView): Map<string, number> =>
  new Map(
    feeChecks(state)
      .filter((f) => f.paid !== f.due)
      .map((f) => [f.filing_id, roundCents(f.paid - f.due)]),
  );

/** Open civil cases whose latest docket entry is more than the rule's days before today. */
export function staleCases(state: StateView): string[] {
  const days = number(requireFile(state, PATHS.localRules), /more than (\d+) days before today/);
  const latest = new Map(
    allRows<{ case_id: string; last: string }>(
      state.db,
      "SELECT case_id, MAX(entry_date) AS last FROM docket_entries GROUP BY case_id",
    ).map((row) => [row.case_id, row.last]),
  );
  const heard = new Set(
    allRows<{ case_id: string }>(
      state.db,
      "SELECT case_id FROM hearings WHERE hearing_date >= ? AND status = 'set'",
      REFERENCE_DATE,
    ).map((row) => row.case_id),
  );
  return [...cases(state).values()]
    .filter((c) => c.division === "civil" && c.status === "open" && !heard.has(c.case_id))
    .filter((c) => latest.get(c.case_id)! < addDays(REFERENCE_DATE, -days))
    .map((c) => c.case_id)
    .sort();
}

/** Motions in open cases with no hearing, and the law-and-motion day each is to be heard on. */
export function motionHearings(
  state: StateView,
): Array<{ filing_id: string; case_id: string; courtroom_id: string; date: string }> {
  const holidays = courtHolidays(state);
  const calendar = requireFile(state, PATHS.calendar);
  const notice = number(calendar, /at least (\d+) court days after the motion was filed/);
  const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];
  const weekday = new Map(
    parseMarkdownTable(calendar, "Courtrooms").map((row) => [row[0]!, days.indexOf(row[3]!)]),
  );
  return allRows<{ filing_id: string; case_id: string; courtroom_id: string; filed_on: string }>(
    state.db,
    `SELECT f.filing_id, f.case_id, c.courtroom_id, f.filed_on FROM filings f JOIN cases c ON c.case_id = f.case_id
     WHERE f.filing_type = 'motion' AND c.status = 'open'
       AND NOT EXISTS (SELECT 1 FROM hearings h WHERE h.filing_id = f.filing_id) ORDER BY f.filing_id`,
  ).map((f) => ({
    ...f,
    date: motionHearingDate(f.filed_on, weekday.get(f.courtroom_id)!, holidays, notice),
  }));
}

/** The docket entries the intake trays' papers call for: case, type from the title, date from the FILED stamp. */
export function intakeEntries(
  state: StateView,
): Array<{ case_id: string; entry_type: string; entry_date: string }> {
  const titles = parseMarkdownTable(requireFile(state, PATHS.localRules), "Intake docket codes");
  const entries = [];
  for (const path of scanFiles(state, PATHS.intake))
    for (const doc of splitDocuments(requireFile(state, path))) {
      const [caseId, type, date] = [docCaseNumber(doc), intakeType(doc, titles), stampDate(doc)];
      if (!caseId || !type || !date) throw new Error(`unreadable intake paper in ${path}`);
      entries.push({ case_id: caseId, entry_type: type, entry_date: date });
    }
  return entries;
}
