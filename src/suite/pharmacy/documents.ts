import type { GenerateContext } from "../../envs/index.js";
import { addDays, formatUsd, longDate, renderEmail, renderMarkdown, slug, toCsv } from "../../envs/index.js";
import { purchaseOrderId } from "./ids.js";
import { CENTRAL, type LotDraft, type PharmacyWorld, type RecallDraft } from "./world.js";

export const INVENTORY_POLICY = "policies/inventory-management.md";
export const CONTROLLED_POLICY = "policies/controlled-substances.md";
export const FORMULARY_MEMO = "committee/formulary-memo-2025-06.md";
export const CENTRAL_PAR = "par/central-pharmacy.csv";
export const CABINET_PAR_FOLDER = "par/cabinets/";
export const COUNT_FOLDER = "counts/";
export const RECALL_FOLDER = "recalls/";
export const INBOX_FOLDER = "inbox/";
export const INVOICE_TOLERANCE_CENTS = 50;

/** Writes the workspace: policies, the committee memo, par sheets, shift counts, recall notices and mail. */
export function writePharmacyDocuments(context: GenerateContext, world: PharmacyWorld): void {
  writePolicies(context, world);
  writeFormularyMemo(context, world);
  context.writeFile(
    CENTRAL_PAR,
    toCsv(
      ["drug_id", "description", "reorder_point", "par"],
      world.centralPar.map((row) => [row.drug.id, row.drug.name, row.reorderPoint, row.par]),
    ),
  );
  for (const [cabinet, sheet] of world.cabinetPar)
    context.writeFile(
      `${CABINET_PAR_FOLDER}${cabinet}.csv`,
      toCsv(
        ["drug_id", "description", "min", "max"],
        sheet.map((row) => [row.drug.id, row.drug.name, row.min, row.max]),
      ),
    );
  for (const [cabinet, lines] of world.counts)
    context.writeFile(
      `${COUNT_FOLDER}${cabinet}-${world.today}-night.txt`,
      countSheet(world, cabinet, lines),
    );
  writeInvoice(context, world);
  for (const recall of world.recalls) {
    context.writeFile(
      `${RECALL_FOLDER}${recall.issued}-${slug(recall.drug.entry.generic)}-${recall.notice}.txt`,
      recallNotice(recall),
    );
    if (recall.added) writeRecallUpdate(context, world, recall, recall.added);
  }
}

/** The manufacturer's e-mail that adds a lot to a recall, in one of the ways such mail is written. */
function writeRecallUpdate(
  context: GenerateContext,
  world: PharmacyWorld,
  recall: RecallDraft,
  added: LotDraft,
) {
  const { notice, drug } = recall;
  const lot = added.lotNumber;
  const sent = addDays(recall.issued, world.random.int(2, 6));
  const [subject, news] = world.random.pick([
    [
      `UPDATE to recall notice ${notice} (${drug.name})`,
      `Our investigation found the same defect in one more lot, so recall ${notice} is expanded to include lot ${lot} of ${drug.name} (NDC ${drug.ndc}).`,
    ],
    [
      `Recall ${notice}: one more lot affected`,
      `Please add lot number ${lot} of ${drug.name} (NDC ${drug.ndc}) to recall ${notice}: retained samples of that lot show the same defect.`,
    ],
    [
      `RE: ${notice} - recall expansion, ${drug.name}`,
      `Following further testing, ${drug.manufacturer} is extending recall ${notice} to one additional lot.\n\nProduct: ${drug.name}\nNDC: ${drug.ndc}\nAdditional lot: ${lot}`,
    ],
  ]);
  context.writeFile(
    `${INBOX_FOLDER}${sent}-recall-update-${notice}.eml`,
    renderEmail(
      {
        From: `Quality Assurance <recalls@${slug(drug.manufacturer)}.example.com>`,
        Sent: longDate(sent),
        To: "pharmacy-buyers@mercy-general.example.org",
        Subject: subject,
      },
      [
        "Dear pharmacy customer,",
        news,
        `Every instruction of notice ${notice} applies to this lot as well.`,
        `Regards,\n${world.faker.person.fullName()}\n${drug.manufacturer} Quality Assurance`,
      ],
    ),
  );
}

