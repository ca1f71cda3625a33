import {
  allRows,
  check,
  getRow,
  parseAnswerJson,
  pythonFileLister,
  type Flags,
} from "../../../envs/index.js";
import type { Check, GenerateContext, VerifyContext } from "../../../envs/index.js";
import { COMPLAINT_SUBJECTS, CORRESPONDENCE_DIR } from "../documents.js";
import { qualityTask } from "./shared.js";

interface Trace {
  suppliers: string[];
  material_lots: string[];
  suspect_lots: string[];
}

/** The material lot a production lot was made from, that material's supplier, and the lot's part. */
function materialOf(db: VerifyContext["initial"]["db"], lot: string) {
  return getRow<{ material_lot_id: string; supplier_id: string; part_number: string }>(
    db,
    "SELECT material_lot_id, supplier_id, part_number FROM production_lots JOIN material_lots USING (material_lot_id) WHERE lot_id = ?",
    lot,
  )!;
}

/** From the complaint emails (by subject) to the material lots, their suppliers and every lot made from them. */
export function expectedTrace(state: VerifyContext["initial"]): Trace {
  const complaints = listEmails(state).filter((email) => email.complaint);
  const rows = complaints.map((email) => materialOf(state.db, email.lot));
  const materials = [...new Set(rows.map((row) => row.material_lot_id))].sort();
  const madeFrom = (material: string): string[] =>
    allRows<{ lot_id: string }>(
      state.db,
      "SELECT lot_id FROM production_lots WHERE material_lot_id = ?",
      material,
    ).map((row) => row.lot_id);
  return {
    suppliers: [...new Set(rows.map((row) => row.supplier_id))].sort(),
    material_lots: materials,
    suspect_lots: materials.flatMap(madeFrom).sort(),
  };
}

/** Routine emails name lots whose material is not under complaint, so reading them as complaints shows. */
function prepare(context: GenerateContext): void {
  const { db } = context;
  const emails = listEmails(context);
  const suspect = new Set(
    emails.filter((email) => email.complaint).map((email) => materialOf(db, email.lot).material_lot_id),
  );
  const replacements = allRows<{ lot_id: string; part_number: string; material_lot_id: string }>(
    db,
    "SELECT lot_id, part_number, material_lot_id FROM production_lots WHERE end_date IS NOT NULL ORDER BY lot_id",
  );
  for (const email of emails.filter((item) => !item.complaint)) {
    const own = materialOf(db, email.lot);
    if (!suspect.has(own.material_lot_id)) continue;
    const clean = replacements.filter((lot) => !suspect.has(lot.material_lot_id));
    const replacement = clean.find((lot) => lot.part_number === own.part_number) ?? clean[0];
    if (!replacement) throw new Error("no lot outside the complained material lots");
    let text = email.text.replaceAll(email.lot, replacement.lot_id);
    if (replacement.part_number !== own.part_number)
      text = text.replaceAll(own.part_number, replacement.part_number);
    context.writeFile(email.path, text);
  }
}

function listEmails(
  context: Pick<GenerateContext, "readFile">,
): Array<{ path: string; text: string; lot: string; complaint: boolean }> {
  const emails = [];
  for (let n = 1; ; n += 1) {
    const path = `${CORRESPONDENCE_DIR}/customer-${String(n).padStart(2, "0")}.md`;
    const text = context.readFile(path);
    if (text === null) return emails;
    const subject = /^Subject: (.*)$/m.exec(text)?.[1] ?? "";
    emails.push({
      path,
      text,
      lot: /\b(LOT-\d{5})\b/.exec(text)![1]!,
      complaint: (COMPLAINT_SUBJECTS as readonly string[]).includes(subject),
    });
  }
}

function verify({ initial, answer }: VerifyContext): Check[] {
  const expected = expectedTrace(initial);
  if (expected.suspect_lots.length === 0) throw new Error("generation wrote no complaint");
  const parsed = parseAnswerJson(answer) as Partial<Record<keyof Trace, unknown>> | null;
  const checks: Check[] = [];
  for (const key of ["suppliers", "material_lots", "suspect_lots"] as const) {
    const given = Array.isArray(parsed?.[key]) ? (parsed[key] as unknown[]).map(String).sort() : null;
    checks.push(
      check(
        key,
        given !== null && JSON.stringify(given) === JSON.stringify(expected[key]),
        given === null
          ? `expected a list under "${key}"`
          : `expected ${expected[key].join(", ")}; got ${given.join(", ")}`,
      ),
    );
  }
  return checks;
}

type Variant = Flags<"everyEmail" | "noContainment" | "trustsFirstAnswer">;

function cells(variant: Variant): string[] {
  return [
    String.raw`
${pythonFileLister({ folderParam: "folder" })}

paths = workspace_files("correspondence")
complaint_words = ("rejected", "nonconforming", "failure", "out of specification", "cracks", "failed")
complained = []
for path in sorted(paths):
    text = read_text(path)
    subject = re.search(r"^Subject: (.*)$", text, re.M).group(1).lower()
    lot = re.search(r"\b(LOT-\d{5})\b", text)
    if lot and (${variant.everyEmail ? "True" : "any(word in subject for word in complaint_words)"}):
        complained.append(lot.group(1))
print(complained)
`,
    String.raw`
materials = {}
for lot_id in complained:
    lot = call("get_lot", lot_id=lot_id)["lot"]
    ${
      variant.trustsFirstAnswer
        ? 'record = tools.get_material_lot(material_lot_id=lot["material_lot_id"])\n    materials[lot["material_lot_id"]] = record.get("supplier", {}).get("supplier_id")'
        : 'record = call("get_material_lot", material_lot_id=lot["material_lot_id"])\n    materials[lot["material_lot_id"]] = record["supplier"]["supplier_id"]'
    }
suspects = set(complained)
for material_lot_id in ${variant.noContainment ? "[]" : "materials"}:
    suspects |= {l["lot_id"] for l in all_pages("list_lots", "lots", material_lot_id=material_lot_id)}
print(json.dumps({
    "suppliers": sorted({s for s in materials.values() if s}),
    "material_lots": sorted(materials),
    "suspect_lots": sorted(suspects),
}))
`,
  ];
}

export const complaintTraceTask = qualityTask({
  id: "quality.complaint-trace",
  summary:
    "Read the customer emails, trace every quality complaint to its raw-material lot and supplier, and list every lot made from those material lots.",
  instruction:
    'Go through the customer emails in correspondence/. For every email that reports a quality problem with one of our lots (ignore routine admin mail), trace the lot back to the raw-material lot it was made from and that material\'s supplier. For containment, list every lot made from any of those material lots (production and rework lots, whatever their status), including the complained lots. Reply with only a JSON object {"suppliers": [...], "material_lots": [...], "suspect_lots": [...]}, each a list of ids.',
  tools: [
    "list_lots",
    "get_lot",
    "get_material_lot",
    "list_material_lots",
    "list_suppliers",
    "list_products",
  ],
  prepare,
  verify,
  cells,
  nearMisses: {
    "every-email": [{ everyEmail: true }, "Treats routine emails that mention a lot as complaints."],
    "no-containment": [
      { noContainment: true },
      "Lists only the complained lots, not the other lots made from the same material.",
    ],
    "trusts-first-answer": [
      { trustsFirstAnswer: true },
      "Does not notice get_material_lot's error body and loses the supplier.",
    ],
  },
});
