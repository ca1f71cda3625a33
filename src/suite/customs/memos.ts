import type { GenerateContext } from "../../envs/index.js";
import { addDays, formatUsd, longDate, renderMarkdown } from "../../envs/index.js";
import {
  COUNTRIES,
  DE_MINIMIS_EXCLUDED_CHAPTERS,
  DE_MINIMIS_USD,
  FEE_BANDS,
  FEE_INCLUDED_LINES,
  FEE_ISF_OCEAN,
  FEE_PER_EXTRA_LINE,
  PATHS,
  PROGRAMS,
  RATES,
  VALUE_TOLERANCE,
} from "./rules.js";

/** Trade advisory texts by title, written in this order (repeating) at larger scales. */
const ADVISORY_TOPICS: Record<string, string> = {
  "Port congestion update":
    "Vessel berthing delays of two to four days are expected at the terminal this week. Plan drayage appointments accordingly; demurrage clocks are not suspended.",
  "ACE maintenance window":
    "The Automated Commercial Environment will be unavailable on Sunday between 02:00 and 06:00 Eastern. Entries transmitted during the window are queued and processed afterwards.",
  "Reminder: ISF timeliness":
    "Importer Security Filings for ocean cargo are due no later than twenty-four hours before lading at the foreign port. Late filings may draw liquidated damages.",
  "Textile visa requirements":
    "No textile visa is required for the programs in our rules memo. Keep mill certificates on file for five years in case of a verification request.",
  "Chassis shortage":
    "Truckers report a chassis shortage at the rail ramp. Expect longer dwell for intermodal boxes.",
  "Forced labor guidance":
    "Review supply chain tracing documents for cotton and polysilicon goods before filing; CBP may detain shipments under the forced labor statute.",
  "Holiday schedule":
    "The brokerage office is closed on the federal holiday; entries filed the day before are released the next business day.",
  "Bond sufficiency review":
    "Continuous bond amounts are reviewed annually against duties paid in the prior year. Importers near their limit will be contacted by their account manager.",
  "Classification rulings":
    "Recent binding rulings on furniture and footwear do not change the tariff lines our importers use. No action needed.",
};

/** The rules memos, the rates table, the fee schedule and the scaled pile of trade advisories. */
export function writeCustomsMemos(context: GenerateContext): void {
  const { referenceDate, factors, random } = context;
  context.writeFile(
    PATHS.dutyRules,
    renderMarkdown("Duty and preference rules", [
      `Compliance desk, revised ${longDate(addDays(referenceDate, -41))}. Applies to every entry we prepare.`,
      { heading: "Customs value" },
      "The basis is the commercial invoice, never the value the importer declared. Convert each invoice line's amount to USD at the rate for the invoice currency in the currency rates table and round it to cents: that is the line's customs value. A shipment's customs value is the sum of its lines' customs values.",
      { heading: "Duty" },
      "Each line pays its customs value times the duty rate of its HS code, rounded to cents; the shipment's duty is the sum of its lines' duties. The rate is the tariff line's general rate unless the preference applies to the line.",
      { heading: "Preference programs" },
      "A line gets the special rate its tariff line lists for a program only when all of these hold: the shipment claims that program, its origin country is a member of the program (table below), a certificate of origin for the shipment naming that same program is on file, and the tariff line lists a special rate for the program. Otherwise the general rate applies. A certificate naming another program does not count.",
      {
        table: {
          headers: ["program", "member countries"],
          rows: Object.entries(PROGRAMS).map(([program, members]) => [program, members.join(", ")]),
        },
      },
      { heading: "Filing entries" },
      "File one entry per shipment with its customs value in USD as the entered value, its duty, the program when at least one line got a special rate (none otherwise) and the number of invoice lines. Shipments with an open hold of any kind are not filed until the hold is released; de-minimis shipments are never filed (see the de-minimis memo).",
      { heading: "Declared value checks" },
      `The importer declares the value in the invoice currency. It agrees with the invoice when it differs from the invoice's TOTAL INVOICE VALUE by less than ${VALUE_TOLERANCE.toFixed(2)} of that currency; anything more is a discrepancy. Discrepancies on shipments not yet entered are corrected to the invoice total; a shipment already entered (entry filed, shipment not released) gets a valuation hold instead; released shipments are left alone.`,
      { heading: "Holds" },
      "A documents hold names in its reason the document it waits for. Release it once that document is on file for the shipment; for a certificate of origin, only one naming the program the shipment claims. Exam and valuation holds are released by customs, never by us.",
    ]),
  );
  context.writeFile(
    PATHS.deMinimis,
    renderMarkdown("De-minimis releases", [
      `A shipment whose customs value (computed as in the duty rules memo, in USD) is ${formatUsd(DE_MINIMIS_USD)} or less qualifies for de-minimis release: no entry is filed and no duty is owed, unless any of its invoice lines falls in an excluded chapter below (such shipments always need a formal entry).`,
      { heading: "Excluded chapters" },
      { table: { headers: ["chapter", "goods"], rows: DE_MINIMIS_EXCLUDED_CHAPTERS } },
      "A qualifying shipment with an open hold of any kind is released only after the hold is released. Release qualifying shipments with basis `de_minimis`.",
    ]),
  );
  context.writeFile(
    PATHS.rates,
    renderMarkdown("Currency rates, June 2025", [
      "Rates for customs valuation this month (USD per one unit of the currency), as certified by the Federal Reserve Bank of New York. Use them for every invoice regardless of its date.",
      {
        table: {
          headers: ["currency", "country", "USD per unit"],
          rows: Object.entries(RATES).map(([currency, rate]) => [
            currency,
            COUNTRIES.filter((country) => country.currency === currency)
              .map((country) => country.code)
              .join(" ") || "-",
            rate.toFixed(6),
          ]),
        },
      },
    ]),
  );
  context.writeFile(
    PATHS.fees,
    renderMarkdown("Broker fee schedule", [
      "We bill importers per entry, on the date the entry is filed. Each entry's fee is the brokerage fee for its entered value plus the surcharges below.",
      { heading: "Brokerage fee by entered value (USD)" },
      {
        table: {
          headers: ["entered value from", "entered value to", "fee"],
          rows: FEE_BANDS.map(([from, to, fee]) => [
            from.toFixed(2),
            to === null ? "and above" : to.toFixed(2),
            fee.toFixed(2),
          ]),
        },
      },
      { heading: "Surcharges" },
      {
        bullets: [
          `Line surcharge: ${formatUsd(FEE_PER_EXTRA_LINE)} for every invoice line of the entry beyond the first ${FEE_INCLUDED_LINES}.`,
          `ISF filing: ${formatUsd(FEE_ISF_OCEAN)} per entry of an ocean shipment.`,
        ],
      },
    ]),
  );
  const advisories = Object.entries(ADVISORY_TOPICS);
  for (let index = 0; index < 9 * factors.files; index += 1) {
    const [title, text] = advisories[index % advisories.length]!;
    const day = addDays(referenceDate, -random.int(1, 120));
    context.writeFile(
      `${PATHS.advisories}${day}-${String(index + 1).padStart(2, "0")}.md`,
      renderMarkdown(title, [`Trade advisory, ${longDate(day)}.`, text]),
    );
  }
}
