import type { SeededRandom } from "../../core/index.js";
import type { GenerateContext } from "../../envs/index.js";
import { addDays, between, roundCents, sumCents } from "../../envs/index.js";
import { renderBillOfLading, renderCertificate, renderInvoice, renderPackingList } from "./documents.js";
import { writeCustomsMemos } from "./memos.js";
import {
  COUNTRIES,
  PROGRAMS,
  RATES,
  TARIFF,
  documentId,
  entryId,
  holdId,
  importerId,
  shipmentId,
  tariffSpec,
} from "./rules.js";
import type { Country, DocType, TariffSpec } from "./rules.js";

export interface LineDraft {
  no: number;
  hs: string;
  goods: string;
  qty: number;
  unitPrice: number;
  amount: number;
  unitKg: number;
  packages: number;
  packageKind: string;
}

export interface ShipmentDraft {
  id: string;
  importerId: string;
  importerName: string;
  origin: string;
  currency: string;
  mode: "ocean" | "air" | "truck";
  port: string;
  arrival: string;
  status: "arrived" | "entered" | "released";
  lines: LineDraft[];
  total: number;
  declared: number;
  claimed: string | null;
  /** The program the certificate of origin names, or null when there is none. */
  certificate: string | null;
  hasPacking: boolean;
  packedQty: number[];
  seller: string;
  sellerAddress: string;
  producer: string;
  signatory: string;
  loadingPort: string;
  carrier: string;
  container: string;
  invoiceNo: string;
  invoiceDate: string;
  billNo: string;
  shippedOn: string;
  scannedOn: string;
}

/** What a planted shipment fixes (certificate program, line count, declared = total x factor + offset); the rest is drawn. */
interface Plant {
  origin?: string;
  status?: ShipmentDraft["status"];
  mode?: ShipmentDraft["mode"];
  claimed?: string | null;
  cert?: string | null;
  lines?: Array<[string, number, number]>;
  factor?: number;
  offset?: number;
  mismatch?: number;
  count?: number;
  hold?: { type: "documents" | "exam"; waitsFor?: DocType; receivedLate?: boolean };
  generalRate?: boolean;
}

const EXAM = { type: "exam" } as const;
const AWAIT_CO = { type: "documents", waitsFor: "certificate_of_origin" } as const;

const PORTS =
  "USLAX Los Angeles, USLGB Long Beach, USNYC New York, USSAV Savannah, USORD Chicago, USLRD Laredo".split(
    ", ",
  );
const LOADING =
  "Shanghai, Ningbo, Hai Phong, Hamburg, Genoa, Manzanillo, Busan, Melbourne, Yokohama, Felixstowe".split(
    ", ",
  );
const PACKAGE_KINDS = ["CTN", "PLT", "BOX"];

/**
 * Shipments the tasks' near-misses depend on, present at every scale and seed: the de-minimis threshold
 * exactly, a value under it only before conversion, an excluded chapter, a held small parcel, a multi-page
 * invoice with a preference and a page-two quantity mismatch, a certificate for the wrong program, a
 * missing certificate, a certificate received after its hold, a fee-band boundary, an unclaimed preference
 * on a filed entry, a rounding difference, a discrepancy on an entered shipment, a held preference shipment.
 */
const KOREAN_PARTS: Plant["lines"] = [
  ["8708.30.5090", 300, 48000],
  ["6204.62.4011", 120, 21000],
];
const PLANTS: Plant[] = [
  { origin: "VN", status: "arrived", lines: [["9503.00.0073", 100, 8]] },
  {
    origin: "DE",
    status: "arrived",
    lines: [
      ["7323.93.0080", 20, 23],
      ["3924.10.4000", 40, 7.5],
    ],
  },
  {
    origin: "CN",
    status: "arrived",
    lines: [
      ["6403.99.9065", 3, 620],
      ["3924.10.4000", 10, 21],
    ],
  },
  { origin: "VN", status: "arrived", lines: [["8517.62.0090", 3, 150]], hold: EXAM },
  { origin: "MX", status: "arrived", claimed: "USMCA", cert: "USMCA", count: 14, mismatch: 14 },
  { origin: "KR", status: "arrived", claimed: "KORUS", cert: "USMCA", count: 4, hold: AWAIT_CO },
  { origin: "KR", status: "arrived", claimed: "KORUS", cert: "USMCA", count: 2, factor: 0.9 },
  { origin: "MX", status: "arrived", claimed: "USMCA", cert: null, count: 2, hold: EXAM },
  {
    origin: "AU",
    status: "arrived",
    claimed: "AUFTA",
    cert: "AUFTA",
    count: 3,
    hold: { ...AWAIT_CO, receivedLate: true },
  },
  { origin: "VN", status: "entered", mode: "ocean", lines: [["9403.60.8081", 400, 25]] },
  {
    origin: "KR",
    status: "entered",
    claimed: "KORUS",
    cert: "KORUS",
    lines: KOREAN_PARTS,
    generalRate: true,
  },
  { origin: "IT", status: "arrived", count: 14, offset: -0.4 },
  { origin: "CN", status: "entered", count: 14, factor: 0.8 },
  { origin: "MX", status: "arrived", claimed: "USMCA", cert: "USMCA", count: 3, hold: EXAM },
];

