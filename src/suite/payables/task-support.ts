import { PYTHON_WORKSPACE_HELPERS, type StateView } from "../../envs/index.js";
import { AP_POLICY_PATH, CONTRACTS_DIR_PATTERN, termsOf, type PaymentTerms } from "./rules.js";

/**
 * What the payables tasks share: the Python a competent agent writes first (pagination, file reading, a
 * retry around calls that fail transiently, the governing payment terms) and the verifier-side readers of
 * the same documents.
 */
export const PYTHON_PRELUDE = String.raw`
import csv, io, json, re
from datetime import date, timedelta

${PYTHON_WORKSPACE_HELPERS}

def call(name, **kwargs):
    for attempt in range(5):
        try:
            return tools[name](**kwargs)
        except ToolError as error:
            if "503" not in str(error) or attempt == 4:
                raise

def workspace_files(prefix=""):
    return sorted(item["path"] for item in fetch_all("list_files", "files") if item["path"].startswith(prefix))

def contract_terms():
    found = {}
    for path in workspace_files("contracts/"):
        if re.fullmatch(r"contracts/[^/]+\.json", path):
            contract = json.loads(read_text(path))
            found[contract["vendor_id"]] = contract["payment_terms"]["terms_code"]
    return found

def days(a, b):
    return (date.fromisoformat(b) - date.fromisoformat(a)).days

TODAY = "2025-06-30"
print("helpers ready")
`;

/** The AP policy text (the verifier reads the numbers the agent read). */
export function apPolicy(state: StateView): string {
  const text = state.readFile(AP_POLICY_PATH);
  if (text === null) throw new Error(`${AP_POLICY_PATH} is missing`);
  return text;
}

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

/** A sorted list of ids from an answer given as a JSON array (or null when it is not one). */
export function answerIdList(answer: unknown): string[] | null {
  if (!Array.isArray(answer)) return null;
  return answer.map((item) => String(item).trim().toUpperCase()).sort();
}

export function compareIdSets(
  expected: readonly string[],
  given: readonly string[],
): { missing: string[]; extra: string[] } {
  const expectedSet = new Set(expected);
  const givenSet = new Set(given);
  return {
    missing: expected.filter((id) => !givenSet.has(id)),
    extra: [...givenSet].filter((id) => !expectedSet.has(id)),
  };
}
