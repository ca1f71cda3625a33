import {
  addDays,
  between,
  dateRange,
  isWeekend,
  daysBetween,
  longDate,
  makeDate,
  personName,
  randomDate,
  renderMarkdown,
  roundCents,
  sample,
  slug,
  toCsv,
  toJsonDocument,
  weightedPick,
  renderEmail,
  type GenerateContext,
} from "../../envs/index.js";
import {
  CREDIT_REQUESTS,
  DUNNING,
  PATHS,
  PLANS,
  PRICE_CHANGE,
  SLA,
  customerId,
  invoiceId,
  paymentId,
  subscriptionId,
  type ContractTerms,
} from "./rules.js";

const REGIONS = ["NA", "EU", "APAC"] as const;
const SEGMENTS = ["smb", "mid_market", "enterprise"] as const;
/** The plans a segment buys (with their weights) and its range of seats. */
const SEGMENT_PLANS: Record<string, { plans: string[]; weights: number[]; seats: [number, number] }> = {
  smb: { plans: ["STARTER", "TEAM"], weights: [3, 2], seats: [2, 15] },
  mid_market: { plans: ["TEAM", "BUSINESS"], weights: [2, 2], seats: [12, 80] },
  enterprise: { plans: ["BUSINESS", "ENTERPRISE"], weights: [1, 3], seats: [40, 400] },
};
const SUFFIXES = ["Labs", "Systems", "Analytics", "Logistics", "Health", "Foods", "Media", "Group"];

interface Sub {
  id: string;
  customerId: string;
  plan: string;
  seats: number;
  start: string;
  status: string;
}

interface Contract extends ContractTerms {
  customer_name: string;
  signed_on: string;
}

/** The next anniversary of `start` strictly after `today`. */
function nextAnniversary(start: string, today: string): string {
  const month = Number(start.slice(5, 7));
  const day = Math.min(28, Number(start.slice(8, 10)));
  let year = Number(today.slice(0, 4)) - 1;
  let date = makeDate(year, month, day);
  while (date <= today) {
    year += 1;
    date = makeDate(year, month, day);
  }
  return date;
}

