/** The policies in the workspace, the vendors' shipping notices and invoice printouts, as text. */
import type { GenerateContext } from "../../envs/index.js";
import { formatUsd, longDate, renderMarkdown, renderPages } from "../../envs/index.js";
import {
  CANCEL_CODES,
  DEFAULT_CLAIM_DAYS,
  FORMAT_CAPS,
  FUNDS,
  MAX_APPROVALS,
  NOTICE_CODES,
  OLDEST_PUB_YEAR,
  PATHS,
  PRICE_TOLERANCE_PCT,
  PRICE_TOLERANCE_USD,
  RECENT_CLAIM_DAYS,
  VENDORS,
  vendorId,
} from "./rules.js";

export function writePolicies(context: GenerateContext): void {
  const effective = longDate("2024-07-01");
  context.writeFile(
    PATHS.development,
    renderMarkdown("Collection development policy (acquisitions excerpt)", [
      `Effective ${effective}. Selectors and acquisitions staff apply these rules; the catalog record (MARC) decides, not the title or the vendor's description.`,
      { heading: "Funds" },
      { table: { headers: ["fund", "name"], rows: FUNDS.map(([code, name]) => [code, name]) } },
      { heading: "Fund assignment" },
      "Charge each order line to the first fund whose rule the line's bibliographic record meets:",
      {
        numbered: [
          "AV: the physical description (300 $a) is an audio disc or a videodisc.",
          "LPRT: a genre/form term (655 $a) is 'Large type books'.",
          "YA: a genre/form term (655 $a) begins 'Young adult'.",
          "JUV: any subject heading (650) carries the form subdivision $v 'Juvenile fiction' or 'Juvenile literature'.",
          "AFIC: any subject heading (650) carries the form subdivision $v 'Fiction'.",
          "ANF: everything else.",
        ],
      },
      "Look at every 650 and 655 field of the record, not only the first one.",
      { heading: "Duplicate checking" },
      "Before ordering, and whenever asked, check lines on order for duplicates by ISBN. Every 020 field of a record counts, not only the first; only subfield $a holds a valid ISBN ($z is a cancelled or invalid one and never matches). Compare ISBNs as ISBN-13: drop hyphens, spaces and qualifiers such as '(pbk.)', and convert an ISBN-10 to its ISBN-13 (prefix 978, recompute the check digit).",
      { heading: "Patron purchase requests" },
      `Decide pending requests oldest first (by request date, then request id). Decline a request when its list price is more than the cap for its format below, or when it was published before ${OLDEST_PUB_YEAR}. A patron may have at most ${MAX_APPROVALS} requests approved per fiscal year (July 1 to June 30; count approvals decided on or after ${effective}, including the ones you make); decline any further eligible request of that patron. Approve every other request.`,
      { heading: "Format price caps" },
      {
        table: {
          headers: ["format", "cap"],
          rows: FORMAT_CAPS.map(([format, cap]) => [format, formatUsd(cap)]),
        },
      },
    ]),
  );
  context.writeFile(
    PATHS.accounting,
    renderMarkdown("Fund accounting", [
      "Fiscal year 2025 runs from July 1, 2024 through June 30, 2025. Ledger transactions posted before July 1, 2024 belong to the closed FY2024 budget and do not count against this year's funds.",
      { heading: "Transaction kinds" },
      {
        table: {
          headers: ["kind", "meaning", "effect on the available balance"],
          rows: [
            ["encumber", "money committed by an order line", "subtract"],
            ["release", "an encumbrance lifted (line received or cancelled)", "add"],
            ["expend", "an invoice paid from the fund", "subtract"],
            ["credit", "a vendor credit memo", "add"],
            ["transfer_in", "budget moved into the fund", "add"],
            ["transfer_out", "budget moved out of the fund", "subtract"],
          ],
        },
      },
      { heading: "Available balance" },
      "Available balance = budget + transfers in - transfers out - (encumbrances - releases) - (expenditures - credits), over this fiscal year's transactions. Ledger amounts are always positive; the kind gives the sign.",
    ]),
  );
  context.writeFile(
    PATHS.invoices,
    renderMarkdown("Invoice review", [
      "Before an invoice is approved for payment, every line is compared with the order line it cites (the PO line number on the printout).",
      { heading: "Line checks" },
      {
        bullets: [
          "Quantity: the invoiced quantity may be less than the quantity ordered (partial shipment) but must not be more.",
          "Price: the expected net unit price is the order line's list price less the vendor's discount from our vendor record (rounded to the cent), never the discount the vendor printed. The invoiced net unit price may differ from it by at most the greater of " +
            `${PRICE_TOLERANCE_PCT}% of the expected net unit price and ${formatUsd(PRICE_TOLERANCE_USD)}.`,
          "Shipping and handling charges are not compared.",
        ],
      },
      { heading: "Outcome" },
      "An invoice with any line failing a check is put on hold with a reason naming the lines; an invoice whose lines all pass is approved. Invoices span several pages: review every page.",
    ]),
  );
  const listed = VENDORS.map((vendor, index) => [vendor, index] as const).filter(
    ([[, , days]]) => days !== null,
  );
  context.writeFile(
    PATHS.claims,
    renderMarkdown("Claims and cancellations", [
      { heading: "Claiming" },
      `Claim a firm-order line still on order (status ordered) when it was ordered more than the vendor's claim interval ago. Vendors not listed below get ${DEFAULT_CLAIM_DAYS} days. Do not claim a line that was claimed in the last ${RECENT_CLAIM_DAYS} days (a claim dated ${RECENT_CLAIM_DAYS} days before today or later). Lines on standing orders are never claimed: the publisher ships each volume when it appears.`,
      { heading: "Claim intervals" },
      {
        table: {
          headers: ["vendor", "name", "days"],
          rows: listed.map(([[name, , days], index]) => [vendorId.format(index + 1), name, days!]),
        },
      },
      { heading: "Cancelling from vendor notices" },
      "Vendors report line statuses on their shipping notices (notices/ folder). A line's current status is the one on the latest-dated notice that lists it; earlier reports are superseded. Cancel a line still on order when its current status is one of the codes marked cancel below, and no other.",
      { heading: "Notice status codes" },
      {
        table: {
          headers: ["code", "meaning", "action"],
          rows: Object.entries(NOTICE_CODES).map(([code, meaning]) => [
            code,
            meaning.toLowerCase(),
            CANCEL_CODES.includes(code) ? "cancel" : "keep",
          ]),
        },
      },
    ]),
  );
}

