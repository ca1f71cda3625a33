import type Database from "better-sqlite3";
import type { SeededRandom } from "../../core/index.js";
import {
  addDays,
  daysBetween,
  earlierDate,
  insertDrafts,
  randomAmount,
  roundCents,
  sample,
  weightedPick,
  type GenerateContext,
} from "../../envs/index.js";
import { writeDocuments, type Plan } from "./documents.js";
import {
  APPROVERS,
  PAYMENT_TERMS,
  SECOND_APPROVAL_THRESHOLDS,
  discountAmount,
  discountDeadline,
  invoiceId,
  normaliseInvoiceNumber,
  paymentId,
  poId,
  receiptId,
  termsOf,
  vendorId,
} from "./rules.js";
import {
  approveProperly,
  createInvoice,
  createPo,
  createVendors,
  invoiceSubtotal,
  invoiceTotal,
  lastFridayOnOrBefore,
  pay,
  plannedPayRun,
  receive,
  receivedQuantity,
  type CatalogItem,
  type Invoice,
  type InvoiceSpec,
  type Payment,
  type PoSpec,
  type PurchaseOrder,
  type Vendor,
  type World,
} from "./world.js";

const goods = (vendor: Vendor): boolean => vendor.category === "inventory" || vendor.category === "packaging";

/** Fills the payables ledger and writes its workspace documents for one scale. */
export function generatePayables(context: GenerateContext): void {
  const { random, faker, factors, referenceDate: today } = context;
  const world: World = { today, random, vendors: [], pos: [], invoices: [], payments: [] };
  world.vendors = createVendors(random, faker, 24 * factors.rows, today);
  const active = world.vendors.filter((vendor) => vendor.status === "active");
  const goodsVendors = active.filter(goods);

  // Contracts (chosen first: their vendors' master terms are set before any invoice copies them).
  const contractVendors = sample(random, goodsVendors, 2 * factors.files + 1);
  const gainsDiscount = contractVendors[0]!;
  const losesDiscount = contractVendors[1]!;
  gainsDiscount.terms = "NET30";
  losesDiscount.terms = "2-10-NET30";
  const contractTerms = new Map<Vendor, string>();
  contractTerms.set(gainsDiscount, "2-10-NET30");
  contractTerms.set(losesDiscount, "NET45");
  for (const vendor of contractVendors.slice(2))
    contractTerms.set(
      vendor,
      random.chance(0.3) ? random.pick(PAYMENT_TERMS.map((terms) => terms.code)) : vendor.terms,
    );

  generateHistory(world, 75 * factors.rows);
  fillPayRuns(world, 3 * factors.files + 1);
  voidAndReissue(world, factors.rows);
  const duplicates = plantDuplicates(world, contractTerms, factors.rows + 1);
  plantMatchCases(world, goodsVendors);
  plantDiscountCases(world, goodsVendors, gainsDiscount, losesDiscount, contractTerms);
  plantApprovalCases(world, active);
  const amendments = plantAmendments(world, contractVendors.slice(2), goodsVendors, factors.files);
  const disputes = plantDisputes(world, goodsVendors, losesDiscount, contractTerms, 2 * factors.files + 1);
  const holds = chooseHolds(world, active, contractTerms, factors.files);
  const remittance = planRemittance(world, 3 * factors.files + 1);

  assignIds(world);
  insertWorld(context.db, world);
  amendments.forEach(
    (amendment, index) => (amendment.contractId = `VC-2024-${String(31 + index * 7).padStart(3, "0")}`),
  );
  const plan: Plan = { contractVendors, contractTerms, amendments, holds, duplicates, remittance, disputes };
  writeDocuments(context, world, plan);
}

function itemLines(random: SeededRandom, vendor: Vendor): PoSpec["lines"] {
  if (!goods(vendor)) return [{ item: random.pick(vendor.catalog), quantity: random.int(1, 3) }];
  return sample(random, vendor.catalog, random.int(1, 4)).map((item) => ({
    item,
    quantity: 5 * random.int(2, 40),
  }));
}

/** The last weekly pay run whose payments have gone out (the Friday on or before three days ago). */
function lastPayRun(world: World): string {
  return lastFridayOnOrBefore(addDays(world.today, -3));
}

/** Pays an invoice in full on a pay run and marks it paid. */
function payInFull(world: World, invoice: Invoice, run: string): void {
  pay(world, invoice, run);
  invoice.status = "paid";
}

/**
 * A purchase order placed 5 to 9 days before `invoiceDate` (for `lines`, else the vendor's usual lines) and
 * received in full, each line `receivedAfter()` days after the order.
 */
function receivedOrder(
  world: World,
  vendor: Vendor,
  invoiceDate: string,
  receivedAfter: () => number,
  lines?: PoSpec["lines"],
): PurchaseOrder {
  const orderedOn = addDays(invoiceDate, -world.random.int(5, 9));
  const po = createPo(world, { vendor, orderedOn, lines: lines ?? itemLines(world.random, vendor) });
  for (const line of po.lines) receive(po, line.lineNo, line.quantity, addDays(orderedOn, receivedAfter()));
  return po;
}

