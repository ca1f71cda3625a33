import type { Faker } from "@faker-js/faker";
import type { SeededRandom } from "../../core/index.js";
import {
  addDays,
  daysBetween,
  earlierDate,
  randomAmount,
  roundCents,
  slug,
  sumCents,
  weekdayIndex,
  weightedPick,
} from "../../envs/index.js";
import {
  APPROVERS,
  CFO_THRESHOLD,
  PAYMENT_TERMS,
  SECOND_APPROVAL_THRESHOLDS,
  VENDOR_CATEGORIES,
  discountAmount,
  discountDeadline,
  dueDate,
  termsOf,
  type VendorCategory,
} from "./rules.js";

/**
 * The payables world built in memory before it is written: vendors with catalogs, purchase orders with
 * receipts, invoices with lines, approvals and payments. Objects refer to each other directly; ids are
 * assigned once everything (including the planted cases) exists, in date order, so planted rows do not
 * stand out by their numbers.
 */

export interface CatalogItem {
  sku: string;
  description: string;
  price: number;
}

export interface Vendor {
  id: string;
  name: string;
  category: VendorCategory;
  terms: string;
  status: "active" | "inactive";
  email: string;
  taxId: string;
  since: string;
  numberStyle: number;
  nextNumber: number;
  prefix: string;
  catalog: CatalogItem[];
}

export interface PoLine {
  lineNo: number;
  sku: string;
  description: string;
  quantity: number;
  unitPrice: number;
}

export interface Receipt {
  id: string;
  po: PurchaseOrder;
  lineNo: number;
  receivedOn: string;
  quantity: number;
}

export interface PurchaseOrder {
  id: string;
  vendor: Vendor;
  orderedOn: string;
  buyer: string;
  warehouse: string;
  status: "open" | "closed" | "cancelled";
  lines: PoLine[];
  receipts: Receipt[];
}

export interface InvoiceLine {
  lineNo: number;
  type: "merchandise" | "freight";
  poLineNo: number | null;
  sku: string | null;
  quantity: number;
  unitPrice: number;
  amount: number;
}

export type InvoiceStatus = "pending_approval" | "approved" | "on_hold" | "paid" | "void";

export interface Approval {
  level: 1 | 2;
  approver: string;
  role: "ap_clerk" | "controller" | "cfo";
  approvedOn: string;
}

export interface Invoice {
  id: string;
  /** Creation order, the tie-break of the id order. */
  serial: number;
  vendor: Vendor;
  number: string;
  po: PurchaseOrder;
  invoiceDate: string;
  enteredOn: string;
  terms: string;
  lines: InvoiceLine[];
  status: InvoiceStatus;
  holdReason: string | null;
  approvals: Approval[];
}

export interface Payment {
  id: string;
  invoice: Invoice;
  paidOn: string;
  amount: number;
  discountTaken: number;
  method: "ach" | "check" | "wire";
  reference: string;
  status: "issued" | "cleared" | "void";
}

export interface World {
  today: string;
  random: SeededRandom;
  vendors: Vendor[];
  pos: PurchaseOrder[];
  invoices: Invoice[];
  payments: Payment[];
}

export const WAREHOUSES = ["DAL-1", "ATL-2", "CHI-1", "PHX-3"];
const BUYERS = ["Rosa Delgado", "Kevin Osei", "Amy Lindqvist", "Marcus Hale"];
const CLERKS = APPROVERS.filter((person) => person.role === "ap_clerk");
const CONTROLLERS = APPROVERS.filter((person) => person.role === "controller");
const CFO = APPROVERS.find((person) => person.role === "cfo")!;

const PRODUCT_WORDS: Record<VendorCategory, string[]> = {
  inventory: [
    "Hex bolt M10 box",
    "Nitrile gloves case",
    "LED shop light",
    "Copper fitting 3/4in",
    "Cordless drill kit",
    "Safety glasses 12pk",
    "Extension cord 50ft",
    "Shop towels bale",
    "Pipe wrench 18in",
    "Circuit breaker 20A",
    "PVC elbow 2in",
    "Wire nut assortment",
    "Utility knife blades",
    "Ratchet strap set",
    "Paint roller kit",
  ],
  packaging: [
    "Corrugated box 18x12",
    "Stretch film roll",
    "Packing tape case",
    "Bubble wrap roll",
    "Pallet wrap 80ga",
    "Void fill paper",
    "Poly mailer 10x13",
    "Edge protector",
  ],
  freight: ["LTL linehaul", "Fuel surcharge", "Detention", "Liftgate service"],
  facilities: ["Janitorial service", "HVAC maintenance", "Forklift repair", "Dock door service"],
  it_services: ["Managed network service", "Help desk block", "WMS license", "Backup service"],
};