export interface NoticeLine {
  lineId: string;
  isbn: string;
  ordered: number;
  shipped: number;
  code: string;
}

export function renderNotice(
  vendor: number,
  san: string,
  number: string,
  date: string,
  lines: NoticeLine[],
): string {
  const rule = "-".repeat(66);
  return [
    "ADVANCE SHIP NOTICE / LINE STATUS REPORT",
    `FROM: ${VENDORS[vendor]![0].toUpperCase()}   SAN ${san}`,
    "TO:   RIVERSIDE PUBLIC LIBRARY - ACQUISITIONS",
    `NOTICE NO: ${number}      NOTICE DATE: ${date}`,
    rule,
    "LIN  CUST ORDER   ISBN            ORD  SHP  STATUS",
    ...lines.map(
      (line, index) =>
        `${String(index + 1).padStart(3, "0")}  ${line.lineId}  ${line.isbn}  ${String(line.ordered).padStart(3)}  ${String(line.shipped).padStart(3)}  ${line.code.padEnd(4)}${NOTICE_CODES[line.code]}`,
    ),
    rule,
    `END OF NOTICE   LINES: ${lines.length}`,
    "",
  ].join("\n");
}

export interface PrintedLine {
  lineId: string;
  isbn: string;
  title: string;
  qty: number;
  list: number;
  disc: number;
  net: number;
}

const money = (value: number, width: number): string => value.toFixed(2).padStart(width);

/** An invoice printout in the vendor's layout, eight lines a page, with a carried-forward subtotal. */
export function renderInvoice(
  vendor: number,
  number: string,
  date: string,
  lines: PrintedLine[],
  shipping: number,
): string[] {
  const ext = (line: PrintedLine): number => Math.round(line.qty * line.net * 100) / 100;
  const subtotal = lines.reduce((sum, line) => sum + ext(line), 0);
  return renderPages({
    body: lines.map((line, index) => [
      `${String(index + 1).padStart(3)}  ${line.lineId}  ${line.isbn}  ${String(line.qty).padStart(3)}  ${money(line.list, 7)}  ${line.disc.toFixed(1).padStart(5)}  ${money(line.net, 7)}  ${money(ext(line), 9)}`,
      `       ${line.title.toUpperCase().slice(0, 44)}`,
    ]),
    linesPerPage: 16,
    header: (page, pages) => [
      `${VENDORS[vendor]![0].toUpperCase()}                    INVOICE`,
      `INVOICE NO: ${number}   DATE: ${date}   ACCOUNT: RPL-${1000 + vendor}`,
      "BILL TO: RIVERSIDE PUBLIC LIBRARY, ACQUISITIONS",
      `PAGE ${page} OF ${pages}`,
      "LN   PO LINE     ISBN13          QTY     LIST  DISC%      NET        EXT",
    ],
    footer: () => ["REMIT TO LOCKBOX 4410  TERMS NET 30"],
    between: (_page, blocks) => [
      `      PAGE SUBTOTAL ${money(
        blocks.reduce((sum, block) => sum + Number(block[0]!.trim().split(/\s+/).at(-1)), 0),
        12,
      )}   CONTINUED`,
    ],
    last: [
      `      MERCHANDISE ${money(subtotal, 14)}`,
      `      SHIPPING/HANDLING ${money(shipping, 8)}`,
      `      INVOICE TOTAL ${money(subtotal + shipping, 12)}`,
    ],
  });
}
