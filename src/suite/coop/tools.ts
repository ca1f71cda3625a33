import { z } from "zod";
import type { DomainTool, ToolContext } from "../../envs/index.js";
import {
  cachedStatement,
  defineGetTool,
  defineListTool,
  getRow,
  insertRow,
  isoDateSchema,
  REFERENCE_DATE,
  requireEntity,
  when,
  withSilentFailures,
  withTransientFailures,
  optionalChoice,
  optionalDate,
} from "../../envs/index.js";
import { ToolFailure, defineTool } from "../../runtime/index.js";
import { binId, contractId, elevatorId, memberId, ticketId } from "./schema.js";
import { GRADE_FACTORS, round2, settledBushels } from "./world.js";

const cropSchema = z.enum(["corn", "soybeans"]);

const listElevators = defineListTool({
  name: "list_elevators",
  description:
    "List the cooperative's elevators (id, name, town, the truck scale's units). Paginated: returns `elevators`, `page`, `per_page`, `total`, `has_more`.",
  key: "elevators",
  from: "elevators",
  orderBy: "elevator_id",
});

const listMembers = defineListTool({
  name: "list_members",
  description:
    "List patrons (member farmers and non-member customers) matching all given filters, ordered by id. Paginated: returns `members`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    patron_status: optionalChoice(["member", "non-member"], "Only patrons of this status"),
    home_elevator: elevatorId.schema("Only patrons who deliver to this elevator").optional(),
  },
  key: "members",
  from: "members",
  where: { patron_status: "=", home_elevator: "=" },
  orderBy: "member_id",
});

const listTickets = defineListTool({
  name: "list_tickets",
  description:
    "List scale tickets keyed into the accounting system matching all given filters, ordered by ticket id. Weights in pounds; `net_bu` is the settled bushels after shrink and dockage; `designation` is the account (contract, spot, storage). `unapplied: true` keeps tickets with no contract application. Paginated: returns `tickets`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    member_id: memberId.schema("Only this member's tickets").optional(),
    elevator_id: elevatorId.schema("Only tickets weighed at this elevator").optional(),
    crop: cropSchema.optional().describe("Only this crop"),
    status: optionalChoice(["active", "void"], "Only tickets in this status"),
    designation: optionalChoice(["contract", "spot", "storage"], "Only tickets on this account"),
    date_from: optionalDate("Only tickets dated on or after this day, YYYY-MM-DD"),
    date_to: optionalDate("Only tickets dated on or before this day, YYYY-MM-DD"),
    unapplied: z.boolean().optional().describe("true: only tickets not applied to any contract"),
  },
  key: "tickets",
  from: "tickets",
  where: (input) => [
    when(input.member_id, "member_id = ?"),
    when(input.elevator_id, "elevator_id = ?"),
    when(input.crop, "crop = ?"),
    when(input.status, "status = ?"),
    when(input.designation, "designation = ?"),
    when(input.date_from, "ticket_date >= ?"),
    when(input.date_to, "ticket_date <= ?"),
    input.unapplied === undefined
      ? null
      : `${input.unapplied ? "NOT " : ""}EXISTS (SELECT 1 FROM applications a WHERE a.ticket_id = tickets.ticket_id)`,
  ],
  orderBy: "ticket_id",
});

const getTicket = defineGetTool({
  name: "get_ticket",
  description: "Get one scale ticket with its contract applications. Returns `ticket`, `applications`.",
  input: { ticket_id: ticketId.schema("The ticket") },
  key: "ticket",
  from: "tickets",
  notFound: ticketId,
  related: {
    applications:
      "SELECT contract_id, bushels, applied_on FROM applications WHERE ticket_id = ? ORDER BY application_id",
  },
});

