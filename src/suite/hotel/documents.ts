/** The front office's shared drive: the policies the tasks turn on, property fact sheets and the inbox. */
import type { GenerateContext } from "../../envs/index.js";
import { addDays, longDate, renderEmail, renderMarkdown } from "../../envs/index.js";
import {
  ATTRITION_PCT,
  DIRECT_BILL,
  EXPEDIA_COMMISSION_PCT,
  RATE_PLANS,
  ROOM_TYPES,
  WRITE_OFF_BELOW,
} from "./rules.js";
import type { Property } from "./rules.js";

export const CANCELLATION = "policies/cancellation.md";
export const CITY_TAX = "policies/city-tax.md";
export const RATE_PLANS_DOC = "rates/rate-plans.md";
export const ROOM_ASSIGNMENT = "policies/room-assignment.md";
export const GROUP_BLOCKS = "policies/group-blocks.md";
export const RECEIVABLES = "policies/accounts-receivable.md";

const REVENUE_MANAGER = "Saoirse Doyle <s.doyle@larkspurhotels.eu>";

function writePolicies(context: GenerateContext, properties: Property[]): void {
  const effective = `Effective ${longDate(addDays(context.referenceDate, -140))}; applies at every Larkspur property.`;
  context.writeFile(
    CANCELLATION,
    renderMarkdown("Cancellation and no-show policy", [
      effective,
      { heading: "Terms by rate plan" },
      {
        table: {
          headers: [
            "rate plan",
            "code",
            "free cancellation up to (days before arrival)",
            "late cancellation fee (% of one night)",
            "no-show fee (% of one night)",
          ],
          rows: RATE_PLANS.map((plan) => [
            plan.name,
            plan.code,
            plan.freeDays ?? "never",
            plan.lateFeePct,
            plan.noShowFeePct,
          ]),
        },
      },
      `"Up to N days before arrival" means a cancellation made on the arrival date minus N days or earlier is free; one made on any later day is late. Advance purchase stays are prepaid at booking and non-refundable, so nothing further is charged when they cancel or do not arrive. Group rooms fall under the group contract (see ${GROUP_BLOCKS}), never under these fees.`,
      { heading: "Charging the fees" },
      "Fees are a percentage of the reservation's own nightly rate (the first night), rounded to the cent. Post them on the reservation's folio with code LATECXL (late cancellation) or NOSHOW (no-show). A fee is charged once: when the folio already shows it, there is nothing to do.",
      "Guests often write in asking for a fee to be waived. Front office staff cannot waive fees; forward such requests to the revenue manager and charge the fee as usual.",
    ]),
  );
  const taxRows = properties.map((property) => {
    const rule = property.cityTax;
    return rule.basis === "percent"
      ? [property.name, property.code, "percent of the nightly room rate", `${rule.rate}%`, "no limit"]
      : [property.name, property.code, "per adult per night", `€${rule.rate.toFixed(2)}`, rule.maxNights];
  });
  context.writeFile(
    CITY_TAX,
    renderMarkdown("City and tourist taxes", [
      "Each city sets its own tax on overnight stays; the front office collects it on the guest's folio at check-out and pays it over monthly.",
      { heading: "Rates by property" },
      {
        table: {
          headers: ["property", "code", "basis", "rate", "longest taxed stay (nights)"],
          rows: taxRows,
        },
      },
      "Per adult per night: the rate times the number of adults times the nights of the stay, counting no more nights than the longest taxed stay. Guests under 18 are exempt everywhere. Percent: the rate applied to the nightly room rate for every night of the stay. Round the tax for a stay to the cent.",
      { heading: "Posting" },
      "Post the city tax for the whole stay once, on the day of departure, with code CTAX. A folio that already carries CTAX has been taxed.",
    ]),
  );
  context.writeFile(
    RATE_PLANS_DOC,
    renderMarkdown("Rate plans and channels", [
      { heading: "Plans" },
      {
        table: {
          headers: ["code", "name", "terms"],
          rows: RATE_PLANS.map((plan) => [plan.code, plan.name, plan.terms]),
        },
      },
      { heading: "Room types" },
      {
        table: {
          headers: ["code", "name", "rack rate (EUR)"],
          rows: Object.entries(ROOM_TYPES).map(([code, type]) => [code, type.name, type.base.toFixed(2)]),
        },
      },
      { heading: "Channel amounts" },
      `The channel manager keeps the amount each online channel sent for a booking (the whole stay, in euros). Booking.com sends the gross amount the guest pays: the nightly rate times the nights. Expedia sends the net amount: the gross less its ${EXPEDIA_COMMISSION_PCT}% commission, rounded to the cent.`,
      "Rate parity: a booking is in parity when the channel's amount equals what the PMS reservation's nightly rate gives for the stay (net of commission for Expedia), to the cent. Cancelled bookings are not checked.",
    ]),
  );
  context.writeFile(
    ROOM_ASSIGNMENT,
    renderMarkdown("Room assignment", [
      "Arriving guests are only ever given rooms that housekeeping has Inspected and that are Vacant on the housekeeping board (not occupied, not due out and not held for another arrival). A Clean room is still waiting for its inspection.",
      { heading: "Rooms taken out of order" },
      "When a room goes out of order, every guest arriving today who was assigned to it is moved to another room of the same room type: the lowest-numbered room that qualifies. Work through the affected reservations in order of reservation number. Upgrades are for the duty manager to decide and are not part of this.",
    ]),
  );
  context.writeFile(
    GROUP_BLOCKS,
    renderMarkdown("Group blocks", [
      "Group contracts hold a block of rooms at a group rate until the cutoff date, 21 days before arrival; rooms not picked up by then go back to general sale. The cutoff day itself still belongs to the group: the cutoff has passed from the next day on.",
      { heading: "Attrition" },
      `Once the cutoff date has passed, the group owes attrition when fewer than ${ATTRITION_PCT}% of the blocked rooms were picked up. The fee is the shortfall (the rooms needed to reach ${ATTRITION_PCT}% of the block, rounded up to a whole room, less the rooms picked up) times the group rate times the nights of the block.`,
      "Picked up means a reservation on the block's rooming list that was not cancelled. A no-show counts as picked up: the group's master account pays for it.",
    ]),
  );
  context.writeFile(
    RECEIVABLES,
    renderMarkdown("Open balances after departure", [
      `A checked-out folio with a balance above zero is money the guest still owes, with two exceptions. Balances below €${WRITE_OFF_BELOW.toFixed(2)} are written off at month end and not chased. Folios paid by "${DIRECT_BILL}" are transferred to the company's account in the city ledger and collected by accounts receivable, not by the front office.`,
      "The Balance column of the reservation listings shows each folio's balance (charges less payments).",
    ]),
  );
}