/** Five months of ordinary purchasing: orders, receipts, invoices, approvals and payment runs. */
function generateHistory(world: World, poCount: number): void {
  const { random, today } = world;
  const vendors = world.vendors.filter((vendor) => vendor.status === "active");
  const weights = vendors.map((vendor) => (goods(vendor) ? 3 : 1));
  for (let n = 0; n < poCount; n += 1) {
    const vendor = weightedPick(random, vendors, weights);
    const age = random.int(2, 175);
    const po = createPo(world, { vendor, orderedOn: addDays(today, -age), lines: itemLines(random, vendor) });
    if (age > 10 && random.chance(0.03)) {
      po.status = "cancelled";
      continue;
    }
    if (age < 4) continue;
    receiveOrdinaryOrder(po, age, random, today);
    if (po.receipts.length === 0 || !random.chance(0.93)) continue;
    billOrdinaryOrder(world, po);
  }
  for (const po of world.pos) settlePoStatus(world, po);
}

/** Receipts of an ordinary order `age` days old: most lines in full, some short or none yet, a few in two deliveries. */
function receiveOrdinaryOrder(po: PurchaseOrder, age: number, random: SeededRandom, today: string): void {
  for (const line of po.lines) {
    const roll = random.next();
    const quantity =
      roll < 0.85
        ? line.quantity
        : roll < 0.95
          ? Math.max(1, Math.floor((line.quantity * random.int(50, 95)) / 100))
          : 0;
    const first = addDays(po.orderedOn, random.int(2, Math.min(12, age)));
    if (quantity > 1 && random.chance(0.15) && first < today) {
      const part = Math.floor(quantity / 2);
      receive(po, line.lineNo, part, first);
      receive(po, line.lineNo, quantity - part, earlierDate(addDays(first, random.int(1, 6)), today));
    } else receive(po, line.lineNo, quantity, first);
  }
}

/** The vendor's invoice for what an ordinary order received, then (unless pending or voided) approval and payment. */
function billOrdinaryOrder(world: World, po: PurchaseOrder): void {
  const { random, today } = world;
  const firstReceipt = po.receipts.map((receipt) => receipt.receivedOn).sort()[0]!;
  const invoiceDate = earlierDate(addDays(firstReceipt, random.int(0, 4)), today);
  const enteredOn = earlierDate(addDays(invoiceDate, random.int(0, 3)), today);
  const invoiceAge = daysBetween(invoiceDate, today);
  const pending = invoiceAge <= 12 && random.chance(0.55);
  const invoice = createInvoice(world, {
    po,
    invoiceDate,
    enteredOn,
    lines: billedLines(po, pending, random),
    freight: goods(po.vendor) && random.chance(0.4) ? randomAmount(random, 25, 450) : 0,
    status: pending ? "pending_approval" : "approved",
  });
  if (invoiceAge > 5 && random.chance(0.02)) {
    invoice.status = "void";
    return;
  }
  if (pending) return;
  approveProperly(world, invoice);
  if (random.chance(0.04)) {
    invoice.status = "on_hold";
    invoice.holdReason = random.pick(["price dispute", "damaged goods", "missing proof of delivery"]);
    return;
  }
  const run = plannedPayRun(world, invoice);
  if (run !== null && run <= addDays(today, -3) && random.chance(0.88)) payInFull(world, invoice, run);
  else if (invoiceAge > 20 && random.chance(0.12)) {
    const run = lastPayRun(world);
    if (run >= addDays(invoice.enteredOn, 2))
      pay(world, invoice, run, roundCents((invoiceTotal(invoice) * random.int(40, 70)) / 100));
  }
}

/** What an invoice bills: the received quantities at PO prices; a pending one may bill the ordered quantity or another price. */
function billedLines(
  po: PurchaseOrder,
  pending: boolean,
  random: SeededRandom,
): NonNullable<InvoiceSpec["lines"]> {
  return po.lines
    .map((line) => {
      const received = receivedQuantity(po, line.lineNo);
      let quantity = received;
      let unitPrice = line.unitPrice;
      if (pending) {
        if (received > 0 && received < line.quantity && random.chance(0.5)) quantity = line.quantity;
        const roll = random.next();
        if (roll < 0.12) unitPrice = roundCents(line.unitPrice * (1 + random.int(30, 80) / 1000));
        else if (roll < 0.22) unitPrice = roundCents(line.unitPrice * (1 + random.int(5, 18) / 1000));
        else if (roll < 0.27) unitPrice = roundCents(line.unitPrice * (1 - random.int(10, 50) / 1000));
      }
      return { lineNo: line.lineNo, quantity, unitPrice };
    })
    .filter((line) => line.quantity > 0);
}

function settlePoStatus(world: World, po: PurchaseOrder): void {
  if (po.status === "cancelled") return;
  const fullyReceived = po.lines.every((line) => receivedQuantity(po, line.lineNo) >= line.quantity);
  const paid = world.invoices.some((invoice) => invoice.po === po && invoice.status === "paid");
  po.status = fullyReceived && paid ? "closed" : "open";
}