const createTicket = defineTool({
  name: "create_ticket",
  description:
    "Key a scale ticket into the accounting system, weights in pounds (whole pounds). The system computes net_lb and the settled net_bu from the discount schedule. Refused when the ticket number exists. Returns the stored `ticket`.",
  kind: "write",
  inputSchema: z.object({
    ticket_id: ticketId.schema("The number printed on the ticket"),
    elevator_id: elevatorId.schema("Where it was weighed"),
    member_id: memberId.schema("The delivering member"),
    crop: cropSchema.describe("Crop"),
    ticket_date: isoDateSchema.describe("Day weighed, YYYY-MM-DD"),
    gross_lb: z.number().int().positive().describe("Gross weight, pounds"),
    tare_lb: z.number().int().positive().describe("Tare weight, pounds"),
    moisture: z.number().min(5).max(35).describe("Moisture %"),
    test_weight: z.number().min(30).max(70).describe("Test weight, lb/bu"),
    fm: z.number().min(0).max(30).describe("Foreign material %"),
    designation: z.enum(["contract", "spot", "storage"]).describe("The account on the ticket"),
  }),
  handler: (input, { db }: ToolContext) => {
    requireEntity(db, "elevators", elevatorId, input.elevator_id);
    requireEntity(db, "members", memberId, input.member_id);
    if (getRow(db, "SELECT 1 AS x FROM tickets WHERE ticket_id = ?", input.ticket_id))
      throw new ToolFailure(`ticket ${input.ticket_id} is already keyed; use get_ticket to see it`);
    if (input.tare_lb >= input.gross_lb) throw new ToolFailure("tare_lb must be below gross_lb");
    const net = input.gross_lb - input.tare_lb;
    const factors = new Map(Object.entries(GRADE_FACTORS));
    const ticket = insertRow(db, "tickets", {
      ...input,
      net_lb: net,
      net_bu: round2(settledBushels(net, input.crop, input.moisture, input.fm, factors)),
      status: "active",
    });
    return { ticket };
  },
});

const listContracts = defineListTool({
  name: "list_contracts",
  description:
    "List grain contracts matching all given filters, ordered by id: member, elevator, crop, type (forward, basis, deferred_price), contracted bushels, signing date, delivery period, status. Applications are on get_contract. Paginated: returns `contracts`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    member_id: memberId.schema("Only this member's contracts").optional(),
    elevator_id: elevatorId.schema("Only contracts for delivery at this elevator").optional(),
    crop: cropSchema.optional().describe("Only this crop"),
    status: optionalChoice(["open", "filled", "cancelled"], "Only contracts in this status"),
    ended_before: isoDateSchema
      .optional()
      .describe("Only contracts whose delivery period ended before this day"),
  },
  key: "contracts",
  from: "contracts",
  where: { member_id: "=", elevator_id: "=", crop: "=", status: "=", ended_before: "delivery_end < ?" },
  orderBy: "contract_id",
});

const getContract = defineGetTool({
  name: "get_contract",
  description:
    "Get one contract with the tickets applied to it. Returns `contract`, `applications` (ticket_id, bushels, applied_on).",
  input: { contract_id: contractId.schema("The contract") },
  key: "contract",
  from: "contracts",
  notFound: contractId,
  related: {
    applications:
      "SELECT ticket_id, bushels, applied_on FROM applications WHERE contract_id = ? ORDER BY application_id",
  },
});

const applied = (db: ToolContext["db"], column: string, id: string): number =>
  getRow<{ s: number }>(
    db,
    `SELECT COALESCE(SUM(bushels), 0) AS s FROM applications WHERE ${column} = ?`,
    id,
  )!.s;

