import type { GenerateContext } from "../../envs/index.js";
import { addDays, daysBetween, insertRecords, randomDate, toCsv, weightedPick } from "../../envs/index.js";
import { writeDocuments } from "./documents.js";
import {
  CALIBRATION_DAYS,
  capaId,
  charId,
  gaugeId,
  lotId,
  materialLotId,
  ncrId,
  partNumber,
  prescribedDisposition,
  type CharacteristicLimits,
  requiredSamples,
  supplierId,
} from "./rules.js";

const FIRST_LOT_DATE = "2025-03-17";
const LINES = ["L1", "L2", "L3", "L4"] as const;
const SHIFTS = ["A", "B", "C"] as const;
const INSPECTORS = ["RK", "MO", "JT", "AS", "PL", "DW"] as const;
export const CALIBRATION_HISTORY_PATH = "exports/gauge-calibration-history.csv";
export const CALIBRATION_HEADERS = ["gauge_id", "gauge_type", "calibrated_on", "result", "certificate"];

const MATERIALS = ["6061-T6 aluminium", "304 stainless", "1045 steel", "C360 brass"] as const;

const SUPPLIERS: ReadonlyArray<[string, string, string]> = [
  ["Alcona Metals", "Canada", "6061-T6 aluminium"],
  ["Brixworth Bar Stock", "United Kingdom", "6061-T6 aluminium"],
  ["Stahlwerk Kessler", "Germany", "1045 steel"],
  ["Inoxa Aceros", "Spain", "304 stainless"],
  ["Great Lakes Stainless", "United States", "304 stainless"],
  ["Mosconi Ottone", "Italy", "C360 brass"],
];

const PRODUCTS: ReadonlyArray<[string, string, string, string]> = [
  ["Hydraulic fitting body", "C", "1045 steel", "Norden Hydraulics"],
  ["Valve spool", "B", "304 stainless", "Norden Hydraulics"],
  ["Bearing housing", "D", "6061-T6 aluminium", "Calder Pumps"],
  ["Drive shaft", "A", "1045 steel", "Ostrava Motion"],
  ["Impeller hub", "C", "304 stainless", "Calder Pumps"],
  ["Sensor bushing", "B", "C360 brass", "Brightwater Controls"],
  ["Manifold block", "E", "6061-T6 aluminium", "Brightwater Controls"],
  ["Spacer ring", "A", "C360 brass", "Ostrava Motion"],
];

const FEATURES: ReadonlyArray<{
  name: string;
  feature: "external" | "internal";
  gauge: string;
  size: [number, number];
}> = [
  { name: "Outer diameter", feature: "external", gauge: "micrometer", size: [12, 60] },
  { name: "Bore diameter", feature: "internal", gauge: "bore_gauge", size: [6, 40] },
  { name: "Overall length", feature: "external", gauge: "height_gauge", size: [20, 120] },
  { name: "Slot width", feature: "internal", gauge: "caliper", size: [4, 16] },
  { name: "Shoulder height", feature: "external", gauge: "height_gauge", size: [3, 25] },
  { name: "Thread pitch diameter", feature: "external", gauge: "micrometer", size: [8, 30] },
];

const GAUGES: ReadonlyArray<[string, string, number]> = [
  ["micrometer", "Outside micrometer 0-75 mm", 4],
  ["bore_gauge", "Three-point bore gauge", 3],
  ["caliper", "Digital caliper 150 mm", 3],
  ["height_gauge", "Digital height gauge 300 mm", 2],
];

type Limits = Pick<CharacteristicLimits, "lower_limit" | "upper_limit">;

/** A value `excess` mm above a characteristic's upper limit or below its lower limit, to the micron. */
export function beyondLimit(c: Limits, above: boolean, excess: number): number {
  return round3(above ? c.upper_limit + excess : c.lower_limit - excess);
}