/** Every exported pay run carries at least three payments, paying approved invoices that were due soon. */
function fillPayRuns(world: World, runs: number): void {
  const { random } = world;
  let run = lastPayRun(world);
  for (let n = 0; n < runs; n += 1, run = addDays(run, -7)) {
    let count = world.payments.filter((payment) => payment.paidOn === run).length;
    const candidates = random.shuffle(
      world.invoices.filter(
        (invoice) =>
          invoice.status === "approved" &&
          invoice.enteredOn <= addDays(run, -2) &&
          !world.payments.some((payment) => payment.invoice === invoice),
      ),
    );
    for (const invoice of candidates) {
      if (count >= 3) break;
      payInFull(world, invoice, run);
      settlePoStatus(world, invoice.po);
      count += 1;
    }
  }
}

/** A few lost checks: the payment is voided and reissued on the same run with a new reference. */
function voidAndReissue(world: World, count: number): void {
  const lastRun = lastPayRun(world);
  const candidates = world.random.shuffle(
    world.payments.filter((payment) => payment.status !== "void" && payment.paidOn <= lastRun),
  );
  for (const payment of candidates.slice(0, count + 1)) reissue(world, payment);
}

/** Voids a payment and pays it again on the same run, same amounts, under a new reference. */
function reissue(world: World, payment: Payment): void {
  payment.status = "void";
  const replacement = pay(world, payment.invoice, payment.paidOn);
  replacement.amount = payment.amount;
  replacement.discountTaken = payment.discountTaken;
}

/** An invoice's billing keyed again: its merchandise lines (PO line, quantity, price) and its freight. */
function billedAgain(invoice: Invoice): { lines: NonNullable<InvoiceSpec["lines"]>; freight: number } {
  return {
    lines: invoice.lines
      .filter((line) => line.type === "merchandise")
      .map((line) => ({ lineNo: line.poLineNo!, quantity: line.quantity, unitPrice: line.unitPrice })),
    freight: invoice.lines.find((line) => line.type === "freight")?.amount ?? 0,
  };
}

/** A copy keyed on `enteredOn` waits for approval while recent, else is approved (and gets its approvals). */
function keyedStatus(enteredOn: string, today: string): "pending_approval" | "approved" {
  return daysBetween(enteredOn, today) <= 12 ? "pending_approval" : "approved";
}

function numberVariant(random: SeededRandom, number: string): string {
  const variants = [
    number.toLowerCase(),
    number.replace(/[-\s]/g, ""),
    number.replace(/(\d+)/, "0$1"),
    number.replace(/^([A-Za-z]+)-?/, "$1 "),
  ].filter(
    (variant) => variant !== number && normaliseInvoiceNumber(variant) === normaliseInvoiceNumber(number),
  );
  return variants.length > 0 ? random.pick(variants) : number.replace(/(\d+)/, "0$1");
}

/**
 * Duplicate invoices (a re-sent invoice keyed again under a variant of its number, or under a new number
 * with the same PO and lines) and the look-alikes the rules do not catch: a corrected invoice (same number,
 * different total), another vendor's invoice with the same number and total, a duplicate already voided.
 */
function plantDuplicates(world: World, contractTerms: Map<Vendor, string>, count: number): Invoice[] {
  const { random, today } = world;
  const originals = random.shuffle(
    world.invoices.filter(
      (invoice) =>
        (invoice.status === "approved" || invoice.status === "paid") &&
        invoice.enteredOn <= addDays(today, -25) &&
        invoice.enteredOn >= addDays(today, -120),
    ),
  );
  // The first duplicate is keyed with its first line split in two: only the number rule catches it.
  const splittable = originals.findIndex((invoice) => invoice.lines.some((line) => line.quantity >= 2));
  if (splittable > 0) originals.unshift(...originals.splice(splittable, 1));
  const duplicates: Invoice[] = [];
  const used = new Set<Invoice>();
  for (const original of originals.slice(0, count)) {
    used.add(original);
    const rekeyed = duplicates.length % 2 === 1;
    const { lines: merchandise } = billedAgain(original);
    const split = merchandise.findIndex((line) => line.quantity >= 2);
    if (!rekeyed && split >= 0) {
      const line = merchandise[split]!;
      const part = Math.floor(line.quantity / 2);
      merchandise.splice(split, 1, { ...line, quantity: part }, { ...line, quantity: line.quantity - part });
    }
    const enteredOn = earlierDate(addDays(original.enteredOn, random.int(3, 20)), today);
    const copy = keyAgain(world, original, {
      invoiceDate: rekeyed ? addDays(original.invoiceDate, random.int(1, 3)) : original.invoiceDate,
      enteredOn,
      lines: merchandise,
      status: keyedStatus(enteredOn, today),
      ...(rekeyed ? {} : { number: numberVariant(random, original.number) }),
    });
    duplicates.push(copy);
  }
  const rest = originals.filter((invoice) => !used.has(invoice));
  // The vendor entered twice in the vendor master (same tax id): the copy's invoice repeats an original. Not a
  // contract vendor: the second record carries only the master terms, so the two would age differently.
  const twice = rest.find(
    (invoice) => !used.has(invoice) && goods(invoice.vendor) && !contractTerms.has(invoice.vendor),
  );
  if (twice) {
    used.add(twice);
    const record: Vendor = {
      ...twice.vendor,
      id: "",
      name: `${twice.vendor.name} - Remit To`,
      email: twice.vendor.email.replace(/^ar@/, "remit@"),
      since: addDays(today, -random.int(20, 60)),
      catalog: [],
    };
    world.vendors.push(record);
    const enteredOn = earlierDate(addDays(twice.enteredOn, random.int(3, 15)), today);
    const copy = keyAgain(world, twice, {
      vendor: record,
      enteredOn,
      status: keyedStatus(enteredOn, today),
      number: numberVariant(random, twice.number),
    });
    duplicates.push(copy);
  }
  plantLookAlikes(world, rest, used);
  return duplicates;
}

