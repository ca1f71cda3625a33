import type { SeededRandom } from "../../core/index.js";
import {
  amountText,
  cell,
  hyphenate,
  longDate,
  numberCell,
  ocrConfuse,
  renderPages,
  scanStamp,
  strayLine,
} from "../../envs/index.js";
import type { ShipmentDraft } from "./generate.js";
import { COUNTRIES } from "./rules.js";

const RULE = "-".repeat(78);

function countryName(code: string): string {
  return COUNTRIES.find((country) => country.code === code)?.name ?? code;
}

function footer(random: SeededRandom, day: string) {
  return (page: number, pages: number): string[] => [
    ...strayLine(random),
    `${scanStamp(random, day)}${" ".repeat(random.int(4, 20))}Page ${page} of ${pages}`,
  ];
}

/** The commercial invoice's pages: lines in drifting columns, a subtotal carried forward, the total last. */
export function renderInvoice(random: SeededRandom, shipment: ShipmentDraft): string[] {
  const { lines, currency } = shipment;
  const body = lines.map((line) => {
    const [first, ...rest] = hyphenate(`${line.goods}${random.chance(0.4) ? " as per PO" : ""}`, 26);
    return [
      `${cell(random, String(line.no), 4, 1)}${cell(random, line.hs, 14, 2)}${cell(random, first!, 27, 1)}` +
        `${numberCell(random, line.qty.toLocaleString("en-US"), 7)}${numberCell(random, amountText(line.unitPrice), 12)}` +
        numberCell(random, amountText(line.amount), 15),
      ...rest.map((part) => `${" ".repeat(18 + random.int(0, 3))}${part}`),
      ...strayLine(random, 0.1),
    ];
  });
  const byBlock = new Map(body.map((block, index) => [block, lines[index]!.amount]));
  return renderPages({
    body,
    linesPerPage: 12,
    header: (page) => [
      `${ocrConfuse(random, shipment.seller)}${" ".repeat(random.int(10, 30))}COMMERCIAL INVOICE`,
      ocrConfuse(random, shipment.sellerAddress, 0.7),
      `Invoice No.: ${shipment.invoiceNo}${" ".repeat(random.int(6, 14))}Date: ${shipment.invoiceDate}`,
      `Shipment Ref: ${shipment.id}${" ".repeat(random.int(6, 14))}Currency: ${currency}`,
      `Sold to: ${ocrConfuse(random, shipment.importerName)}`,
      page > 1 ? "(continued)" : `Terms: FOB ${ocrConfuse(random, shipment.loadingPort)}`,
      RULE,
      "LN  HS CODE        DESCRIPTION                    QTY    UNIT PRICE          AMOUNT",
    ],
    footer: footer(random, shipment.scannedOn),
    between: (_page, blocks) => {
      const subtotal = blocks.reduce((sum, block) => sum + (byBlock.get(block) ?? 0), 0);
      return [RULE, `Page subtotal carried forward:${" ".repeat(random.int(8, 20))}${amountText(subtotal)}`];
    },
    last: [
      RULE,
      `TOTAL INVOICE VALUE:${" ".repeat(random.int(6, 24))}${currency} ${amountText(shipment.total)}`,
      `Freight and insurance not included. Country of origin: ${countryName(shipment.origin)}`,
      `Authorized signature: ${ocrConfuse(random, shipment.signatory)}`,
    ],
  });
}

/** The packing list's pages: packages, quantities and weights per invoice line. */
export function renderPackingList(random: SeededRandom, shipment: ShipmentDraft): string[] {
  const body = shipment.lines.map((line, index) => {
    const [first, ...rest] = hyphenate(line.goods, 26);
    const qty = shipment.packedQty[index]!;
    const net = Math.round(qty * line.unitKg * 10) / 10;
    return [
      `${cell(random, String(line.no), 5, 1)}${cell(random, first!, 27, 2)}` +
        `${numberCell(random, `${line.packages} ${line.packageKind}`, 9)}${numberCell(random, qty.toLocaleString("en-US"), 8)}` +
        `${numberCell(random, net.toFixed(1), 10)}${numberCell(random, (net * 1.08).toFixed(1), 10)}`,
      ...rest.map((part) => `${" ".repeat(6 + random.int(0, 3))}${part}`),
    ];
  });
  return renderPages({
    body,
    linesPerPage: 12,
    header: () => [
      `PACKING LIST${" ".repeat(random.int(10, 30))}${ocrConfuse(random, shipment.seller)}`,
      `Shipment Ref: ${shipment.id}${" ".repeat(random.int(4, 12))}Invoice No.: ${shipment.invoiceNo}`,
      `Marks & Nos: ${ocrConfuse(random, shipment.importerName.toUpperCase(), 0.8)} / ${shipment.port}`,
      "ITEM  DESCRIPTION                      PKGS       QTY    N.W. KG    G.W. KG",
    ],
    footer: footer(random, shipment.scannedOn),
    last: [RULE, `TOTAL PACKAGES: ${shipment.lines.reduce((sum, line) => sum + line.packages, 0)}`],
  });
}