/** What NCRs of the non-dimensional defect codes say. */
export const NCR_DESCRIPTIONS = {
  COS: ["Burrs on cross-drilled holes", "Chatter marks on turned face", "Handling scratches on sealing face"],
  MAT: [
    "Inclusions found at parting line",
    "Mill certificate heat number does not match bar marking",
    "Porosity exposed after finish pass",
  ],
  HRD: [
    "Hardness 4 HRC below specification",
    "Hardness above specification, tool wear excessive",
    "Inconsistent hardness across bar length",
  ],
} as const;

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** A characteristics row as inserted. */
interface Characteristic extends CharacteristicLimits {
  char_id: string;
  part_number: string;
  name: string;
  nominal: number;
  unit: string;
  gauge_type: string;
}

/** A calibration certificate number: `CC-250412-004` (pass) or `CF-...` (fail) for gauge GA-004 on 2025-04-12. */
export function certificate(kind: "CC" | "CF", date: string, gauge: string): string {
  return `${kind}-${date.replace(/-/g, "").slice(2)}-${gauge.slice(3)}`;
}

/** Writes the calibration history export: rows in CALIBRATION_HEADERS order, sorted by date, then gauge. */
export function writeCalibrationHistory(context: GenerateContext, rows: string[][]): void {
  rows.sort((a, b) => (a[2] === b[2] ? a[0]!.localeCompare(b[0]!) : a[2]!.localeCompare(b[2]!)));
  context.writeFile(CALIBRATION_HISTORY_PATH, toCsv(CALIBRATION_HEADERS, rows));
}

/** A value inside the characteristic's limits, centred on nominal, at least 5% of the band from either limit. */
function inTolerance(random: GenerateContext["random"], c: Characteristic): number {
  const band = c.upper_limit - c.lower_limit;
  const centre = (c.lower_limit + c.upper_limit) / 2;
  const gaussian = (random.next() + random.next() + random.next() - 1.5) / 1.5;
  const value = centre + gaussian * band * 0.4;
  return round3(Math.min(c.upper_limit - band * 0.05, Math.max(c.lower_limit + band * 0.05, value)));
}

