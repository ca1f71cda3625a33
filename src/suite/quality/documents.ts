import type { GenerateContext } from "../../envs/index.js";
import { addDays, allRows, getRow, longDate, renderEmail, renderMarkdown } from "../../envs/index.js";
import { CALIBRATION_DAYS, CAPA_DAYS, DEFECT_CODES, SAMPLE_PLAN, USE_AS_IS_BAND_SHARE } from "./rules.js";

export const SAMPLING_PLAN_PATH = "quality/sampling-plan.md";
export const QUALITY_MANUAL_PATH = "quality/quality-manual.md";
export const CALIBRATION_SOP_PATH = "quality/calibration-sop.md";
export const CORRESPONDENCE_DIR = "correspondence";
/** Subjects of customer emails that report a quality problem (the other emails are routine). */
export const COMPLAINT_SUBJECTS = [
  "Rejected parts at incoming inspection",
  "Nonconforming shipment",
  "Field failure - request for 8D",
] as const;

/** The purchasing contact of every customer. */
const CONTACTS: Record<string, { name: string; email: string }> = {
  "Norden Hydraulics": { name: "Ingrid Solberg", email: "i.solberg@nordenhydraulics.example" },
  "Calder Pumps": { name: "Martin Reyes", email: "mreyes@calderpumps.example" },
  "Brightwater Controls": { name: "Priya Natarajan", email: "priya.n@brightwater.example" },
  "Ostrava Motion": { name: "Tomas Dvorak", email: "t.dvorak@ostravamotion.example" },
};

interface DocumentInputs {
  products: Array<{ part: string; customer: string; name: string }>;
  lots: Array<{ id: string; part: string; start: string; end: string | null }>;
  materialLots: Array<{ id: string; material: string; received: string }>;
}