export function generateBilling(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate: today } = context;
  const customers: Array<{ id: string; name: string; segment: string; region: string; terms: number }> = [];
  const insertCustomer = db.prepare("INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?)");
  const insertContact = db.prepare(
    "INSERT INTO billing_contacts (customer_id, name, email, role) VALUES (?, ?, ?, ?)",
  );
  const names = new Set<string>();
  const emails = new Set<string>();
  const contactsOf = new Map<string, Array<{ name: string; email: string; role: string }>>();
  for (let n = 1; n <= 26 * factors.rows; n += 1) {
    let name = "";
    do name = `${faker.company.name().replace(/[,]/g, "")} ${random.pick(SUFFIXES)}`;
    while (names.has(name));
    names.add(name);
    const segment = weightedPick(random, SEGMENTS, [5, 3, 3]);
    const region = weightedPick(random, REGIONS, [5, 3, 2]);
    const terms = segment === "enterprise" ? 45 : segment === "mid_market" ? 30 : 15;
    const id = customerId.format(n);
    customers.push({ id, name, segment, region, terms });
    insertCustomer.run(id, name, region, segment, terms, randomDate(random, "2021-01-01", "2025-03-31"));
    const domain = `${slug(name).slice(0, 14)}.example`;
    const contacts: Array<{ name: string; email: string; role: string }> = [];
    for (const role of ["billing", "technical", ...(random.chance(0.5) ? ["executive"] : [])]) {
      const person = personName(faker, domain, emails);
      contacts.push({ name: person.fullName, email: person.email, role });
      insertContact.run(id, person.fullName, person.email, role);
    }
    contactsOf.set(id, contacts);
  }

  const customerOf = new Map(customers.map((customer) => [customer.id, customer]));

  // Plans and tiers.
  const insertPlan = db.prepare("INSERT INTO plans VALUES (?, ?, ?, ?, ?)");
  const insertTier = db.prepare("INSERT INTO price_tiers VALUES (?, ?, ?, ?, ?)");
  for (const plan of PLANS) {
    insertPlan.run(plan.code, plan.name, plan.seatPrice, plan.includedCalls, plan.slaEligible ? 1 : 0);
    plan.tiers.forEach(([from, to, price], index) => insertTier.run(plan.code, index + 1, from, to, price));
  }
  const planOf = new Map(PLANS.map((plan) => [plan.code, plan]));

  // Subscriptions.
  const subs: Sub[] = [];
  const insertSub = db.prepare("INSERT INTO subscriptions VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  for (const customer of customers) {
    const count = random.chance(0.2) ? 2 : 1;
    for (let k = 0; k < count; k += 1) {
      const { plans, weights, seats: seatRange } = SEGMENT_PLANS[customer.segment]!;
      const plan = weightedPick(random, plans, weights);
      const seats = random.int(...seatRange);
      const start = randomDate(random, "2022-07-01", "2025-05-20");
      const status = weightedPick(random, ["active", "cancelled"], [19, 1]);
      const sub: Sub = {
        id: subscriptionId.format(subs.length + 1),
        customerId: customer.id,
        plan,
        seats,
        start,
        status,
      };
      subs.push(sub);
      insertSub.run(sub.id, sub.customerId, plan, seats, start, nextAnniversary(start, today), status, null);
    }
  }

  // Usage: daily API calls from late April to early June.
  const insertUsage = db.prepare(
    "INSERT INTO usage_records (subscription_id, usage_date, api_calls) VALUES (?, ?, ?)",
  );
  for (const sub of subs) {
    if (sub.status === "cancelled") continue;
    const plan = planOf.get(sub.plan)!;
    const monthly = plan.includedCalls * between(random, 0.4, sub.plan === "ENTERPRISE" ? 2.6 : 4.5);
    for (const date of dateRange("2025-04-29", "2025-06-02")) {
      if (date < sub.start) continue;
      const weekend = isWeekend(date) ? 0.4 : 1;
      insertUsage.run(sub.id, date, Math.round((monthly / 31) * between(random, 0.6, 1.4) * weekend));
    }
  }

  // Contracts of some enterprise customers.
  const enterpriseSubs = subs.filter(
    (sub) => customerOf.get(sub.customerId)!.segment === "enterprise" && sub.status === "active",
  );
  const contractSubs = sample(random, enterpriseSubs, 4 * factors.files);
  const contracts = new Map<string, Contract>();
  contractSubs.forEach((sub, index) => {
    const customer = customerOf.get(sub.customerId)!;
    const committed = Math.max(20, Math.round(sub.seats * between(random, 0.7, 1.0)));
    const contract: Contract = {
      contract_id: `MSA-${2023 + (index % 3)}-${String(index + 101)}`,
      customer_id: customer.id,
      customer_name: customer.name,
      subscription_id: sub.id,
      signed_on: randomDate(random, "2023-01-01", "2025-02-28"),
      discount_pct: random.pick([8, 10, 12, 15, 18, 20]),
      discount_cap_per_invoice: random.pick([500, 750, 1000, 1500, 2500]),
      committed_seats: committed,
      // Some subscriptions have grown past the contracted maximum.
      max_seats: random.chance(0.35) ? sub.seats - random.int(1, 10) : sub.seats + random.int(0, 60),
    };
    contracts.set(sub.id, contract);
    context.writeFile(
      `${PATHS.contractsDir}/${contract.contract_id}.json`,
      toJsonDocument({
        document: "Order form excerpt - negotiated commercial terms",
        ...contract,
        notes:
          "Discount applies to seat charges only (not to usage overage) and is limited to the cap per invoice.",
      }),
    );
  });

  // Invoices (issued on the billing day of each month, March to June), lines and payments.
  const insertInvoice = db.prepare("INSERT INTO invoices VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertLine = db.prepare("INSERT INTO invoice_lines VALUES (?, ?, ?, ?, ?, ?, ?)");
  const insertPayment = db.prepare("INSERT INTO payments VALUES (?, ?, ?, ?, ?, ?, ?)");
  let invoiceCount = 0;
  let paymentCount = 0;
  const pay = (
    invoice: string,
    attempt: number,
    on: string,
    amount: number,
    status: string,
    code: string | null,
  ) => insertPayment.run(paymentId.format(++paymentCount), invoice, attempt, on, amount, status, code);
  const paymentPlanCustomers = new Set<string>();
  for (const sub of subs) {
    const plan = planOf.get(sub.plan)!;
    const customer = customerOf.get(sub.customerId)!;
    const day = Math.min(28, Number(sub.start.slice(8, 10)));
    for (const month of [3, 4, 5, 6]) {
      const issued = makeDate(2025, month, day);
      if (issued < sub.start || issued > today) continue;
      if (sub.status === "cancelled" && month > 4) continue;
      const id = invoiceId.format(++invoiceCount);
      const seatAmount = roundCents(sub.seats * plan.seatPrice);
      const overage = month <= 5 && random.chance(0.4) ? roundCents(between(random, 20, 900)) : 0;
      const contract = contracts.get(sub.id);
      let discount = 0;
      if (contract) {
        discount = Math.min(
          roundCents((seatAmount * contract.discount_pct) / 100),
          contract.discount_cap_per_invoice,
        );
        if (random.chance(0.15)) discount = roundCents((seatAmount * contract.discount_pct) / 100);
      }
      const subtotal = roundCents(seatAmount + overage);
      const total = roundCents(subtotal - discount);
      const due = addDays(issued, customer.terms);
      const periodEnd = addDays(makeDate(2025, month + 1, day), -1);
      // Outcome: most invoices are paid; some past due with failed attempts.
      const age = daysBetween(due, today);
      const unpaid = age >= 0 && random.chance(age > 40 ? 0.12 : 0.25);
      const status = age < 0 ? (random.chance(0.5) ? "paid" : "open") : unpaid ? "open" : "paid";
      insertInvoice.run(
        id,
        customer.id,
        sub.id,
        issued,
        periodEnd,
        issued,
        due,
        status,
        subtotal,
        discount,
        total,
      );
      let line = 0;
      insertLine.run(id, ++line, "seats", `${plan.name} seats`, sub.seats, plan.seatPrice, seatAmount);
      if (overage > 0)
        insertLine.run(id, ++line, "overage", "API usage overage, previous month", 1, overage, overage);
      if (discount > 0) insertLine.run(id, ++line, "discount", "Contract discount", 1, -discount, -discount);
      if (status === "paid") {
        if (random.chance(0.2)) pay(id, 1, due, total, "failed", random.pick(DUNNING.softDeclines));
        pay(id, random.chance(0.2) ? 2 : 1, addDays(due, random.int(0, 5)), total, "succeeded", null);
      } else if (age >= 0) {
        const hard = random.chance(0.2);
        const code = hard ? random.pick(DUNNING.hardDeclines) : random.pick(DUNNING.softDeclines);
        pay(id, 1, due, total, "failed", code);
        if (!hard)
          for (const [attempt, after] of DUNNING.retryDays)
            if (after < age) pay(id, attempt, addDays(due, after), total, "failed", code);
        if (age > 60 && sub.status !== "cancelled" && random.chance(0.3))
          paymentPlanCustomers.add(customer.id);
      }
    }
  }
  if (paymentPlanCustomers.size === 0) {
    const oldest = db
      .prepare(
        `SELECT i.customer_id FROM invoices i JOIN subscriptions s ON s.subscription_id = i.subscription_id
          WHERE i.status = 'open' AND s.status != 'cancelled' ORDER BY i.due_on, i.invoice_id LIMIT 1`,
      )
      .get() as { customer_id: string } | undefined;
    if (oldest) paymentPlanCustomers.add(oldest.customer_id);
  }
  // Past-due subscriptions: the status shows the open balance.
  db.prepare(
    `UPDATE subscriptions SET status = 'past_due' WHERE status = 'active' AND subscription_id IN
       (SELECT subscription_id FROM invoices WHERE status = 'open' AND due_on < ?)`,
  ).run(today);

  context.writeFile(
    PATHS.dunning,
    renderMarkdown("Dunning policy", [
      `Effective ${longDate("2024-11-01")}. Owner: Finance Operations.`,
      { heading: "Payment retry schedule" },
      "When a card or direct-debit payment fails, collections retries it on a fixed schedule counted from the date of the FIRST failed attempt on the invoice (not from the latest attempt).",
      {
        table: {
          headers: ["attempt", "days after first failure"],
          rows: DUNNING.retryDays.map(([attempt, days]) => [attempt, days]),
        },
      },
      `Hard declines are never retried: ${DUNNING.hardDeclines.map((code) => `\`${code}\``).join(", ")}. After attempt 4 no further automatic retries are made.`,
      { heading: "Suspension" },
      `A subscription is suspended when any of its invoices is still open MORE than ${DUNNING.suspendAfterDays} days after its due date. Subscriptions already suspended or cancelled are left as they are.`,
      { heading: "Payment plan exceptions" },
      "The following accounts have an agreed payment plan with Finance and must not be suspended while the plan is in place:",
      {
        bullets:
          paymentPlanCustomers.size > 0
            ? [...paymentPlanCustomers].sort().map((id) => `${id} - ${customerOf.get(id)!.name}`)
            : ["(none at present)"],
      },
    ]),
  );
  context.writeFile(
    PATHS.priceBook,
    renderMarkdown("Price book (current)", [
      "Seat prices are per seat per month. Each subscription includes a monthly allowance of API calls; calls beyond the allowance are overage.",
      { heading: "Plans" },
      {
        table: {
          headers: ["plan", "seat price (USD)", "included API calls / month", "SLA"],
          rows: PLANS.map((plan) => [
            plan.code,
            plan.seatPrice.toFixed(2),
            plan.includedCalls,
            plan.slaEligible ? "yes" : "no",
          ]),
        },
      },
      { heading: "Overage pricing" },
      "Overage tiers are GRADUATED: each slice of the overage is billed at its own tier's rate (tiers in the billing system, get_plan). A tier's range counts overage calls, i.e. calls beyond the included allowance.",
    ]),
  );
  context.writeFile(
    PATHS.pricingMemo,
    renderMarkdown("Pricing change - Team and Business seats", [
      `From: Revenue Operations. Date: ${longDate(PRICE_CHANGE.announcedOn)}.`,
      `Effective ${longDate(PRICE_CHANGE.effective)}, seat prices change as follows (other plans unchanged):`,
      {
        table: {
          headers: ["plan", "new seat price (USD)"],
          rows: Object.entries(PRICE_CHANGE.newPrices).map(([plan, price]) => [plan, price.toFixed(2)]),
        },
      },
      { heading: "Grandfathering" },
      `Subscriptions that started before ${longDate(PRICE_CHANGE.grandfatherStartedBefore)} keep their current seat price until their next renewal date; from the renewal date on they pay the new price. Subscriptions that started on or after that date pay the new price from the effective date.`,
    ]),
  );

  // SLA: uptime per region per day for May.
  const uptimeRows: Array<Array<string | number>> = [];
  const badRegion = random.pick(REGIONS);
  const majorOutage = randomDate(random, "2025-05-05", "2025-05-28");
  for (const region of REGIONS) {
    for (const date of dateRange("2025-05-01", "2025-05-31")) {
      const major = region === badRegion && date === majorOutage;
      const incident = major || random.chance(region === badRegion ? 0.25 : 0.08);
      if (!incident) continue;
      const maintenance = !major && random.chance(0.3);
      const minutes = major
        ? random.int(480, 600)
        : region === badRegion && !maintenance
          ? random.int(20, 260)
          : random.int(5, 60);
      uptimeRows.push([
        date,
        region,
        `INC-${date.slice(5).replace("-", "")}${region}`,
        minutes,
        maintenance ? "yes" : "no",
      ]);
    }
  }
  context.writeFile(
    PATHS.uptime,
    toCsv(["date", "region", "incident", "downtime_minutes", "scheduled_maintenance"], uptimeRows),
  );
  context.writeFile(
    PATHS.sla,
    renderMarkdown("SLA credit policy", [
      "Applies to subscriptions on plans marked SLA-eligible in the price book. Uptime is measured per region per calendar month: uptime % = 100 x (1 - downtime minutes / minutes in the month). Downtime during scheduled maintenance announced in advance does not count.",
      { heading: "Credit tiers" },
      {
        table: {
          headers: ["monthly uptime below (%)", "credit (% of the month's seat charges)"],
          rows: SLA.tiers.map(([below, pct]) => [below.toFixed(1), pct]),
        },
      },
      "Only the highest credit percentage reached applies (credits do not add up). The credit is computed on the seat charges of the invoice issued in the month of the outage, before any discount, rounded to cents, and issued as one credit note against that invoice. Subscriptions that are cancelled get no credit, and a void invoice (cancelled, nothing was charged) gets no credit note.",
    ]),
  );

  // Support inbox: credit requests (the verifier re-reads them).
  const openable = db
    .prepare(
      "SELECT invoice_id, customer_id, issued_on, total FROM invoices WHERE issued_on BETWEEN '2025-04-01' AND '2025-05-15' ORDER BY invoice_id",
    )
    .all() as Array<{ invoice_id: string; customer_id: string; issued_on: string; total: number }>;
  const emailCount = 4 * factors.files;
  const picked = sample(random, openable, emailCount);
  picked.forEach((invoice, index) => {
    const contacts = contactsOf.get(invoice.customer_id)!;
    // 0: a qualifying sender in time, 1: a non-billing contact, 2: another account's contact, 3: too late.
    const kind = index % 4;
    const sender =
      kind === 1
        ? contacts.find((c) => c.role !== "billing")!
        : kind === 2
          ? contactsOf
              .get(random.pick(customers.filter((c) => c.id !== invoice.customer_id)).id)!
              .find((c) => c.role === "billing")!
          : contacts.find((c) => c.role === "billing")!;
    const offset =
      kind === 3 ? random.int(CREDIT_REQUESTS.windowDays + 1, 45) : random.int(2, CREDIT_REQUESTS.windowDays);
    const sent = addDays(invoice.issued_on, index === 0 ? CREDIT_REQUESTS.windowDays : offset);
    const requested = roundCents(invoice.total * between(random, index === 0 ? 0.25 : 0.05, 0.4));
    const reason = random.pick([
      "we were billed for seats we removed at the start of the period",
      "the API was unreachable for most of a business day",
      "the invoice shows overage we believe was caused by a retry loop in your SDK",
      "our purchase order was not applied",
    ]);
    context.writeFile(
      `${PATHS.inboxDir}/${sent}-${String(index + 1).padStart(3, "0")}.md`,
      renderEmail(
        {
          From: `${sender.name} <${sender.email}>`,
          Date: sent,
          Subject: `Credit request for invoice ${invoice.invoice_id}`,
        },
        [
          "Hello billing team,",
          `Regarding invoice ${invoice.invoice_id}: ${reason}. We'd like to request a credit of $${requested.toFixed(2)}.`,
          `Thanks,\n${sender.name}`,
        ],
      ),
    );
  });
  context.writeFile(
    PATHS.creditPolicy,
    renderMarkdown("Credit request policy", [
      "Credit requests that arrive by email are granted when all of these hold:",
      {
        numbered: [
          "the sender is a contact with the `billing` role on the account that owns the invoice (check the account's billing contacts);",
          `the email is dated no more than ${CREDIT_REQUESTS.windowDays} days after the invoice's issue date;`,
          "the invoice is not void.",
        ],
      },
      `The credit granted is the amount requested, capped at ${CREDIT_REQUESTS.capPct}% of the invoice total (rounded to cents).`,
    ]),
  );
}