/**
 * The invoices the duplicate rules do not catch, keyed from originals not used yet: a corrected invoice,
 * another vendor's invoice with the same number and total, a duplicate already voided.
 */
function plantLookAlikes(world: World, rest: Invoice[], used: Set<Invoice>): void {
  const { random, today } = world;
  // A corrected invoice: the same number re-issued with one unit less on its first line.
  const corrected = rest.find((invoice) => invoice.lines[0]!.quantity > 1);
  if (corrected) {
    used.add(corrected);
    keyAgain(world, corrected, {
      invoiceDate: addDays(corrected.invoiceDate, 2),
      enteredOn: earlierDate(addDays(corrected.enteredOn, 4), today),
      lines: billedAgain(corrected).lines.map((line, index) =>
        index === 0 ? { ...line, quantity: line.quantity - 1 } : line,
      ),
      freight: 0,
      status: "approved",
      number: corrected.number,
    });
  }
  // Another vendor happens to use the same number, for the same amount.
  const collision = rest.find((invoice) => !used.has(invoice));
  const other = world.vendors.find(
    (vendor) => vendor.status === "active" && vendor !== collision?.vendor && goods(vendor),
  );
  if (collision && other) {
    used.add(collision);
    const item = other.catalog[0]!;
    const total = invoiceTotal(collision);
    const orderedOn = addDays(collision.invoiceDate, -6);
    const po = createPo(world, {
      vendor: other,
      orderedOn,
      lines: [{ item, quantity: 1, unitPrice: total }],
    });
    receive(po, 1, 1, addDays(collision.invoiceDate, -2));
    const copy = createInvoice(world, {
      po,
      invoiceDate: collision.invoiceDate,
      enteredOn: earlierDate(addDays(collision.enteredOn, 5), today),
      status: "approved",
      number: collision.number,
    });
    approveProperly(world, copy);
    settlePoStatus(world, po);
  }
  // A duplicate someone already caught and voided.
  const caught = rest.find((invoice) => !used.has(invoice));
  if (caught)
    keyAgain(world, caught, {
      enteredOn: earlierDate(addDays(caught.enteredOn, 6), today),
      status: "void",
      number: numberVariant(random, caught.number),
    });
}

/** Keys `source` again as a new invoice (same PO, date and billing unless `spec` says otherwise), approved if so. */
function keyAgain(
  world: World,
  source: Invoice,
  spec: Omit<InvoiceSpec, "po" | "invoiceDate"> & { invoiceDate?: string },
): Invoice {
  const copy = createInvoice(world, {
    po: source.po,
    invoiceDate: source.invoiceDate,
    ...billedAgain(source),
    ...spec,
  });
  if (copy.status === "approved") approveProperly(world, copy);
  return copy;
}

function roundHalf(value: number): number {
  return Math.max(0.5, Math.round(value * 2) / 2);
}

/** The three-way match edge cases: what the first line's invoiced price is, as a factor of its PO price. */
const MATCH_CASES = {
  "at-tolerance": 1.02,
  "over-tolerance": 1.05,
  "below-po": 0.97,
  "over-receipt": 1,
  "within-tolerance": 1.01,
  clean: 1,
} as const;

/** Pending invoices at the three-way match edges: exactly at the tolerance, over it, below PO, billed above receipt. */
function plantMatchCases(world: World, goodsVendors: Vendor[]): void {
  const { random, today } = world;
  for (const [kind, priceFactor] of Object.entries(MATCH_CASES)) {
    const vendor = random.pick(goodsVendors);
    const items = sample(random, vendor.catalog, 2);
    const orderedOn = addDays(today, -random.int(14, 20));
    const lines = items.map((item) => ({
      item,
      quantity: 10 * random.int(3, 12),
      unitPrice: roundHalf(item.price),
    }));
    const po = createPo(world, { vendor, orderedOn, lines });
    const receivedOn = addDays(orderedOn, random.int(3, 6));
    for (const line of po.lines)
      receive(
        po,
        line.lineNo,
        kind === "over-receipt" && line.lineNo === 1 ? line.quantity - 10 : line.quantity,
        receivedOn,
      );
    const billed = po.lines.map((line) => {
      const repriced = line.lineNo === 1 && priceFactor !== 1;
      const unitPrice = repriced ? roundCents(line.unitPrice * priceFactor) : line.unitPrice;
      return { lineNo: line.lineNo, quantity: line.quantity, unitPrice };
    });
    createInvoice(world, {
      po,
      invoiceDate: addDays(receivedOn, 1),
      enteredOn: addDays(receivedOn, 2),
      lines: billed,
      status: "pending_approval",
    });
    settlePoStatus(world, po);
  }
}

