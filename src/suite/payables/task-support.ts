import {
  PYTHON_WORKSPACE_HELPERS,
  check,
  pythonClientHelpers,
  parseAnswerJson,
  parseAnswerNumber,
  nearlyEqual,
  type Check,
  type NearMiss,
  type StateView,
} from "../../envs/index.js";
import { CONTRACTS_DIR_PATTERN, termsOf, type PaymentTerms } from "./rules.js";

/**
 * What the payables tasks share: the Python a competent agent writes first (pagination, file reading, a
 * retry around calls that fail transiently, the governing payment terms) and the verifier-side readers of
 * the same documents.
 */
export const PYTHON_PRELUDE = String.raw`
import csv, io, json, re
from datetime import date, timedelta

${PYTHON_WORKSPACE_HELPERS}
${pythonClientHelpers()}
# The drive listed through list_files in full, filtered here (the kit's workspace_files asks by folder).
def workspace_files(prefix=""):
    return sorted(item["path"] for item in fetch_all("list_files", "files") if item["path"].startswith(prefix))

def contract_terms():
    found = {}
    for path in workspace_files("contracts/"):
        if re.fullmatch(r"contracts/[^/]+\.json", path):
            contract = json.loads(read_text(path))
            found[contract["vendor_id"]] = contract["payment_terms"]["terms_code"]
    return found

def governing_terms(use_contracts=True):
    """The vendor master by id, and the terms governing a vendor's invoices (its contract's, else the master's)."""
    contracts = contract_terms() if use_contracts else {}
    terms = {item["terms_code"]: item for item in fetch_all("list_payment_terms", "terms")}
    vendors = {vendor["vendor_id"]: vendor for vendor in fetch_all("list_vendors", "vendors")}
    return vendors, lambda vendor_id: terms[contracts.get(vendor_id, vendors[vendor_id]["terms_code"])]

def invoices_in(statuses, **filters):
    return [invoice for status in statuses for invoice in fetch_all("list_invoices", "invoices", status=status, **filters)]

def received_by_line(order):
    """Quantity received so far per line of a purchase order (its get_purchase_order detail)."""
    received = {}
    for receipt in order["receipts"]:
        received[receipt["line_no"]] = received.get(receipt["line_no"], 0) + receipt["quantity_received"]
    return received

def days(a, b):
    return (date.fromisoformat(b) - date.fromisoformat(a)).days

def plus_days(day, count):
    return (date.fromisoformat(day) + timedelta(days=count)).isoformat()

TODAY = "2025-06-30"
print("helpers ready")
`;

/** The payment terms each vendor contract states, by vendor id. */
export function contractTerms(state: StateView): Map<string, PaymentTerms> {
  const found = new Map<string, PaymentTerms>();
  for (const path of state.listFiles().filter((file) => CONTRACTS_DIR_PATTERN.test(file))) {
    const contract = JSON.parse(state.readFile(path) ?? "{}") as {
      vendor_id: string;
      payment_terms: { terms_code: string };
    };
    found.set(contract.vendor_id, termsOf(contract.payment_terms.terms_code));
  }
  return found;
}

/** The terms governing a vendor's invoices under the AP policy: its contract's where one states terms, else the master's. */
export function governingTerms(
  state: StateView,
): (vendorId: string, masterTermsCode: string) => PaymentTerms {
  const contracts = contractTerms(state);
  return (vendorId, masterTermsCode) => contracts.get(vendorId) ?? termsOf(masterTermsCode);
}

/** A sorted list of ids from an answer given as a JSON array (or null when it is not one). */
export function answerIdList(answer: unknown): string[] | null {
  if (!Array.isArray(answer)) return null;
  return answer.map((item) => String(item).trim().toUpperCase()).sort();
}

/** The one failing `answer-format` check of a reply that is not the JSON the instruction asked for. */
export function answerFormatFailure(wanted: string, answer: string): Check[] {
  return [check("answer-format", false, `expected ${wanted}, got: ${answer.slice(0, 200)}`)];
}