/** The weekly pay run (Friday) on or before a date. */
export function lastFridayOnOrBefore(date: string): string {
  return addDays(date, -((weekdayIndex(date) + 3) % 7));
}

/** How vendors number their invoices, by `Vendor.numberStyle`. */
const INVOICE_NUMBER_STYLES: ReadonlyArray<(vendor: Vendor, n: number) => string> = [
  (_vendor, n) => `INV-${n}`,
  (_vendor, n) => String(n),
  (vendor, n) => `${vendor.prefix}${n}`,
  (_vendor, n) => `25-${String(n % 10_000).padStart(4, "0")}`,
];

/** A vendor's catalog: some of its category's products, under SKUs unique across vendors, with list prices. */
function createCatalog(random: SeededRandom, category: VendorCategory, skus: Set<string>): CatalogItem[] {
  const goods = category === "inventory" || category === "packaging";
  const descriptions = random.shuffle(PRODUCT_WORDS[category]).slice(0, goods ? random.int(5, 8) : 2);
  return descriptions.map((description) => {
    const stem = description
      .slice(0, 3)
      .toUpperCase()
      .replace(/[^A-Z]/g, "X");
    let sku = `${stem}-${random.int(1000, 9999)}`;
    while (skus.has(sku)) sku = `${stem}-${random.int(1000, 9999)}`;
    skus.add(sku);
    return {
      sku,
      description,
      price: goods ? randomAmount(random, 2, 380) : randomAmount(random, 400, 4500),
    };
  });
}

export function createVendors(random: SeededRandom, faker: Faker, count: number, today: string): Vendor[] {
  const names = new Set<string>();
  const skus = new Set<string>();
  const vendors: Vendor[] = [];
  for (let n = 1; n <= count; n += 1) {
    let name = faker.company.name();
    while (names.has(name)) name = faker.company.name();
    names.add(name);
    const category =
      n <= 4
        ? (["inventory", "packaging", "freight", "facilities"] as const)[n - 1]!
        : weightedPick(random, VENDOR_CATEGORIES, [0.55, 0.15, 0.1, 0.1, 0.1]);
    const terms = weightedPick(
      random,
      PAYMENT_TERMS.map((item) => item.code),
      [0.3, 0.15, 0.1, 0.25, 0.1, 0.1],
    );
    const catalog = createCatalog(random, category, skus);
    vendors.push({
      id: "",
      name,
      category,
      terms,
      status: random.chance(0.05) && n > 6 ? "inactive" : "active",
      email: `ar@${slug(name).slice(0, 18)}.example.com`,
      taxId: `${random.int(10, 99)}-${random.int(1_000_000, 9_999_999)}`,
      since: addDays(today, -random.int(400, 3000)),
      numberStyle: random.int(0, 3),
      nextNumber: random.int(10_000, 90_000),
      prefix: `${String.fromCharCode(65 + random.int(0, 25))}${String.fromCharCode(65 + random.int(0, 25))}`,
      catalog,
    });
  }
  return vendors;
}

export interface PoSpec {
  vendor: Vendor;
  orderedOn: string;
  lines: Array<{ item: CatalogItem; quantity: number; unitPrice?: number }>;
}

export function createPo(world: World, spec: PoSpec): PurchaseOrder {
  const { random } = world;
  const po: PurchaseOrder = {
    id: "",
    vendor: spec.vendor,
    orderedOn: spec.orderedOn,
    buyer: random.pick(BUYERS),
    warehouse: random.pick(WAREHOUSES),
    status: "open",
    lines: spec.lines.map((line, index) => ({
      lineNo: index + 1,
      sku: line.item.sku,
      description: line.item.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice ?? line.item.price,
    })),
    receipts: [],
  };
  world.pos.push(po);
  return po;
}

export function receive(po: PurchaseOrder, lineNo: number, quantity: number, receivedOn: string): void {
  if (quantity > 0) po.receipts.push({ id: "", po, lineNo, receivedOn, quantity });
}

export function receivedQuantity(po: PurchaseOrder, lineNo: number): number {
  return po.receipts.filter((receipt) => receipt.lineNo === lineNo).reduce((sum, r) => sum + r.quantity, 0);
}

export function invoiceSubtotal(invoice: Invoice): number {
  return sumCents(invoice.lines.filter((line) => line.type === "merchandise").map((line) => line.amount));
}
export function invoiceTotal(invoice: Invoice): number {
  return sumCents(invoice.lines.map((line) => line.amount));
}

let serialCounter = 0;

export interface InvoiceSpec {
  po: PurchaseOrder;
  invoiceDate: string;
  enteredOn?: string;
  /** Per PO line: quantity and unit price billed (default: received quantity at the PO price). */
  lines?: Array<{ lineNo: number; quantity: number; unitPrice: number }>;
  freight?: number;
  status: InvoiceStatus;
  /** The vendor record the invoice is entered under (default: the PO's vendor). */
  vendor?: Vendor;
  number?: string;
  holdReason?: string | null;
}