/** The plant's fixed quality documents and the scaled correspondence, memos and shift notes. */
export function writeDocuments(context: GenerateContext, inputs: DocumentInputs): void {
  const { random, factors, referenceDate, db } = context;
  context.writeFile(
    SAMPLING_PLAN_PATH,
    renderMarkdown("Sampling plan QP-07 (variables inspection)", [
      "Revision F, approved by the Quality Manager. Applies to every production and rework lot of machined parts.",
      { heading: "Samples per characteristic by lot size" },
      "Every characteristic of the part's inspection plan is measured on the number of samples below, chosen by the lot quantity. Both ends of each range are included.",
      {
        table: {
          headers: ["lot size (pieces)", "samples per characteristic"],
          rows: SAMPLE_PLAN.map((row) => [`${row.min} to ${row.max}`, row.samples]),
        },
      },
      { heading: "Counting samples" },
      {
        bullets: [
          "A sample counts for a characteristic when it has a valid measurement of that characteristic. Measurements marked invalid (for example after a gauge recall) do not count.",
          "A lot is compliant only when every characteristic of its plan has at least the required number of samples.",
          "Extra samples beyond the requirement are allowed.",
        ],
      },
    ]),
  );

  context.writeFile(
    QUALITY_MANUAL_PATH,
    renderMarkdown("Quality manual (excerpt): nonconforming product, CAPA, suppliers, yield", [
      "Section 8 of the plant quality manual, revision 12. Applies to all NCRs raised at the plant.",
      { heading: "8.3 Disposition of nonconforming product" },
      "The Material Review Board assigns one disposition per NCR, by the first rule that applies:",
      {
        numbered: [
          "Defect codes MAT and HRD (material, hardness): return_to_supplier.",
          "Defect code COS (cosmetic): rework.",
          "Defect code DIM on a critical characteristic: scrap. Critical characteristics are never used as is or reworked.",
          `Defect code DIM on a non-critical characteristic whose measured value is outside its limit by no more than ${USE_AS_IS_BAND_SHARE * 100}% of the tolerance band (upper limit minus lower limit): use_as_is.`,
          "Any other DIM: rework when material remains to be removed (an external feature above its upper limit, or an internal feature below its lower limit); otherwise scrap.",
        ],
      },
      "Dispositions are recorded as `rework`, `scrap`, `use_as_is` or `return_to_supplier`.",
      { heading: "8.5 Defect codes" },
      {
        table: {
          headers: ["code", "meaning", "charged to supplier"],
          rows: DEFECT_CODES.map((row) => [row.code, row.meaning, row.supplier ? "yes" : "no"]),
        },
      },
      { heading: "8.6 CAPA deadlines" },
      "Every NCR linked to a CAPA must see that CAPA closed within the days below, counted from the day the NCR was opened. The deadline day itself is still on time. A CAPA whose actions are implemented but whose effectiveness is not yet verified (status `implemented`) is not closed.",
      {
        table: {
          headers: ["NCR severity", "days to close the CAPA"],
          rows: Object.entries(CAPA_DAYS).map(([severity, days]) => [severity, days]),
        },
      },
      { heading: "8.7 Supplier scorecard" },
      "Each quarter every approved supplier is rated on the NCRs opened in the quarter against lots (production or rework) made from its material, counting only defect codes charged to the supplier (8.5). An NCR covered by an approved supplier deviation (memo in `suppliers/`) is not counted; a rejected deviation request changes nothing.",
      {
        table: {
          headers: ["charged NCRs in the quarter", "rating"],
          rows: [
            ["0", "A"],
            ["1 to 2", "B"],
            ["3 or more", "C"],
          ],
        },
      },
      { heading: "8.9 First-pass yield" },
      "First-pass yield (FPY) of a group of lots = (pieces produced - pieces rejected at first inspection) / pieces produced, as a percentage. Lots are assigned to the month of their end date. Rework lots are excluded: they are not first passes.",
    ]),
  );

  context.writeFile(
    CALIBRATION_SOP_PATH,
    renderMarkdown("SOP-CAL-02 Gauge calibration", [
      `Effective ${longDate("2024-01-15")}. Owner: metrology lab.`,
      { heading: "Intervals" },
      {
        table: {
          headers: ["gauge type", "interval (days)"],
          rows: Object.entries(CALIBRATION_DAYS).map(([type, days]) => [type, days]),
        },
      },
      { heading: "Status of a gauge" },
      {
        bullets: [
          "A gauge is in calibration from the day of a passing calibration up to and including that day plus its interval.",
          "A failed calibration takes the gauge out of service on that day, until its next passing calibration.",
          `The calibration history is exported nightly to \`exports/gauge-calibration-history.csv\`; the gauge register keeps only the latest passing date.`,
          "A measurement taken with a gauge that was not in calibration on the measurement date is invalid and must be marked invalid with the reason.",
        ],
      },
    ]),
  );

  const finished = inputs.lots.filter((lot) => lot.end !== null);

  // Customer emails: complaints that name a lot, and routine mail that also names lots.
  for (let n = 1; n <= 3 * factors.files; n += 1) {
    const lot = random.pick(finished);
    const product = inputs.products.find((item) => item.part === lot.part)!;
    const sent = addDays(lot.end!, random.int(3, 20));
    const received = sent > referenceDate ? referenceDate : sent;
    const complaint = n % 3 !== 0;
    const subject = complaint
      ? random.pick(COMPLAINT_SUBJECTS)
      : random.pick([
          "Delivery schedule for next release",
          "Copy of certificate of conformance",
          "Quote request for revision change",
        ]);
    const body = complaint
      ? [
          `Our incoming inspection rejected parts ${product.part} (${product.name}) from your lot ${lot.id}. ${random.pick(
            [
              "Several pieces were out of specification on our check fixture.",
              "We found cracks on two pieces after assembly.",
              "The parts failed our pressure test.",
            ],
          )}`,
          "Please contain all suspect material and send us your 8D within ten working days.",
        ]
      : [
          `Regarding ${product.part} (${product.name}), lot ${lot.id}: ${random.pick([
            "could you confirm the ship date of the next release?",
            "please send another copy of the certificate of conformance, ours was misfiled.",
            "we plan a drawing revision and would like a quote for the next batch.",
          ])}`,
          "No quality issue, just admin. Thanks.",
        ];
    const contact = CONTACTS[product.customer]!;
    context.writeFile(
      `correspondence/customer-${String(n).padStart(2, "0")}.md`,
      renderEmail(
        {
          From: `${contact.name} <${contact.email}>`,
          To: "quality@precisionparts.example",
          Date: received,
          Subject: subject,
        },
        ["Hello,", ...body, `Regards,\n${contact.name}, ${product.customer}`],
      ),
    );
  }

  // Supplier deviation memos on material lots.
  // Deviations concern material that went into production.
  const used = new Set(
    allRows<{ material_lot_id: string }>(
      db,
      "SELECT DISTINCT material_lot_id FROM production_lots WHERE end_date IS NOT NULL",
    ).map((row) => row.material_lot_id),
  );
  const materialLots = random.shuffle(inputs.materialLots.filter((lot) => used.has(lot.id)));
  for (let n = 1; n <= 2 * factors.files; n += 1) {
    const materialLot = materialLots[(n - 1) % materialLots.length]!;
    const supplier = getRow<{ name: string; supplier_id: string }>(
      db,
      "SELECT s.name, s.supplier_id FROM material_lots m JOIN suppliers s USING (supplier_id) WHERE material_lot_id = ?",
      materialLot.id,
    )!;
    const approved = n % 2 === 1;
    const code = random.pick(["HRD", "MAT"]);
    context.writeFile(
      `suppliers/deviation-${String(n).padStart(2, "0")}.md`,
      renderMarkdown(`Supplier deviation request SDR-${String(200 + n)}`, [
        `Supplier: ${supplier.name} (${supplier.supplier_id}). Material lot: ${materialLot.id} (${materialLot.material}), received ${materialLot.received}.`,
        code === "HRD"
          ? "The supplier reported before shipment that the bars are up to 3 HRC outside the hardness specification and asked to ship them as they are."
          : "The supplier reported a mismatch between the mill certificate and the bar marking and asked for acceptance on the strength of a re-test.",
        approved
          ? `Decision: APPROVED by the Material Review Board on ${addDays(materialLot.received, -2)}. NCRs with defect code ${code} on lots made from ${materialLot.id} are covered by this deviation.`
          : `Decision: REJECTED on ${addDays(materialLot.received, -2)}. The supplier remains responsible for any nonconformance on ${materialLot.id}.`,
      ]),
    );
  }

  // Shift handover notes.
  for (let n = 1; n <= 4 * factors.files; n += 1) {
    const date = addDays(referenceDate, -n);
    const line = `L${random.int(1, 4)}`;
    context.writeFile(
      `reports/shift-handover-${date}-${line}.md`,
      renderMarkdown(`Shift handover ${date}, line ${line}`, [
        `Outgoing lead: ${random.pick(["R. Kowalski", "M. Osei", "J. Tanaka", "A. Silva", "P. Lindqvist"])}.`,
        {
          bullets: [
            random.pick([
              "Spindle warm-up done, no alarms.",
              "Coolant concentration topped up to 7%.",
              "Bar feeder jammed twice, cleared.",
            ]),
            random.pick([
              "First-article checks signed off.",
              "Insert change on turret station 3.",
              "Waiting on material from stores for the next job.",
            ]),
            random.pick([
              "Chip conveyor needs maintenance next week.",
              "No safety incidents.",
              "Two operators cross-training on the CMM.",
            ]),
          ],
        },
      ]),
    );
  }
}