/** The reply as a JSON object (or null when it is not one). */
export function answerObject(answer: string): Record<string, unknown> | null {
  const parsed = parseAnswerJson(answer);
  return parsed && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : null;
}

/** An amount as a reply states it: a number, or text such as "$1,234.50". */
export function answerAmount(value: unknown): number {
  return typeof value === "number" ? value : Number(String(value).replace(/[$,\s]/g, ""));
}

/** What a set check says: on success `success`, else `<prefix>missing ...; <extraLabel> ...`. */
export interface SetCheckTexts {
  success: string;
  prefix?: string;
  extraLabel: string;
}

/** One check that `given` names exactly the `expected` ids. */
export function checkIdSet(
  id: string,
  expected: readonly string[],
  given: readonly string[],
  { success, prefix = "", extraLabel }: SetCheckTexts,
): Check {
  const givenSet = new Set(given);
  const expectedSet = new Set(expected);
  const missing = expected.filter((item) => !givenSet.has(item));
  const extra = [...givenSet].filter((item) => !expectedSet.has(item));
  const exact = missing.length === 0 && extra.length === 0;
  return check(
    id,
    exact,
    exact
      ? success
      : `${prefix}missing ${missing.join(", ") || "none"}; ${extraLabel} ${extra.join(", ") || "none"}`,
  );
}

/** A reply that is a JSON array of invoice ids, checked as a set against `expected`. */
export function checkInvoiceIdArray(
  answer: string,
  expected: readonly string[],
  id: string,
  texts: SetCheckTexts,
): Check[] {
  const given = answerIdList(parseAnswerJson(answer));
  if (given === null) return answerFormatFailure("a JSON array of invoice ids", answer);
  return [checkIdSet(id, expected, given, texts)];
}

/** How a reply of key -> dollars is read and what its two checks say. */
export interface AmountsAnswer {
  wanted: string;
  normaliseKey: (key: string) => string;
  keysId: string;
  keys: SetCheckTexts;
  amountsRight: string;
}

/** A reply that is a JSON object of key -> dollars: one check of the keys, one (`amounts`) of the amounts. */
export function checkAmountsAnswer(
  answer: string,
  expected: ReadonlyMap<string, number>,
  options: AmountsAnswer,
): Check[] {
  const parsed = answerObject(answer);
  if (!parsed) return answerFormatFailure(options.wanted, answer);
  const given = new Map(
    Object.entries(parsed).map(([key, value]) => [options.normaliseKey(key), answerAmount(value)]),
  );
  const wrong = [...expected]
    .filter(([key, amount]) => given.has(key) && !nearlyEqual(given.get(key)!, amount))
    .map(([key, amount]) => `${key}: expected ${amount.toFixed(2)}, got ${String(given.get(key))}`);
  return [
    checkIdSet(options.keysId, [...expected.keys()], [...given.keys()], options.keys),
    check(
      "amounts",
      wrong.length === 0,
      wrong.length === 0 ? options.amountsRight : wrong.slice(0, 8).join("; "),
    ),
  ];
}

/** The `answer` check of a write task whose reply is the number of rows it changed. */
export function checkAnswerCountOf(answer: string, expected: number): Check {
  return check(
    "answer",
    parseAnswerNumber(answer) === expected,
    `expected the count ${expected}, got ${answer.slice(0, 80) || "nothing"}`,
  );
}

/** The near-misses of a task whose cells builder takes the id of the mistake to make: one per id, in order. */
export function nearMisses<Miss extends string>(
  cells: (miss?: Miss) => string[],
  descriptions: Record<Miss, string>,
): NearMiss[] {
  return (Object.entries(descriptions) as Array<[Miss, string]>).map(([id, description]) => ({
    id,
    description,
    cells: cells(id),
  }));
}