/** Draws a goods vendor whose master terms carry a discount and no contract overrides them (else `fallback`). */
function discountVendorPicker(
  random: SeededRandom,
  goodsVendors: Vendor[],
  contractTerms: Map<Vendor, string>,
  fallback: Vendor,
): () => Vendor {
  const eligible = goodsVendors.filter(
    (vendor) => termsOf(vendor.terms).discountPercent > 0 && !contractTerms.has(vendor),
  );
  return () => (eligible.length > 0 ? random.pick(eligible) : fallback);
}

/** Approved invoices whose discount deadlines fall around this week, and the contract cases. */
function plantDiscountCases(
  world: World,
  goodsVendors: Vendor[],
  gainsDiscount: Vendor,
  losesDiscount: Vendor,
  contractTerms: Map<Vendor, string>,
): void {
  const { random, today } = world;
  const pick = discountVendorPicker(random, goodsVendors, contractTerms, gainsDiscount);
  const plant = (vendor: Vendor, deadlineOffset: number, status: Invoice["status"], terms?: string): void => {
    const discountDays = termsOf(terms ?? vendor.terms).discountDays || 10;
    const invoiceDate = addDays(today, deadlineOffset - discountDays);
    const po = receivedOrder(world, vendor, invoiceDate, () => random.int(2, 4));
    const invoice = createInvoice(world, {
      po,
      invoiceDate,
      enteredOn: earlierDate(addDays(invoiceDate, 1), today),
      freight: randomAmount(random, 40, 300),
      status,
      ...(status === "on_hold" ? { holdReason: "damaged goods" } : {}),
    });
    if (status !== "pending_approval") approveProperly(world, invoice);
    settlePoStatus(world, po);
  };
  plant(pick(), 0, "approved");
  plant(pick(), 6, "approved");
  plant(pick(), 4, "approved");
  plant(pick(), 7, "approved");
  plant(pick(), -1, "approved");
  plant(pick(), 2, "pending_approval");
  plant(pick(), 4, "on_hold");
  plant(gainsDiscount, 2, "approved", "2-10-NET30");
  plant(losesDiscount, 3, "approved");
  // Aging: past due under the vendor master's net 30, still current under the contract's net 45.
  plant(losesDiscount, -30, "approved");
  // Aging: an old invoice paid in part on the last pay run.
  plant(pick(), -45, "approved");
  const partial = world.invoices[world.invoices.length - 1]!;
  pay(world, partial, lastPayRun(world), roundCents(invoiceTotal(partial) * 0.5));
}

/** Second-approval edge cases in the audit quarter (April-June). */
function plantApprovalCases(world: World, active: Vendor[]): void {
  const { random, today } = world;
  const byCategory = (category: Vendor["category"]): Vendor =>
    random.pick(active.filter((vendor) => vendor.category === category));
  const clerk = APPROVERS.find((person) => person.role === "ap_clerk")!;
  const controller = APPROVERS.find((person) => person.role === "controller")!;
  /** An approved invoice for the lines, approved at level 1, 2, ... by `approvers` on the days after entry. */
  const plant = (
    vendor: Vendor,
    lines: Array<{ item: CatalogItem; quantity: number; unitPrice?: number }>,
    approvers: Array<(typeof APPROVERS)[number]>,
  ): void => {
    const invoiceDate = addDays(today, -random.int(25, 80));
    const po = receivedOrder(world, vendor, invoiceDate, () => 3, lines);
    const invoice = createInvoice(world, {
      po,
      invoiceDate,
      enteredOn: addDays(invoiceDate, 1),
      status: "approved",
    });
    invoice.approvals = approvers.map((person, index) => ({
      level: index === 0 ? 1 : 2,
      approver: person.name,
      role: person.role,
      approvedOn: addDays(invoice.enteredOn, index + 1),
    }));
    const run = plannedPayRun(world, invoice);
    if (run !== null && run <= addDays(today, -3) && random.chance(0.5)) payInFull(world, invoice, run);
    settlePoStatus(world, po);
  };
  // A facilities invoice over its (low) threshold with one approval only: missed by a single threshold.
  const facilities = byCategory("facilities");
  plant(
    facilities,
    [{ item: facilities.catalog[0]!, quantity: 2, unitPrice: 3100 + random.int(0, 400) }],
    [clerk],
  );
  // Exactly at the facilities threshold: not over it, so one approval is enough.
  const atThreshold = byCategory("facilities");
  plant(
    atThreshold,
    [{ item: atThreshold.catalog[0]!, quantity: 1, unitPrice: SECOND_APPROVAL_THRESHOLDS.facilities }],
    [clerk],
  );
  const inventoryVendor = byCategory("inventory");
  const big = (target: number): Array<{ item: CatalogItem; quantity: number; unitPrice: number }> => [
    { item: inventoryVendor.catalog[0]!, quantity: 100, unitPrice: roundCents(target / 100) },
  ];
  // The controller approved both levels himself.
  plant(inventoryVendor, big(30_000 + random.int(0, 15_000)), [controller, controller]);
  // A clerk gave the second approval.
  plant(inventoryVendor, big(27_000 + random.int(0, 15_000)), [clerk, APPROVERS[1]!]);
  // Over the CFO threshold with a controller's second approval.
  plant(inventoryVendor, big(55_000 + random.int(0, 20_000)), [clerk, controller]);
}