function pickTariff(random: SeededRandom, program: string | null): TariffSpec {
  const preferred = program ? TARIFF.filter((spec) => spec.special[program] !== undefined) : [];
  return preferred.length > 0 && random.chance(0.75) ? random.pick(preferred) : random.pick(TARIFF);
}

function localPrice(usd: number, currency: string): number {
  const price = usd / RATES[currency]!;
  return currency === "KRW" || currency === "JPY" ? Math.round(price) : roundCents(price);
}

function drawLines(
  random: SeededRandom,
  plant: Plant,
  program: string | null,
  small: boolean,
  currency: string,
): LineDraft[] {
  const specs: Array<[string, number, number]> =
    plant.lines ??
    Array.from(
      {
        length:
          plant.count ??
          (small ? random.int(1, 2) : random.chance(0.15) ? random.int(7, 11) : random.int(1, 5)),
      },
      () => {
        const spec = pickTariff(random, program);
        const usd = small ? between(random, 4, 60) : between(random, 6, 420);
        return [spec.hs, small ? random.int(1, 6) : random.int(10, 400), localPrice(usd, currency)];
      },
    );
  return specs.map(([hs, qty, unitPrice], index) => {
    const spec = tariffSpec(hs);
    return {
      no: index + 1,
      hs,
      goods: random.pick(spec.goods),
      qty,
      unitPrice,
      amount: roundCents(qty * unitPrice),
      unitKg: between(random, 2, 400) / 10,
      packages: Math.max(1, Math.ceil(qty / random.int(4, 40))),
      packageKind: random.pick(PACKAGE_KINDS),
    };
  });
}

function drawShipment(
  context: GenerateContext,
  n: number,
  plant: Plant,
  importers: Array<{ id: string; name: string }>,
): ShipmentDraft {
  const { random, faker, referenceDate } = context;
  const origin: Country =
    COUNTRIES.find((country) => country.code === plant.origin) ?? random.pick(COUNTRIES);
  const status =
    plant.status ?? (random.chance(0.3) ? "arrived" : random.chance(0.55) ? "entered" : "released");
  const claimed =
    plant.claimed !== undefined
      ? plant.claimed
      : origin.program && random.chance(0.8)
        ? origin.program
        : null;
  const small = plant.lines === undefined && plant.count === undefined && random.chance(0.16);
  const lines = drawLines(random, plant, claimed, small, origin.currency);
  const total = sumCents(lines.map((line) => line.amount));
  const roll = random.next();
  const drawnLines = plant.lines === undefined && plant.count === undefined;
  const declared =
    plant.factor !== undefined
      ? roundCents(total * plant.factor)
      : plant.offset !== undefined
        ? roundCents(total + plant.offset)
        : drawnLines && roll < 0.14
          ? roundCents((total * between(random, 70, 95)) / 100)
          : drawnLines && roll < 0.2
            ? roundCents(total + random.pick([-0.6, -0.3, 0.2, 0.5]))
            : total;
  const others = Object.keys(PROGRAMS).filter((program) => program !== claimed);
  const certificateRoll = random.next();
  const certificate =
    plant.cert !== undefined
      ? plant.cert
      : !claimed
        ? null
        : certificateRoll < 0.7
          ? claimed
          : certificateRoll < 0.8
            ? random.pick(others)
            : null;
  const mismatch = plant.mismatch ?? (random.chance(0.15) ? random.int(1, lines.length) : 0);
  const arrival =
    status === "arrived"
      ? addDays(referenceDate, -random.int(0, 12))
      : addDays(referenceDate, -random.int(16, 85));
  const importer = random.pick(importers);
  return {
    id: shipmentId.format(n),
    importerId: importer.id,
    importerName: importer.name,
    origin: origin.code,
    currency: origin.currency,
    mode:
      plant.mode ??
      (origin.code === "MX" || origin.code === "CA" ? "truck" : random.chance(0.7) ? "ocean" : "air"),
    port: random.pick(PORTS),
    arrival,
    status,
    lines,
    total,
    declared,
    claimed,
    certificate,
    hasPacking: plant.mismatch !== undefined || plant.lines !== undefined || random.chance(0.92),
    packedQty: lines.map((line) =>
      line.no === mismatch
        ? line.qty + random.pick([-1, 1]) * random.int(1, Math.max(1, Math.min(12, line.qty - 1)))
        : line.qty,
    ),
    seller: `${faker.person.lastName()} ${random.pick(["Industrial", "Trading", "Manufacturing", "Export"])} ${random.pick(["Co., Ltd.", "GmbH", "S.A. de C.V.", "Pty Ltd", "Corp.", "S.r.l."])}`,
    sellerAddress: `${faker.location.streetAddress()}, ${faker.location.city()}`,
    producer: faker.company.name(),
    signatory: faker.person.fullName(),
    loadingPort: random.pick(LOADING),
    carrier: `${faker.word.adjective().toUpperCase()} ${random.pick(["STAR", "BRIDGE", "EXPRESS", "HORIZON"])} V.${random.int(10, 99)}${random.pick(["E", "W", "N"])}`,
    container: `${random.pick(["MSCU", "MAEU", "CMAU", "HLXU", "TRKU"])}${random.int(1000000, 9999999)}`,
    invoiceNo: `CI-${random.int(10000, 99999)}`,
    invoiceDate: addDays(arrival, -random.int(12, 40)),
    billNo: `${random.pick(["MEDU", "COSU", "HLCU", "AWB"])}${random.int(10000000, 99999999)}`,
    shippedOn: addDays(arrival, -random.int(5, 30)),
    scannedOn: addDays(arrival, random.int(0, 1) - 1),
  };
}