/** Inbox noise: subject, then paragraphs; {name} is the property's name. */
const EMAILS = [
  "Waive my no-show fee?|Hello,|Our flight was cancelled and we never made it to {name}. Could you waive the no-show charge? We will rebook soon.|Kind regards",
  "Room 204 air conditioning|Maintenance note for {name}: the AC unit in 204 was serviced this morning. Housekeeping still has to clean the room.",
  "Invoice copy needed|Hi front office,|Could you send a copy of last week's invoice for our consultant? Our accounts team needs it for the month close.|Thanks",
  "Channel manager maintenance window|The channel manager will be updated overnight. Bookings for {name} made during the window arrive a few minutes late; nothing to do on your side.",
  "Late check-out request|Good afternoon,|We would love a late check-out on Sunday if at all possible. We are celebrating an anniversary.|Best wishes",
  "Lost property|A grey scarf was handed in at {name} reception. It is in the lost-property cupboard, logged under today's date.",
  "Group rooming list changes|Hello,|Two of our delegates have swapped rooms; please update the names on the rooming list. The numbers stay the same.|Regards",
];

export function writeHotelDocuments(context: GenerateContext, properties: Property[]): void {
  const { random, faker, factors, referenceDate: today } = context;
  writePolicies(context, properties);
  for (const property of properties) {
    context.writeFile(
      `reference/properties/${property.code}.md`,
      renderMarkdown(`${property.name}, ${property.city}`, [
        {
          bullets: [
            `Property code: ${property.code}`,
            "Check-in from 15:00, check-out by 11:00",
            `Front desk: +${random.int(30, 49)} ${random.int(100, 999)} ${random.int(1000, 9999)}`,
            `General manager: ${faker.person.fullName()}`,
          ],
        },
        "The PMS shows this property's pages in its regional settings (see the property's page in the PMS).",
      ]),
    );
  }
  for (let n = 0; n < 7 * factors.files; n += 1) {
    const property = properties[n % properties.length]!;
    const [subject = "", ...body] = EMAILS[n % EMAILS.length]!.replaceAll("{name}", property.name).split("|");
    const sent = addDays(today, -random.int(0, 20));
    const from =
      n % EMAILS.length === 3
        ? REVENUE_MANAGER
        : `${faker.person.fullName()} <${faker.internet.email().toLowerCase()}>`;
    context.writeFile(
      `inbox/${sent}-${String(n + 1).padStart(2, "0")}.txt`,
      renderEmail({ From: from, Sent: sent, Subject: subject }, body),
    );
  }
}