export interface Amendment {
  vendor: Vendor;
  contractId: string;
  prices: Array<{ item: CatalogItem; newPrice: number }>;
}

/**
 * Price amendments for some contract vendors, with open orders to apply them to: lines not yet received
 * (to reprice), lines partly or fully received (to leave), and another vendor's open order for the same
 * manufacturer part number (to leave).
 */
function plantAmendments(
  world: World,
  candidates: Vendor[],
  goodsVendors: Vendor[],
  count: number,
): Amendment[] {
  const { random, today } = world;
  const amendments: Amendment[] = [];
  for (const vendor of candidates.slice(0, count)) {
    const items = sample(random, vendor.catalog, 3);
    const prices = items.map((item) => ({
      item,
      newPrice: roundCents(item.price * (1 + random.int(3, 9) / 100)),
    }));
    const others = vendor.catalog.filter((item) => !items.includes(item));
    const [a, b, c] = items as [CatalogItem, CatalogItem, CatalogItem];
    /** An open order placed 2 to 9 days ago; each line's `received` quantity arrived the day after. */
    const order = (...lines: Array<{ item: CatalogItem; quantity: number; received: number }>): void => {
      const orderedOn = addDays(today, -random.int(2, 9));
      const po = createPo(world, { vendor, orderedOn, lines });
      po.lines.forEach((line, index) =>
        receive(po, line.lineNo, lines[index]!.received, addDays(orderedOn, 1)),
      );
    };
    const unrevised = others[0] ? [{ item: others[0], quantity: 20, received: 0 }] : [];
    order({ item: a, quantity: 50, received: 0 }, ...unrevised);
    order({ item: b, quantity: 40, received: 10 }, { item: a, quantity: 30, received: 0 });
    order({ item: c, quantity: 25, received: 25 }, { item: b, quantity: 15, received: 0 });
    const other = random.pick(goodsVendors.filter((candidate) => candidate !== vendor));
    const shared: CatalogItem = { sku: a.sku, description: a.description, price: roundCents(a.price * 0.98) };
    other.catalog.push(shared);
    const orderedOn = addDays(today, -random.int(1, 5));
    createPo(world, { vendor: other, orderedOn, lines: [{ item: shared, quantity: 60 }] });
    amendments.push({ vendor, contractId: "", prices });
  }
  return amendments;
}

/**
 * Payments vendors dispute by email (a discount deducted too late): one paid a day after the discount
 * deadline (the vendor is right), one paid on the deadline itself (the discount was allowed), one where the
 * vendor's contract has no discount at all (right), and ordinary discounted payments (allowed).
 */
function plantDisputes(
  world: World,
  goodsVendors: Vendor[],
  losesDiscount: Vendor,
  contractTerms: Map<Vendor, string>,
  count: number,
): Payment[] {
  const { random, today } = world;
  const pick = discountVendorPicker(random, goodsVendors, contractTerms, losesDiscount);
  const disputes: Payment[] = [];
  const plant = (vendor: Vendor, run: string, deadlineOffset: number, forceDiscount: boolean): void => {
    const terms = termsOf(vendor.terms);
    const invoiceDate = addDays(run, deadlineOffset - terms.discountDays);
    const po = receivedOrder(world, vendor, invoiceDate, () => 3);
    const freight = randomAmount(random, 30, 200);
    const invoice = createInvoice(world, {
      po,
      invoiceDate,
      enteredOn: addDays(invoiceDate, 1),
      freight,
      status: "paid",
    });
    approveProperly(world, invoice);
    const payment = pay(world, invoice, run);
    if (forceDiscount && payment.discountTaken === 0) {
      payment.discountTaken = discountAmount(invoiceSubtotal(invoice), terms);
      payment.amount = roundCents(invoiceTotal(invoice) - payment.discountTaken);
    }
    settlePoStatus(world, po);
    disputes.push(payment);
  };
  const run = (weeksBack: number): string => lastFridayOnOrBefore(addDays(today, -38 - 7 * weeksBack));
  plant(pick(), run(0), -1, true);
  plant(pick(), run(1), 0, false);
  plant(losesDiscount, run(2), 4, false);
  const planted = new Set(disputes.map((payment) => payment.invoice));
  const ordinary = random.shuffle(
    world.payments.filter(
      (payment) =>
        payment.discountTaken > 0 &&
        payment.status !== "void" &&
        !planted.has(payment.invoice) &&
        !contractTerms.has(payment.invoice.vendor),
    ),
  );
  for (const payment of ordinary.slice(0, Math.max(0, count - 3))) disputes.push(payment);
  for (let n = disputes.length; n < count; n += 1) plant(pick(), run(3 + n), n % 2 === 0 ? -2 : 1, true);
  return disputes;
}