/** Per transport mode: the bill's title and what its carrier line names. */
const BILLS = {
  ocean: ["BILL OF LADING (NON-NEGOTIABLE COPY)", "Vessel / Voyage"],
  air: ["AIR WAYBILL (NOT NEGOTIABLE)", "Flight"],
  truck: ["STRAIGHT BILL OF LADING - SHORT FORM", "Carrier"],
} as const;

/** The bill of lading (or air waybill): one page, nothing the checks need beyond the reference. */
export function renderBillOfLading(random: SeededRandom, shipment: ShipmentDraft): string[] {
  const [title, carrier] = BILLS[shipment.mode];
  const packages = shipment.lines.reduce((sum, line) => sum + line.packages, 0);
  return [
    [
      title,
      `B/L No.: ${shipment.billNo}`,
      `Shipper: ${ocrConfuse(random, shipment.seller)}, ${ocrConfuse(random, shipment.sellerAddress)}`,
      `Consignee: ${ocrConfuse(random, shipment.importerName)}`,
      "Notify party: SAME AS CONSIGNEE",
      `${carrier}: ${ocrConfuse(random, shipment.carrier)}`,
      `Port of loading: ${ocrConfuse(random, shipment.loadingPort)}${" ".repeat(random.int(3, 12))}Port of discharge: ${shipment.port}`,
      `Shipment Ref: ${shipment.id}`,
      RULE,
      "MARKS / CONTAINER      NO. OF PKGS    DESCRIPTION OF GOODS         GROSS WEIGHT",
      `${ocrConfuse(random, shipment.container)}${" ".repeat(random.int(4, 10))}${packages} PKGS${" ".repeat(random.int(4, 10))}SAID TO CONTAIN: ${hyphenate(shipment.lines[0]!.goods.toUpperCase(), 30)[0]}`,
      ...strayLine(random, 0.5),
      `FREIGHT ${random.chance(0.5) ? "COLLECT" : "PREPAID"}. Shipped on board ${longDate(shipment.shippedOn)}.`,
      `${scanStamp(random, shipment.scannedOn)}${" ".repeat(random.int(4, 20))}Page 1 of 1`,
    ].join("\n"),
  ];
}

/** The certificate of origin: the program it certifies is the fact that matters. */
export function renderCertificate(random: SeededRandom, shipment: ShipmentDraft, program: string): string[] {
  const headings = [...new Set(shipment.lines.map((line) => line.hs.slice(0, 7)))].join(", ");
  return [
    [
      "CERTIFICATE OF ORIGIN",
      `${program} certification of origin - blanket period not applicable`,
      `1. Exporter: ${ocrConfuse(random, shipment.seller)}, ${ocrConfuse(random, shipment.sellerAddress)}`,
      `2. Producer: ${random.chance(0.5) ? "SAME AS EXPORTER" : ocrConfuse(random, shipment.producer)}`,
      `3. Importer: ${ocrConfuse(random, shipment.importerName)}`,
      `4. Shipment Ref: ${shipment.id}`,
      `5. Preference program: ${program}`,
      `6. Country of origin: ${countryName(shipment.origin)}`,
      ...hyphenate(
        `7. Description of goods: ${shipment.lines.map((line) => line.goods.toLowerCase()).join("; ")}`,
        70,
      ),
      `8. HS classification (headings): ${headings}`,
      ...strayLine(random, 0.5),
      "I certify that the goods described in this document qualify as originating and the information",
      "contained in this document is true and accurate.",
      `Signature: ${ocrConfuse(random, shipment.signatory)}    Date: ${shipment.invoiceDate}`,
      `${scanStamp(random, shipment.scannedOn)}${" ".repeat(random.int(4, 20))}Page 1 of 1`,
    ].join("\n"),
  ];
}