export function generateQuality(context: GenerateContext): void {
  const { db, random, factors, referenceDate: today } = context;

  const insertSupplier = db.prepare("INSERT INTO suppliers VALUES (?, ?, ?, ?, ?)");
  SUPPLIERS.forEach(([name, country, material], index) =>
    insertSupplier.run(
      supplierId.format(index + 1),
      name,
      country,
      material,
      randomDate(random, "2015-01-01", "2023-06-30"),
    ),
  );

  const insertMaterialLot = db.prepare("INSERT INTO material_lots VALUES (?, ?, ?, ?, ?, ?)");
  const materialLots: Array<{ id: string; material: string; received: string }> = [];
  for (let n = 1; n <= 14 * factors.rows; n += 1) {
    // The first lots of every material arrive before production starts.
    const material = n <= MATERIALS.length ? MATERIALS[n - 1]! : random.pick(MATERIALS);
    const supplier = random.pick(SUPPLIERS.flatMap((row, index) => (row[2] === material ? [index + 1] : [])));
    const received =
      n <= MATERIALS.length
        ? randomDate(random, "2025-02-10", "2025-03-10")
        : randomDate(random, "2025-02-10", addDays(today, -10));
    const id = materialLotId.format(n);
    insertMaterialLot.run(
      id,
      supplierId.format(supplier),
      material,
      `H${random.int(10000, 99999)}`,
      received,
      random.int(20, 120),
    );
    materialLots.push({ id, material, received });
  }

  const insertProduct = db.prepare("INSERT INTO products VALUES (?, ?, ?, ?, ?)");
  const characteristics: Characteristic[] = [];
  const products = PRODUCTS.map(([name, revision, material, customer], index) => {
    const part = partNumber.format(1101 + index * 7);
    insertProduct.run(part, name, revision, material, customer);
    const features = random.shuffle(FEATURES).slice(0, random.int(3, 4));
    const critical = random.int(0, features.length - 1);
    features.forEach((feature, position) => {
      const nominal =
        Math.round((feature.size[0] + random.next() * (feature.size[1] - feature.size[0])) * 2) / 2;
      const tolerance = random.pick([0.01, 0.015, 0.02, 0.025, 0.03, 0.05]);
      const oneSided = random.chance(0.25);
      const c: Characteristic = {
        char_id: charId.format(characteristics.length + 1),
        part_number: part,
        name: feature.name,
        feature: feature.feature,
        nominal,
        lower_limit: round3(nominal - (oneSided ? 0 : tolerance)),
        upper_limit: round3(nominal + tolerance),
        unit: "mm",
        gauge_type: feature.gauge,
        critical: position === critical ? 1 : 0,
      };
      characteristics.push(c);
      insertRecords(db, "characteristics", [c]);
    });
    return { part, material, customer, name };
  });

  // Gauges and their calibration history (the export is the only record of past calibrations).
  const insertGauge = db.prepare("INSERT INTO gauges VALUES (?, ?, ?, ?, ?)");
  const gauges: Array<{ id: string; type: string }> = [];
  const history: string[][] = [];
  for (const [type, description, base] of GAUGES) {
    for (let k = 0; k < base + Math.floor(factors.rows / 2); k += 1) {
      const id = gaugeId.format(gauges.length + 1);
      gauges.push({ id, type });
      const interval = CALIBRATION_DAYS[type]!;
      let date = addDays("2024-09-01", -random.int(0, interval - 1));
      let last = date;
      while (date <= today) {
        history.push([id, type, date, "pass", certificate("CC", date, id)]);
        last = date;
        date = addDays(date, interval - random.int(1, 8));
      }
      insertGauge.run(
        id,
        type,
        description,
        random.pick(["QC lab", "Cell 1", "Cell 2", "Cell 3", "Cell 4"]),
        last,
      );
    }
  }
  writeCalibrationHistory(context, history);

  // Production lots and their measurements.
  const insertLot = db.prepare("INSERT INTO production_lots VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertMeasurement = db.prepare(
    "INSERT INTO measurements (lot_id, char_id, sample_no, value, gauge_id, measured_on, inspector) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const span = daysBetween(FIRST_LOT_DATE, today);
  // A fifth of the lots are recent, so that the open (unshipped) work is never empty.
  const starts = Array.from({ length: 34 * factors.rows }, (_, index) =>
    index % 5 === 0 ? addDays(today, -random.int(0, 11)) : addDays(FIRST_LOT_DATE, random.int(0, span)),
  ).sort();
  const lots: Array<{ id: string; part: string; start: string; end: string | null; quantity: number }> = [];
  starts.forEach((start, index) => {
    const product = random.pick(products);
    const options = materialLots.filter((lot) => lot.material === product.material && lot.received <= start);
    const materialLot = options[options.length - 1 - random.int(0, Math.min(2, options.length - 1))]!;
    const rework = random.chance(0.08);
    const quantity = rework
      ? random.int(10, 120)
      : weightedPick(
          random,
          [random.int(30, 150), random.int(151, 500), random.int(501, 1200), random.int(1201, 1600)],
          [4, 5, 2, 0.5],
        );
    const inProcess = daysBetween(start, today) <= 3;
    const end = inProcess ? null : addDays(start, Math.min(random.int(0, 2), daysBetween(start, today) - 1));
    const rejects = Math.round(quantity * random.next() * (rework ? 0.08 : 0.05));
    const status = inProcess ? "in_process" : end! >= addDays(today, -10) ? "released" : "shipped";
    const id = lotId.format(index + 1);
    insertLot.run(
      id,
      product.part,
      materialLot.id,
      rework ? "rework" : "production",
      random.pick(LINES),
      random.pick(SHIFTS),
      quantity,
      rejects,
      start,
      end,
      status,
      null,
    );
    lots.push({ id, part: product.part, start, end, quantity });
    const samples = requiredSamples(quantity);
    for (const c of characteristics.filter((item) => item.part_number === product.part)) {
      const gauge = random.pick(gauges.filter((item) => item.type === c.gauge_type)).id;
      const measuredOn = end ?? start;
      const inspector = random.pick(INSPECTORS);
      for (let sample = 1; sample <= samples; sample += 1)
        insertMeasurement.run(id, c.char_id, sample, inTolerance(random, c), gauge, measuredOn, inspector);
    }
  });

  // Non-conformance reports on finished lots, with CAPAs for the serious ones.
  const insertNcr = db.prepare("INSERT INTO ncrs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertCapa = db.prepare("INSERT INTO capas VALUES (?, ?, ?, ?, ?, ?)");
  const setValue = db.prepare(
    "UPDATE measurements SET value = ? WHERE measurement_id = (SELECT measurement_id FROM measurements WHERE lot_id = ? AND char_id = ? ORDER BY sample_no DESC LIMIT 1)",
  );
  const hold = db.prepare("UPDATE production_lots SET status = 'on_hold', hold_reason = ? WHERE lot_id = ?");
  for (const lot of lots) {
    if (!lot.end || !random.chance(0.4)) continue;
    const opened = addDays(lot.end, random.int(0, 3));
    if (opened > today) continue;
    const id = ncrId.next(db, "ncrs");
    const code = weightedPick(random, ["DIM", "COS", "MAT", "HRD"], [5, 2, 1.5, 1.5]);
    let c: Characteristic | undefined;
    let value: number | null = null;
    let severity = weightedPick(random, ["major", "minor"], [1, 2]);
    let description: string;
    if (code === "DIM") {
      c = random.pick(characteristics.filter((item) => item.part_number === lot.part));
      const band = c.upper_limit - c.lower_limit;
      const share = random.pick([0.04, 0.08, 0.2, 0.35, 0.6]);
      value = beyondLimit(c, random.chance(0.5), Math.max(0.001, band * share));
      setValue.run(value, lot.id, c.char_id);
      if (c.critical === 1) severity = "critical";
      description = `${c.char_id} measured ${value} mm against limits ${c.lower_limit}-${c.upper_limit} mm`;
    } else description = random.pick(NCR_DESCRIPTIONS[code as keyof typeof NCR_DESCRIPTIONS]);
    const age = daysBetween(opened, today);
    let capa: string | null = null;
    if (severity !== "minor" || random.chance(0.4)) {
      capa = capaId.next(db, "capas");
      const capaOpened = addDays(opened, Math.min(age, random.int(0, 5)));
      const closed = random.chance(0.55) ? addDays(capaOpened, random.int(5, 50)) : null;
      const status = closed && closed <= today ? "closed" : random.chance(0.5) ? "implemented" : "open";
      insertCapa.run(
        capa,
        capaOpened,
        random.pick(["R. Kowalski", "M. Osei", "J. Tanaka", "A. Silva"]),
        random.pick([
          "Tool wear not detected",
          "Fixture clamping distortion",
          "Supplier process change",
          "Operator setup error",
          "Program offset error",
        ]),
        status,
        status === "closed" ? closed : null,
      );
    }
    const recent = age <= 12;
    const disposition = recent ? null : prescribedDisposition(code, c, value);
    const status = recent ? "open" : capa === null || random.chance(0.5) ? "closed" : "dispositioned";
    insertNcr.run(
      id,
      lot.id,
      opened,
      severity,
      code,
      c?.char_id ?? null,
      value,
      random.int(1, Math.max(1, Math.round(lot.quantity / 10))),
      description,
      disposition,
      status,
      capa,
    );
    if (recent) hold.run(`${id} open`, lot.id);
  }

  writeDocuments(context, { products, lots, materialLots });
}