export function createInvoice(world: World, spec: InvoiceSpec): Invoice {
  const { po } = spec;
  const vendor = spec.vendor ?? po.vendor;
  const billed =
    spec.lines ??
    po.lines
      .map((line) => ({
        lineNo: line.lineNo,
        quantity: receivedQuantity(po, line.lineNo),
        unitPrice: line.unitPrice,
      }))
      .filter((line) => line.quantity > 0);
  const lines: InvoiceLine[] = billed.map((line, index) => {
    const poLine = po.lines.find((candidate) => candidate.lineNo === line.lineNo)!;
    return {
      lineNo: index + 1,
      type: "merchandise",
      poLineNo: line.lineNo,
      sku: poLine.sku,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      amount: roundCents(line.quantity * line.unitPrice),
    };
  });
  if (spec.freight && spec.freight > 0)
    lines.push({
      lineNo: lines.length + 1,
      type: "freight",
      poLineNo: null,
      sku: null,
      quantity: 1,
      unitPrice: spec.freight,
      amount: spec.freight,
    });
  let number = spec.number;
  if (number === undefined) {
    vendor.nextNumber += world.random.int(1, 40);
    number = INVOICE_NUMBER_STYLES[vendor.numberStyle]!(vendor, vendor.nextNumber);
  }
  const invoice: Invoice = {
    id: "",
    serial: (serialCounter += 1),
    vendor,
    number,
    po,
    invoiceDate: spec.invoiceDate,
    enteredOn: spec.enteredOn ?? spec.invoiceDate,
    terms: vendor.terms,
    lines,
    status: spec.status,
    holdReason: spec.holdReason ?? null,
    approvals: [],
  };
  world.invoices.push(invoice);
  return invoice;
}

/** Level-1 approval, and level 2 when the policy needs it (done right). */
export function approveProperly(world: World, invoice: Invoice): void {
  const { random, today } = world;
  const first = random.chance(0.85) ? random.pick(CLERKS) : random.pick(CONTROLLERS);
  const firstOn = earlierDate(addDays(invoice.enteredOn, random.int(0, 2)), today);
  invoice.approvals = [{ level: 1, approver: first.name, role: first.role, approvedOn: firstOn }];
  const total = invoiceTotal(invoice);
  const needsSecond = total > SECOND_APPROVAL_THRESHOLDS[invoice.vendor.category];
  if (needsSecond || random.chance(0.15)) {
    const second =
      total > CFO_THRESHOLD
        ? CFO
        : random.chance(0.8)
          ? CONTROLLERS.find((person) => person.name !== first.name)!
          : CFO;
    invoice.approvals.push({
      level: 2,
      approver: second.name,
      role: second.role,
      approvedOn: earlierDate(addDays(firstOn, random.int(0, 3)), today),
    });
  }
}

/** Pays an invoice in full on a payment run (taking the discount when paid by the deadline). */
export function pay(world: World, invoice: Invoice, paidOn: string, amount?: number): Payment {
  const { random } = world;
  const terms = termsOf(invoice.terms);
  const deadline = discountDeadline(invoice.invoiceDate, terms);
  const full = amount === undefined;
  const discount =
    full && deadline !== null && paidOn <= deadline ? discountAmount(invoiceSubtotal(invoice), terms) : 0;
  const method = weightedPick(random, ["ach", "check", "wire"] as const, [0.7, 0.25, 0.05]);
  const reference =
    method === "ach"
      ? `ACH${random.int(100_000_000, 999_999_999)}`
      : method === "check"
        ? `CHK${random.int(100_000, 999_999)}`
        : `WIRE${random.int(10_000_000, 99_999_999)}`;
  const payment: Payment = {
    id: "",
    invoice,
    paidOn,
    amount: full ? roundCents(invoiceTotal(invoice) - discount) : amount,
    discountTaken: discount,
    method,
    reference,
    status: daysBetween(paidOn, world.today) >= (method === "check" ? 7 : 2) ? "cleared" : "issued",
  };
  world.payments.push(payment);
  return payment;
}

/** The pay run an invoice would normally be paid on: by the discount deadline when taken, else by the due date. */
export function plannedPayRun(world: World, invoice: Invoice): string | null {
  const { random } = world;
  const terms = termsOf(invoice.terms);
  const deadline = discountDeadline(invoice.invoiceDate, terms);
  const earliest = addDays(invoice.enteredOn, 2);
  const target =
    deadline !== null && random.chance(0.6) && lastFridayOnOrBefore(deadline) >= earliest
      ? deadline
      : dueDate(invoice.invoiceDate, terms);
  const run = lastFridayOnOrBefore(target);
  return run >= earliest ? run : null;
}