function writeInvoice(context: GenerateContext, world: PharmacyWorld): void {
  const sent = addDays(world.today, -2);
  const invoiceNumber = `CAH-${world.random.int(4_000_000, 4_999_999)}`;
  const lines = world.invoice.map(({ purchase, packs, price }) =>
    [
      purchaseOrderId.format(world.purchases.indexOf(purchase) + 1).padEnd(10),
      purchase.drug.id.padEnd(8),
      purchase.drug.name.slice(0, 34).padEnd(35),
      `${packs} pk`.padStart(6),
      `@ ${formatUsd(price)}/pk`.padStart(14),
      formatUsd(price * packs).padStart(12),
    ].join(" "),
  );
  context.writeFile(
    `${INBOX_FOLDER}${sent}-wholesaler-invoice-${invoiceNumber}.eml`,
    renderEmail(
      {
        From: "Cardinal Health Billing <billing@cardinal.example.com>",
        Sent: longDate(sent),
        To: "pharmacy-buyers@mercy-general.example.org",
        Subject: `Invoice ${invoiceNumber} for shipments to Mercy General Pharmacy`,
      },
      [
        `Please find below invoice ${invoiceNumber}. Payment terms: net 30.`,
        [
          "PO         DRUG     DESCRIPTION                          SHIPPED    PACK PRICE   LINE TOTAL",
          ...lines,
        ].join("\n"),
        `Invoice total: ${formatUsd(world.invoice.reduce((sum, line) => sum + line.price * line.packs, 0))}`,
        "Questions about this invoice: reply to this e-mail within 10 days.",
      ],
    ),
  );
}

function nurse(faker: PharmacyWorld["faker"]): string {
  return `${faker.person.firstName()} ${faker.person.lastName()}`;
}

type CountLine = { drug: { id: string; name: string }; first: number; recount: number | null };

function countSheet(world: PharmacyWorld, cabinet: string, lines: CountLine[]): string {
  const { faker } = world;
  const rows = lines.map(
    ({ drug, first }) => `${drug.id} ${drug.name} `.padEnd(58, ".") + String(first).padStart(5),
  );
  const recounts = lines
    .filter((line) => line.recount !== null)
    .map(
      (line) =>
        `RECOUNT ${line.drug.id} ${line.drug.name} = ${String(line.recount)}  (first count was off, both nurses recounted at 06:40)`,
    );
  return [
    "CONTROLLED SUBSTANCE SHIFT COUNT",
    `Cabinet: ${cabinet}  (ADC ${world.cabinetUnits.get(cabinet)!})`,
    `Count date: ${world.today}   Shift: night (23:00-07:00)`,
    `Counted by: RN ${nurse(faker)}   Witness: RN ${nurse(faker)}`,
    "",
    "DRUG".padEnd(58) + "COUNT",
    ...rows,
    "",
    ...recounts,
    recounts.length === 0 ? "No recounts this shift." : "",
    "Signatures on file.",
    "",
  ].join("\n");
}

function recallNotice(recall: RecallDraft): string {
  const { drug } = recall;
  return [
    `URGENT: DRUG RECALL - CLASS ${recall.recallClass}`,
    `Notice ${recall.notice}            Issued: ${longDate(recall.issued)}`,
    `From: ${drug.manufacturer}, Quality Assurance`,
    "To: Hospital pharmacy directors",
    "",
    `Product: ${drug.name}`,
    `NDC: ${drug.ndc}`,
    `Affected lot numbers: ${recall.lots.map((lot) => lot.lotNumber).join(", ")}`,
    `Reason: ${recall.recallClass === "I" ? "visible particulate matter found in retained samples" : "out-of-specification assay result at the 12-month stability point"}.`,
    "",
    "Action required: examine your inventory immediately and quarantine every unit of the affected lots at every",
    "location, pharmacy shelves and automated dispensing cabinets alike. Do not dispense quarantined units.",
    recall.recallClass === "I"
      ? "This is a Class I recall: identify every patient who received product from the affected lots so their prescribers can be notified."
      : "This is a Class II recall: patient-level notification is not required.",
    "",
  ].join("\n");
}