const applyTicket = defineTool({
  name: "apply_ticket",
  description:
    "Apply a ticket's unapplied settled bushels to an open contract of the same member and crop: as many as the contract still has open; a contract that reaches its bushels becomes filled. Call again with the next contract for the rest. Returns `application`, `ticket_unapplied_bu`, `contract_open_bu`.",
  kind: "write",
  inputSchema: z.object({
    ticket_id: ticketId.schema("The ticket"),
    contract_id: contractId.schema("The contract"),
  }),
  handler: ({ ticket_id, contract_id }, { db }: ToolContext) => {
    const ticket = requireEntity(db, "tickets", ticketId, ticket_id);
    const contract = requireEntity(db, "contracts", contractId, contract_id);
    if (ticket.status !== "active") throw new ToolFailure(`ticket ${ticket_id} is void`);
    if (contract.status !== "open")
      throw new ToolFailure(`contract ${contract_id} is ${String(contract.status)}, not open`);
    if (contract.member_id !== ticket.member_id || contract.crop !== ticket.crop)
      throw new ToolFailure(
        `contract ${contract_id} is not ${String(ticket.member_id)}'s ${String(ticket.crop)} contract`,
      );
    const left = round2(Number(ticket.net_bu) - applied(db, "ticket_id", ticket_id));
    const open = round2(Number(contract.bushels) - applied(db, "contract_id", contract_id));
    if (left <= 0) throw new ToolFailure(`ticket ${ticket_id} is fully applied`);
    const bushels = Math.min(left, open);
    const application = insertRow(db, "applications", {
      ticket_id,
      contract_id,
      bushels,
      applied_on: REFERENCE_DATE,
    });
    if (round2(open - bushels) <= 0)
      cachedStatement(db, "UPDATE contracts SET status = 'filled' WHERE contract_id = ?").run(contract_id);
    return {
      application,
      ticket_unapplied_bu: round2(left - bushels),
      contract_open_bu: round2(open - bushels),
    };
  },
});

const listBins = defineListTool({
  name: "list_bins",
  description:
    "List storage bins (elevator, crop, capacity, status filled or empty), ordered by id. Paginated: returns `bins`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    elevator_id: elevatorId.schema("Only this elevator's bins").optional(),
    status: optionalChoice(["filled", "empty"], "Only bins in this status"),
  },
  key: "bins",
  from: "bins",
  where: { elevator_id: "=", status: "=" },
  orderBy: "bin_id",
});

const listBinAlerts = defineListTool({
  name: "list_bin_alerts",
  description:
    "List bin temperature alerts (bin, raised on, open or closed, note), ordered by alert id. Paginated: returns `alerts`, `page`, `per_page`, `total`, `has_more`.",
  filters: {
    bin_id: binId.schema("Only this bin's alerts").optional(),
    status: optionalChoice(["open", "closed"], "Only alerts in this status"),
  },
  key: "alerts",
  from: "bin_alerts",
  where: { bin_id: "=", status: "=" },
  orderBy: "alert_id",
});

const raiseBinAlert = defineTool({
  name: "raise_bin_alert",
  description: `Raise an open temperature alert on a bin (dated ${REFERENCE_DATE}). Returns the new \`alert\`.`,
  kind: "write",
  inputSchema: z.object({
    bin_id: binId.schema("The bin"),
    note: z.string().min(3).max(200).describe("What was seen"),
  }),
  handler: ({ bin_id, note }, { db }: ToolContext) => {
    requireEntity(db, "bins", binId, bin_id);
    return {
      alert: insertRow(db, "bin_alerts", { bin_id, raised_on: REFERENCE_DATE, status: "open", note }),
    };
  },
});

/** Contracts whose record the contract service answers with an error body once. */
export const flakyContract = (id: string): boolean => Number(id.slice(2)) % 4 === 1;
/** Tickets whose application the accounting system answers with a 503 once. */
export const busyTicket = (id: string): boolean => Number(id.slice(2)) % 5 === 3;

/** The coop domain's tools, in the order agents see them. */
export const coopTools: DomainTool[] = [
  listElevators,
  listMembers,
  withTransientFailures(listTickets, { when: (input) => input.page === 3 }),
  getTicket,
  createTicket,
  listContracts,
  withSilentFailures(getContract, { when: (input) => flakyContract(input.contract_id) }),
  withTransientFailures(applyTicket, { when: (input) => busyTicket(input.ticket_id) }),
  listBins,
  listBinAlerts,
  raiseBinAlert,
] as DomainTool[];
