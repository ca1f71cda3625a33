/** The cooperative's rule documents: discount schedule, scale house procedures, delivery rules, aeration, patronage. */
import { renderMarkdown } from "../../envs/index.js";
import type { GenerateContext } from "../../envs/index.js";
import type { LogSite } from "./logs.js";
import {
  AERATION,
  DOCS,
  FILL_TOLERANCE,
  FISCAL_YEAR,
  GRADE_FACTORS,
  KG_TO_LB,
  PATRONAGE_RATES,
  WEIGHT_TOLERANCE_LB,
} from "./world.js";

export function writeCoopDocuments(context: GenerateContext, sites: LogSite[]): void {
  context.writeFile(
    DOCS.grading,
    renderMarkdown("Discount schedule (2024-25 crop year)", [
      "Applies to every load received at every elevator. Scale bushels are the ticket's net weight in pounds divided by the crop's standard bushel weight (below), whatever the load's measured test weight.",
      { heading: "Grade factors" },
      {
        table: {
          headers: [
            "crop",
            "lb per bushel",
            "base moisture %",
            "shrink % per 0.5 point",
            "drying charge cents/bu per 0.5 point",
            "foreign material allowance %",
          ],
          rows: Object.entries(GRADE_FACTORS).map(([crop, f]) => [
            crop,
            f.lbPerBu,
            f.baseMoisture.toFixed(1),
            f.shrinkPerStep,
            f.dryingCents,
            f.fmAllowance.toFixed(1),
          ]),
        },
      },
      { heading: "Moisture shrink" },
      "Loads above the base moisture are shrunk by the crop's shrink percentage for every 0.5 point of moisture or fraction thereof above base (corn at 16.1% is 1.1 points over: three steps, 2.1%). Loads at or below base are not shrunk and earn no premium. The drying charge is billed separately on the settlement sheet and does not change bushels.",
      { heading: "Foreign material dockage" },
      "Foreign material up to the allowance is free. The percentage above the allowance is docked (corn at 3.4% FM is docked 1.4%).",
      { heading: "Settled bushels" },
      "Settled (net) bushels = scale bushels x (1 - (shrink % + dockage %) / 100). Test weight discounts are price discounts and do not change bushels.",
    ]),
  );
  context.writeFile(
    DOCS.scale,
    renderMarkdown("Scale house procedures", [
      "Every elevator's SCALE-LINK terminal writes one ticket journal per day under logs/<elevator>/. Lines from both truck lanes are interleaved in time order.",
      { heading: "Reading the journal" },
      {
        bullets: [
          "IN opens a ticket (member, crop, account, gross weight); OUT closes it with the tare and net weight. WT lines are the indicator's idle readings and TARE lines are tare-only weighings of empty trucks: neither is a ticket.",
          "A load is probed at least once. When a sample is re-probed, the last PROBE before the ticket closes is the grade.",
          "A VOID line cancels a printed ticket; the REISSUE line that follows carries the replacement ticket in full (new number, corrected member or account, weights and grade). Voided tickets are not deliveries.",
          `Weights print in the elevator's scale units (see the journal header). Convert kilograms at 1 kg = ${KG_TO_LB} lb.`,
          "Lines starting with # are operator comments.",
        ],
      },
      { heading: "Scale units" },
      { table: { headers: ["elevator", "name", "units"], rows: sites.map((s) => [s.id, s.name, s.units]) } },
      { heading: "Reconciliation" },
      "The office keys every ticket into the grain accounting system in pounds. A keyed ticket agrees with the journal when its net weight differs from the journal's net weight by no more than the tolerance below (conversion rounding and re-zeroing stay inside it); a larger difference is a keying error. A ticket the journal voided must be void in the system too.",
      { heading: "Reconciliation tolerance" },
      {
        table: { headers: ["setting", "value"], rows: [["net weight tolerance (lb)", WEIGHT_TOLERANCE_LB]] },
      },
    ]),
  );
  context.writeFile(
    DOCS.delivery,
    renderMarkdown("Contract delivery rules", [
      "How delivered tickets are applied to members' grain contracts (forward, basis and deferred-price).",
      { heading: "Which tickets" },
      {
        bullets: [
          "Only active tickets whose account is CONTRACT are applied. Spot tickets were sold on the day; storage tickets sit in open storage until the member prices them. Void tickets are never applied.",
          "A ticket can only go to an open contract of the same member, for the same crop, at the elevator where it was weighed, whose delivery period (start and end dates inclusive) contains the ticket date.",
        ],
      },
      { heading: "Order: first in, first applied" },
      {
        bullets: [
          "Tickets are applied in the order they were weighed (ticket date, then ticket number).",
          "Each ticket fills the eligible priced contracts (forward and basis) first, oldest signed first (then lowest contract number); deferred-price contracts take a ticket only once every eligible priced contract is full.",
          "A ticket larger than what is open on a contract is split: the rest goes to the next eligible contract. Bushels no eligible contract can take stay unapplied.",
          "Applications are in settled bushels (the ticket's net_bu).",
        ],
      },
      { heading: "Fulfilment" },
      `A contract whose delivery period has ended counts as filled when the bushels applied to it reach ${FILL_TOLERANCE * 100}% of the contracted bushels; below that it is short by the contracted bushels less the bushels applied. Cancelled contracts are neither.`,
    ]),
  );
  context.writeFile(
    DOCS.aeration,
    renderMarkdown("Aeration and bin monitoring policy", [
      "Each elevator's temperature monitoring system exports every cable sensor of every bin every four hours (monitoring/<elevator>/).",
      { heading: "Thresholds" },
      {
        table: {
          headers: ["setting", "value"],
          rows: [
            ["rise threshold (F)", AERATION.riseF],
            ["lookback days", AERATION.lookbackDays],
          ],
        },
      },
      { heading: "Procedure" },
      {
        bullets: [
          "A bin's temperature for a day is the average of all its valid sensor readings that day. -999 marks a faulted sensor and a blank cell a lost reading: leave both out.",
          "Some controllers export Celsius (a temp_c column); work in Fahrenheit.",
          "Compare each bin's temperature on the last day of its export with the lookback days earlier. A rise of the threshold or more needs attention.",
          "Only bins holding grain count; empty bins follow the weather.",
          "A bin that needs attention gets a temperature alert unless it already has an open one.",
        ],
      },
    ]),
  );
  context.writeFile(
    DOCS.patronage,
    renderMarkdown("Patronage allocation", [
      `The board allocates patronage on grain business done in the fiscal year ${FISCAL_YEAR.start} to ${FISCAL_YEAR.end} (ticket dates inclusive), per settled bushel (net_bu) delivered.`,
      { heading: "Rates" },
      {
        table: {
          headers: ["crop", "dollars per bushel"],
          rows: Object.entries(PATRONAGE_RATES).map(([crop, rate]) => [crop, rate.toFixed(2)]),
        },
      },
      { heading: "Eligibility" },
      {
        bullets: [
          "Only patrons whose patron status is member share in patronage; non-member patrons do not.",
          "Void tickets do not count. Grain in open storage (storage tickets) is not patronage business until it is sold.",
          "Allocations are per member, rounded to the cent.",
        ],
      },
    ]),
  );
}