export interface HoldPlan {
  /** Memo batches: the vendors each hold memo lists, with reasons. */
  batches: Array<Array<{ vendor: Vendor; reason: string }>>;
  /** A vendor held in this month's memos and released by a later memo. */
  released: Vendor;
  /** A vendor held in April and released in May. */
  oldHold: Vendor;
}

const HOLD_REASONS = [
  "bank account change request could not be verified",
  "W-9 on file has expired",
  "open dispute over short shipments",
  "vendor under sanctions screening review",
  "duplicate remittance address on file",
];

/**
 * The vendors Treasury holds. None of them has an approved invoice whose discount deadline (under its
 * governing terms) falls in the coming week (the discount task would otherwise ask to pay a held vendor
 * early), and none has a second record under the same tax id.
 */
function chooseHolds(
  world: World,
  active: Vendor[],
  contractTerms: Map<Vendor, string>,
  files: number,
): HoldPlan {
  const { random, today } = world;
  const discountThisWeek = (vendor: Vendor): boolean =>
    world.invoices.some((invoice) => {
      if (invoice.vendor !== vendor || invoice.status !== "approved") return false;
      const deadline = discountDeadline(
        invoice.invoiceDate,
        termsOf(contractTerms.get(vendor) ?? vendor.terms),
      );
      return deadline !== null && deadline >= today && deadline <= addDays(today, 6);
    });
  // A vendor entered twice in the master (same tax id) is one vendor: holding one record would leave the
  // other's invoices ambiguous, so only vendors with a single record are held.
  const uniqueTaxId = (vendor: Vendor): boolean =>
    world.vendors.filter((other) => other.taxId === vendor.taxId).length === 1;
  const unpaid = (vendor: Vendor, status?: string): number =>
    world.invoices.filter(
      (invoice) =>
        invoice.vendor === vendor &&
        (status
          ? invoice.status === status
          : invoice.status === "pending_approval" || invoice.status === "approved"),
    ).length;
  const candidates = random.shuffle(
    active.filter((vendor) => unpaid(vendor) >= 1 && !discountThisWeek(vendor) && uniqueTaxId(vendor)),
  );
  if (candidates.length < 2 * files + 3)
    throw new Error(`only ${candidates.length} vendors can be put on payment hold, ${2 * files + 3} needed`);
  const withPending = candidates.filter((vendor) => unpaid(vendor, "pending_approval") > 0);
  const first = withPending[0] ?? candidates[0]!;
  const rest = candidates.filter((vendor) => vendor !== first);
  const held = [first, ...rest.slice(0, 2 * files + 1)];
  const released = held[held.length - 1]!;
  const oldHold = rest[2 * files + 1]!;
  // One held vendor also has an invoice already on hold for a dispute (it stays as it is). It is under its
  // second-approval threshold, so taking it out of the approved invoices cannot hide an approval gap.
  const disputed = world.invoices.find(
    (invoice) =>
      invoice.vendor === held[1] &&
      invoice.status === "approved" &&
      invoiceTotal(invoice) < SECOND_APPROVAL_THRESHOLDS[invoice.vendor.category],
  );
  if (disputed) {
    disputed.status = "on_hold";
    disputed.holdReason = "price dispute";
  }
  const batches: HoldPlan["batches"] = Array.from({ length: files }, () => []);
  held.forEach((vendor, index) =>
    batches[index % files]!.push({ vendor, reason: random.pick(HOLD_REASONS) }),
  );
  return { batches, released, oldHold };
}

export interface RemittanceExport {
  run: string;
  lines: Array<{ reference: string; payee: string; amount: number; method: string }>;
}

/**
 * The bank's remittance export of each recent pay run: what the bank sent, which mostly agrees with the
 * ledger. Each run gets one planted discrepancy in turn (and later runs sometimes a second): an amount the
 * bank sent differently, a bank line the ledger does not know, a ledger payment the bank never sent, and a
 * payment the ledger voided (a lost check reissued) that the bank paid anyway.
 */
function planRemittance(world: World, runs: number): RemittanceExport[] {
  const { random } = world;
  const lastRun = lastPayRun(world);
  const exports: RemittanceExport[] = [];
  const kinds = ["amount", "unknown", "missing", "voided"] as const;
  for (let n = 0; n < runs; n += 1) {
    const run = addDays(lastRun, -7 * n);
    const planned = [kinds[n % 4]!, ...(n >= 4 && random.chance(0.5) ? [random.pick(kinds)] : [])];
    if (planned.includes("voided")) {
      const targets = world.payments.filter((payment) => payment.paidOn === run && payment.status !== "void");
      if (targets.length > 0) reissue(world, random.pick(targets));
    }
    const sent = world.payments.filter(
      (payment) => payment.paidOn === run && (payment.status !== "void" || planned.includes("voided")),
    );
    let lines = sent.map((payment) => ({
      reference: payment.reference,
      payee: payment.invoice.vendor.name,
      amount: payment.amount,
      method: payment.method,
    }));
    const live = (): typeof lines =>
      lines.filter(
        (item) => !sent.some((payment) => payment.reference === item.reference && payment.status === "void"),
      );
    if (planned.includes("amount") && live().length > 0) {
      const line = random.pick(live());
      line.amount = roundCents(
        line.amount + (random.chance(0.5) ? 1 : -1) * random.int(1, 90) * (random.chance(0.5) ? 1 : 0.1),
      );
    }
    if (planned.includes("missing") && live().length > 1) {
      const dropped = random.pick(live());
      lines = lines.filter((item) => item !== dropped);
    }
    if (planned.includes("unknown"))
      lines.push({
        reference: `ACH${random.int(100_000_000, 999_999_999)}`,
        payee: random.pick(world.vendors).name,
        amount: randomAmount(random, 300, 9000),
        method: "ach",
      });
    lines.sort((a, b) => a.reference.localeCompare(b.reference));
    exports.push({ run, lines });
  }
  return exports;
}