/** The preference program a shipment's lines get under the duty memo's rules, or null. */
function appliedProgram(shipment: ShipmentDraft): string | null {
  const { claimed, certificate, origin } = shipment;
  if (!claimed || certificate !== claimed || !PROGRAMS[claimed]?.includes(origin)) return null;
  const special = shipment.lines.some((line) => tariffSpec(line.hs).special[claimed] !== undefined);
  return special ? claimed : null;
}

function dutyOf(shipment: ShipmentDraft, program: string | null): { value: number; duty: number } {
  const rate = RATES[shipment.currency]!;
  let value = 0;
  let duty = 0;
  for (const line of shipment.lines) {
    const spec = tariffSpec(line.hs);
    const usd = roundCents(line.amount * rate);
    const pct = program && spec.special[program] !== undefined ? spec.special[program] : spec.general;
    value += usd;
    duty += roundCents((usd * pct) / 100);
  }
  return { value: roundCents(value), duty: roundCents(duty) };
}

class Inserter {
  private docs = 0;
  private holds = 0;
  private entries = 0;
  constructor(private readonly context: GenerateContext) {}

  private row(table: string, values: unknown[]): void {
    const marks = values.map(() => "?").join(", ");
    this.context.db.prepare(`INSERT INTO ${table} VALUES (${marks})`).run(...values);
  }

  document(shipment: ShipmentDraft, type: DocType, pages: string[], receivedOn: string): void {
    this.docs += 1;
    const id = documentId.format(this.docs * 7 + 100);
    this.row("documents", [id, shipment.id, type, pages.length, receivedOn]);
    pages.forEach((text, index) => this.row("document_pages", [id, index + 1, text]));
  }

  hold(shipment: string, type: string, reason: string, placedOn: string, releasedOn?: string): void {
    this.holds += 1;
    const note = releasedOn ? "Released by CBP" : null;
    this.row("holds", [
      holdId.format(this.holds),
      shipment,
      type,
      reason,
      placedOn,
      releasedOn ?? null,
      note,
    ]);
  }

  entry(shipment: ShipmentDraft, filedOn: string, generalRate: boolean): void {
    this.entries += 1;
    const program = generalRate ? null : appliedProgram(shipment);
    const { value, duty } = dutyOf(shipment, program);
    const status = shipment.status === "released" ? "liquidated" : "filed";
    const id = entryId.format(this.entries + 4100);
    this.row("entries", [
      id,
      shipment.id,
      shipment.importerId,
      filedOn,
      value,
      duty,
      program,
      shipment.lines.length,
      status,
    ]);
  }
}

const WAITS_FOR: Partial<Record<DocType, string>> = {
  certificate_of_origin: "certificate of origin",
  packing_list: "packing list",
};

