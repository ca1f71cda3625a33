/**
 * Right-to-work re-verification: the documents on file with the verification vendor (planted by a task), the
 * procedure that says whose documents must be re-verified, and the employees it flags.
 */
import type Database from "better-sqlite3";
import { addDays, allRows, type GenerateContext } from "../../envs/index.js";
import { COMPANY_NAME } from "./catalog.js";

export const REVERIFICATION_PROCEDURE_PATH = "policies/right-to-work-reverification.md";

/** The vendor's API drops a shard of lookups and answers with an error body instead of the record. */
export function authorizationLookupTimesOut(employeeId: string): boolean {
  return Number(employeeId.slice(1)) % 4 === 2;
}

const NO_EXPIRY = ["U.S. passport", "U.S. birth certificate with photo ID", "Permanent resident card"];
const EXPIRING = ["Employment authorization document", "Foreign passport with I-94"];

export interface ReverificationRules {
  reviewDate: string;
  windowDays: number;
}

function renderProcedure(rules: ReverificationRules): string {
  return `# Right-to-work re-verification (HR-PRO-03)

${COMPANY_NAME} · People Operations · Review as of **${rules.reviewDate}**

Work authorization documents that expire must be re-verified before they lapse. The documents on file
are held by our verification vendor and can be looked up per employee.

## Who is in scope

- Current employees: status \`active\` or \`on_leave\`. Former employees (\`terminated\`) are out of
  scope.
- Agency contractors are verified by their agency, not by us: leave them out.
- Documents without an expiry date (U.S. passports, birth certificates, permanent resident cards) are
  never re-verified.

## What to report

- **Expired**: the document expired before the review date.
- **Due**: the document expires on the review date or within the **${rules.windowDays} days** after it
  (the ${rules.windowDays}th day included).
`;
}

export function parseReverificationProcedure(text: string): ReverificationRules {
  const review = /Review as of \*\*(\d{4}-\d{2}-\d{2})\*\*/.exec(text);
  const window = /within the \*\*(\d+) days\*\*/.exec(text);
  if (!review || !window) throw new Error("re-verification procedure lacks its review date or window");
  return { reviewDate: review[1] as string, windowDays: Number(window[1]) };
}

interface Person {
  id: string;
  status: string;
  employment_type: string;
  hire_date: string;
}

/**
 * Files a document for every employee, most without an expiry, and plants the cases each rule turns on: an
 * expired and a due document in scope, one expiring exactly on the last day of the window and one the day
 * after, a due document hidden behind a failing lookup, and expiring documents of a contractor and a leaver.
 */
export function plantWorkAuthorizations(context: GenerateContext): void {
  const { db, random } = context;
  const rules: ReverificationRules = { reviewDate: context.referenceDate.slice(0, 10), windowDays: 90 };
  context.writeFile(REVERIFICATION_PROCEDURE_PATH, renderProcedure(rules));
  const people = allRows<Person>(
    db,
    "SELECT id, status, employment_type, hire_date FROM employees ORDER BY id",
  );
  const documents = new Map<string, { type: string; expires: string | null }>();
  for (const person of people) {
    if (random.chance(0.7)) documents.set(person.id, { type: random.pick(NO_EXPIRY), expires: null });
    else
      documents.set(person.id, {
        type: random.pick(EXPIRING),
        expires: addDays(rules.reviewDate, random.int(-40, 500)),
      });
  }
  const inScope = (person: Person) =>
    person.status !== "terminated" && person.employment_type !== "contractor";
  const pool = random.shuffle(people.filter(inScope));
  const take = (predicate: (person: Person) => boolean): Person => {
    const index = pool.findIndex(predicate);
    if (index < 0) throw new Error("too few employees to plant the re-verification cases");
    return pool.splice(index, 1)[0] as Person;
  };
  const last = addDays(rules.reviewDate, rules.windowDays);
  const planted: Array<[Person, string]> = [
    [take(() => true), addDays(rules.reviewDate, -random.int(1, 30))],
    [take(() => true), last],
    [take(() => true), addDays(last, 1)],
    [take((person) => authorizationLookupTimesOut(person.id)), addDays(rules.reviewDate, random.int(5, 80))],
  ];
  const contractor = people.find(
    (person) => person.employment_type === "contractor" && person.status !== "terminated",
  );
  if (contractor) planted.push([contractor, addDays(rules.reviewDate, random.int(-20, 60))]);
  const leaver = people.find((person) => person.status === "terminated");
  if (leaver) planted.push([leaver, addDays(rules.reviewDate, -random.int(1, 60))]);
  for (const [person, expires] of planted) documents.set(person.id, { type: random.pick(EXPIRING), expires });
  const insert = db.prepare(
    "INSERT INTO work_authorizations (employee_id, document_type, document_last4, expires_on, verified_on) VALUES (?, ?, ?, ?, ?)",
  );
  for (const person of people) {
    const document = documents.get(person.id) as { type: string; expires: string | null };
    insert.run(
      person.id,
      document.type,
      String(random.int(0, 9999)).padStart(4, "0"),
      document.expires,
      addDays(person.hire_date, -random.int(1, 10)),
    );
  }
}

export interface ReverificationOptions {
  includeContractors?: boolean;
  includeLeavers?: boolean;
  /** Treat the last day of the window as outside it. */
  exclusiveWindow?: boolean;
}

export interface Reverification {
  expired: string[];
  due: string[];
}

export function computeReverification(
  db: Database.Database,
  rules: ReverificationRules,
  options: ReverificationOptions = {},
): Reverification {
  const rows = allRows<{ id: string; status: string; employment_type: string; expires_on: string }>(
    db,
    `SELECT e.id, e.status, e.employment_type, w.expires_on FROM employees e
       JOIN work_authorizations w ON w.employee_id = e.id WHERE w.expires_on IS NOT NULL ORDER BY e.id`,
  );
  const last = addDays(rules.reviewDate, rules.windowDays);
  const result: Reverification = { expired: [], due: [] };
  for (const row of rows) {
    if (row.status === "terminated" && !options.includeLeavers) continue;
    if (row.employment_type === "contractor" && !options.includeContractors) continue;
    if (row.expires_on < rules.reviewDate) result.expired.push(row.id);
    else if (options.exclusiveWindow ? row.expires_on < last : row.expires_on <= last)
      result.due.push(row.id);
  }
  return result;
}