function assignIds(world: World): void {
  world.vendors.forEach((vendor, index) => (vendor.id = vendorId.format(index + 1)));
  const pos = world.pos
    .map((po, index) => ({ po, index }))
    .sort((a, b) => a.po.orderedOn.localeCompare(b.po.orderedOn) || a.index - b.index);
  pos.forEach(({ po }, index) => (po.id = poId.format(index + 1)));
  const receipts = world.pos
    .flatMap((po) => po.receipts)
    .sort(
      (a, b) =>
        a.receivedOn.localeCompare(b.receivedOn) || a.po.id.localeCompare(b.po.id) || a.lineNo - b.lineNo,
    );
  receipts.forEach((receipt, index) => (receipt.id = receiptId.format(index + 1)));
  [...world.invoices]
    .sort((a, b) => a.enteredOn.localeCompare(b.enteredOn) || a.serial - b.serial)
    .forEach((invoice, index) => (invoice.id = invoiceId.format(index + 1)));
  world.payments
    .map((payment, index) => ({ payment, index }))
    .sort((a, b) => a.payment.paidOn.localeCompare(b.payment.paidOn) || a.index - b.index)
    .forEach(({ payment }, index) => (payment.id = paymentId.format(index + 1)));
}

/** Writes the world into the ledger tables, every table in id order. */
function insertWorld(db: Database.Database, world: World): void {
  const byId = <Row extends { id: string }>(rows: readonly Row[]): Row[] =>
    [...rows].sort((a, b) => a.id.localeCompare(b.id));
  const pos = byId(world.pos);
  const invoices = byId(world.invoices);
  insertDrafts(
    db,
    "payment_terms",
    "terms_code, description, discount_percent, discount_days, net_days",
    PAYMENT_TERMS,
    (terms) => ({ terms_code: terms.code }),
  );
  insertDrafts(
    db,
    "vendors",
    "vendor_id, name, category, terms_code, status, remit_email, tax_id, since",
    world.vendors,
    (vendor) => ({ vendor_id: vendor.id, terms_code: vendor.terms, remit_email: vendor.email }),
  );
  insertDrafts(
    db,
    "purchase_orders",
    "po_id, vendor_id, ordered_on, buyer, warehouse, status",
    pos,
    (po) => ({ po_id: po.id, vendor_id: po.vendor.id }),
  );
  insertDrafts(
    db,
    "po_lines",
    "po_id, line_no, sku, description, quantity, unit_price",
    pos.flatMap((po) => po.lines.map((line) => ({ ...line, poId: po.id }))),
  );
  insertDrafts(
    db,
    "receipts",
    "receipt_id, po_id, line_no, received_on, quantity_received",
    byId(pos.flatMap((po) => po.receipts)),
    (receipt) => ({ receipt_id: receipt.id, po_id: receipt.po.id, quantity_received: receipt.quantity }),
  );
  insertDrafts(
    db,
    "invoices",
    "invoice_id, vendor_id, vendor_invoice_no, po_id, invoice_date, entered_on, terms_code, subtotal, freight, total, status, hold_reason",
    invoices,
    (invoice) => ({
      invoice_id: invoice.id,
      vendor_id: invoice.vendor.id,
      vendor_invoice_no: invoice.number,
      po_id: invoice.po.id,
      terms_code: invoice.terms,
      subtotal: invoiceSubtotal(invoice),
      freight: roundCents(invoiceTotal(invoice) - invoiceSubtotal(invoice)),
      total: invoiceTotal(invoice),
    }),
  );
  insertDrafts(
    db,
    "invoice_lines",
    "invoice_id, line_no, line_type, po_line_no, sku, quantity, unit_price, amount",
    invoices.flatMap((invoice) =>
      invoice.lines.map((line) => ({ ...line, invoiceId: invoice.id, lineType: line.type })),
    ),
  );
  insertDrafts(
    db,
    "invoice_approvals",
    "invoice_id, level, approver, role, approved_on",
    invoices.flatMap((invoice) =>
      invoice.approvals.map((approval) => ({ ...approval, invoiceId: invoice.id })),
    ),
  );
  insertDrafts(
    db,
    "payments",
    "payment_id, invoice_id, vendor_id, paid_on, amount, discount_taken, method, reference, status",
    byId(world.payments),
    (payment) => ({
      payment_id: payment.id,
      invoice_id: payment.invoice.id,
      vendor_id: payment.invoice.vendor.id,
    }),
  );
}