function storeShipment(
  context: GenerateContext,
  insert: Inserter,
  shipment: ShipmentDraft,
  plant: Plant,
): void {
  const { db, random, referenceDate } = context;
  db.prepare("INSERT INTO shipments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)").run(
    shipment.id,
    shipment.importerId,
    shipment.origin,
    shipment.mode,
    shipment.port.slice(0, 5),
    shipment.arrival,
    shipment.currency,
    shipment.declared,
    shipment.claimed,
    shipment.status,
  );
  const before = addDays(shipment.arrival, -random.int(1, 6));
  insert.document(shipment, "commercial_invoice", renderInvoice(random, shipment), before);
  insert.document(shipment, "bill_of_lading", renderBillOfLading(random, shipment), before);
  let hold = plant.hold;
  // Planted shipments keep exactly the holds they name; drawn ones get the usual mix.
  if (!hold && Object.keys(plant).length === 0 && shipment.status !== "released") {
    if (shipment.claimed && shipment.certificate !== shipment.claimed && random.chance(0.5))
      hold = { type: "documents", waitsFor: "certificate_of_origin" };
    else if (!shipment.hasPacking && random.chance(0.6))
      hold = { type: "documents", waitsFor: "packing_list" };
    else if (shipment.certificate && random.chance(0.3))
      hold = { type: "documents", waitsFor: "certificate_of_origin", receivedLate: true };
    else if (shipment.hasPacking && random.chance(0.12))
      hold = { type: "documents", waitsFor: "packing_list", receivedLate: true };
    else if (random.chance(0.08)) hold = { type: "exam" };
  }
  const placedOn = shipment.status === "arrived" ? shipment.arrival : addDays(shipment.arrival, 1);
  // A document a hold waits for that has arrived since: received the day after the hold (today at the latest).
  const receivedLate = addDays(placedOn, 1) <= referenceDate ? addDays(placedOn, 1) : referenceDate;
  const late = (type: DocType): string =>
    hold?.receivedLate && hold.waitsFor === type ? receivedLate : before;
  if (shipment.hasPacking)
    insert.document(shipment, "packing_list", renderPackingList(random, shipment), late("packing_list"));
  if (shipment.certificate)
    insert.document(
      shipment,
      "certificate_of_origin",
      renderCertificate(random, shipment, shipment.certificate),
      late("certificate_of_origin"),
    );
  if (hold?.type === "exam")
    insert.hold(
      shipment.id,
      "exam",
      random.pick([
        "CBP intensive exam ordered",
        "Non-intrusive inspection (X-ray) requested",
        "Tailgate exam scheduled",
      ]),
      placedOn,
    );
  else if (hold?.waitsFor) {
    const what = WAITS_FOR[hold.waitsFor]!;
    const program = hold.waitsFor === "certificate_of_origin" ? ` (${shipment.claimed})` : "";
    insert.hold(shipment.id, "documents", `Awaiting ${what}${program}`, placedOn);
  }
  if (shipment.status !== "arrived") {
    if (random.chance(0.2))
      insert.hold(
        shipment.id,
        random.pick(["exam", "documents"]),
        "Routine document review",
        shipment.arrival,
        addDays(shipment.arrival, 1),
      );
    insert.entry(
      shipment,
      addDays(shipment.arrival, random.int(1, 3)),
      plant.generalRate ?? (appliedProgram(shipment) !== null && random.chance(0.3)),
    );
  }
}

/** Importers, the tariff schedule, shipments with their scanned documents, entries, holds and the memos. */
export function generateCustoms(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate } = context;
  const names = new Set<string>();
  while (names.size < 5 * factors.rows) names.add(faker.company.name().replace(/,/g, ""));
  const importers = [...names].map((name, index) => ({ id: importerId.format(index + 1), name }));
  for (const importer of importers)
    db.prepare("INSERT INTO importers VALUES (?, ?, ?, ?, ?)").run(
      importer.id,
      importer.name,
      faker.location.city(),
      `BND-${random.int(100000, 999999)}`,
      addDays(referenceDate, -random.int(60, 2400)),
    );
  for (const spec of TARIFF) {
    db.prepare("INSERT INTO tariff_lines VALUES (?, ?, ?, ?, ?)").run(
      spec.hs,
      spec.hs.slice(0, 2),
      spec.description,
      spec.unit,
      spec.general,
    );
    for (const [program, rate] of Object.entries(spec.special))
      db.prepare("INSERT INTO special_rates VALUES (?, ?, ?)").run(spec.hs, program, rate);
  }
  const insert = new Inserter(context);
  const count = 21 * factors.rows;
  const order = random.shuffle(Array.from({ length: count }, (_, index) => index + 1));
  const plantAt = new Map(order.slice(0, PLANTS.length).map((n, index) => [n, PLANTS[index]!]));
  for (let n = 1; n <= count; n += 1) {
    const plant = plantAt.get(n) ?? {};
    storeShipment(context, insert, drawShipment(context, n, plant, importers), plant);
  }
  writeCustomsMemos(context);
}