function writePolicies(context: GenerateContext, world: PharmacyWorld): void {
  const { rules, today } = world;
  const effective = longDate(addDays(today, -140));
  context.writeFile(
    INVENTORY_POLICY,
    renderMarkdown("Pharmacy inventory management", [
      `Effective ${effective}. Applies to the central pharmacy (${CENTRAL}), the satellite pharmacy and every automated dispensing cabinet (ADC).`,
      { heading: "Usable stock" },
      "Usable stock is stock in status available whose lot has not expired; a lot expiring today is still usable. Quarantined stock and expired stock never count as usable.",
      { heading: "Central pharmacy reorders" },
      `Reorder points and par levels for the central pharmacy are in ${CENTRAL_PAR}. Add the units on open purchase orders (packs times pack size) to the usable stock at the central pharmacy; received and cancelled purchase orders count for nothing. When that total is below the reorder point, order whole packs from the wholesaler, enough to bring the total to par or just above: packs = (par - total) / pack size, rounded up. Drugs not on the sheet are not reordered.`,
      { heading: "Cabinet refills" },
      `Each ADC has a par sheet in ${CABINET_PAR_FOLDER} (one file per cabinet, named by location id) with a minimum and a maximum per drug. When the usable stock of a listed drug in that cabinet is at or below its minimum, request a refill of (maximum - usable stock) units.`,
      { heading: "Invoice review" },
      `Check every line of a wholesaler invoice against the purchase order it bills and the catalog pack cost. Dispute a line when it bills a purchase order that was cancelled, when it bills more packs than the purchase order ordered, or when its pack price is more than ${formatUsd(INVOICE_TOLERANCE_CENTS / 100)} above the catalog pack cost. A line shipping fewer packs than ordered is a backorder, not a dispute.`,
      { heading: "Short-dated stock" },
      `Stock is short-dated when its lot expires on any day from today through ${rules.shortDatedDays} days from today, both ends included. Short-dated stock is valued at unit cost, the pack cost divided by the pack size. Only stock in status available is reported; quarantined stock is written off separately.`,
      { heading: "Expired stock returns" },
      `The wholesaler credits expired product whose expiry date is no more than ${rules.returnWindowDays} days before today (a lot that expired exactly ${rules.returnWindowDays} days ago still qualifies). Return each qualifying expired stock row in status available in full with create_return. Schedule II products are never returned to the wholesaler (they go to the reverse distributor with a DEA Form 222), and quarantined stock stays where it is until its investigation closes.`,
    ]),
  );
  context.writeFile(
    CONTROLLED_POLICY,
    renderMarkdown("Controlled substances: counts, discrepancies and overrides", [
      `Effective ${effective}.`,
      { heading: "Shift counts" },
      `Two nurses count every controlled substance in each ADC at the end of the night shift; the count sheets are filed in ${COUNT_FOLDER}. The system quantity of a drug in a cabinet is the total of all its lots in that cabinet, whatever their status or expiry. When a sheet has a RECOUNT line for a drug, the recount replaces the first count.`,
      { heading: "Reportable discrepancies" },
      {
        bullets: [
          "Schedule II: any difference between the counted and the system quantity, however small, is reportable.",
          `Schedules III, IV and V: a difference is reportable when it is ${rules.countThreshold} units or more in either direction.`,
          "Record each reportable discrepancy once with record_discrepancy, giving the count date of the sheet and the quantity counted.",
        ],
      },
      { heading: "Weekly schedule II usage report" },
      "The weekly usage report gives, per schedule II drug, the units dispensed from the automated dispensing cabinets during the seven days ending yesterday (today is not included; it is not over). Dispenses from the pharmacies are reported separately and are left out. Override pulls count like any other dispense.",
      { heading: "Override pulls" },
      `An override pull is a dose removed from an ADC before a pharmacist verified the order. It is compliant when a pharmacist verified the order no later than ${rules.overrideMinutes} minutes after the pull (exactly ${rules.overrideMinutes} minutes is still compliant). A pull whose order has never been verified is non-compliant. The audit covers override pulls made in the last ${rules.auditDays} days, today included.`,
      "Questions: the controlled substance coordinator, extension 4471.",
    ]),
  );
}

function writeFormularyMemo(context: GenerateContext, world: PharmacyWorld): void {
  context.writeFile(
    FORMULARY_MEMO,
    renderMarkdown("Pharmacy and Therapeutics Committee: formulary decisions, June 2025", [
      `Minutes of the meeting of ${longDate(addDays(world.today, -9))}. To: pharmacy operations, clinical pharmacists.`,
      "The committee reviewed therapeutic interchange for non-formulary products still ordered on the wards. For an approved interchange, pharmacy converts every active order of the non-formulary product to the formulary alternative, with the dose multiplied by the dose factor, unless the prescriber marked the order dispense as written. Rows marked deferred stay under review: do not convert those orders yet.",
      { heading: "Therapeutic interchange" },
      {
        table: {
          headers: [
            "non-formulary drug_id",
            "product",
            "formulary drug_id",
            "alternative",
            "dose factor",
            "decision",
          ],
          rows: world.substitutions.map((row) => [
            row.from.id,
            row.from.name,
            row.to.id,
            row.to.name,
            row.factor,
            row.decision,
          ]),
        },
      },
      { heading: "Other business" },
      `The wholesaler contract renewal was tabled. Average pack cost across the catalog this quarter: ${formatUsd(
        world.drugs.reduce((sum, drug) => sum + drug.packCost, 0) / world.drugs.length,
      )}.`,
    ]),
  );
}
