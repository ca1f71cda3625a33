import { addDays, dateTime, slug, type GenerateContext } from "../../envs/index.js";
import { STORE_EMAIL_DOMAIN } from "./catalog.js";
import type { CustomerDraft } from "./model.js";
import { BASE_SIZES } from "./sizes.js";

export function makeCustomers(context: GenerateContext): CustomerDraft[] {
  const { random, faker, factors } = context;
  const today = context.referenceDate.slice(0, 10);
  const count = BASE_SIZES.customers * factors.rows;
  const testPositions = new Set<number>();
  while (testPositions.size < BASE_SIZES.testAccounts) testPositions.add(random.int(5, count - 1));
  const employeePositions = new Set<number>();
  while (employeePositions.size < 2) {
    const position = random.int(5, count - 1);
    if (!testPositions.has(position)) employeePositions.add(position);
  }
  const usedEmails = new Set<string>();
  const customers: CustomerDraft[] = [];
  let testNumber = 0;
  const mailDomains = [
    "gmail.com",
    "yahoo.com",
    "outlook.com",
    "icloud.com",
    "hotmail.com",
    "proton.me",
    "aol.com",
  ];
  for (let index = 0; index < count; index += 1) {
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    let kind: CustomerDraft["kind"] = "shopper";
    let email: string;
    let first = firstName;
    let last = lastName;
    if (testPositions.has(index)) {
      kind = "test";
      testNumber += 1;
      first = "QA";
      last = `Checkout ${testNumber}`;
      email = `qa-checkout-${testNumber}@${STORE_EMAIL_DOMAIN}`;
    } else if (employeePositions.has(index)) {
      kind = "employee";
      email = `${slug(firstName)}.${slug(lastName)}@${STORE_EMAIL_DOMAIN}`;
    } else {
      const style = random.int(0, 3);
      const base =
        style === 0
          ? `${slug(firstName)}.${slug(lastName)}`
          : style === 1
            ? `${slug(firstName)[0] ?? "x"}${slug(lastName)}`
            : style === 2
              ? `${slug(firstName)}${slug(lastName)}${random.int(1, 99)}`
              : `${slug(lastName)}.${slug(firstName)}${random.int(70, 99)}`;
      email = `${base}@${random.pick(mailDomains)}`;
    }
    while (usedEmails.has(email)) email = email.replace("@", `${random.int(0, 9)}@`);
    usedEmails.add(email);
    const tierRoll = random.next();
    customers.push({
      id: 10001 + index,
      firstName: first,
      lastName: last,
      email,
      phone: faker.phone.number({ style: "national" }),
      city: faker.location.city(),
      state: faker.location.state({ abbreviated: true }),
      postalCode: faker.location.zipCode("#####"),
      loyaltyTier:
        kind === "test" ? "standard" : tierRoll < 0.13 ? "gold" : tierRoll < 0.38 ? "silver" : "standard",
      marketingOptIn: random.chance(0.55),
      createdAt: dateTime(addDays(today, -random.int(130, 1100)), random.int(0, 86_399)),
      kind,
      weight: kind === "test" ? 0.6 : 0.4 + random.next() ** 3 * 5,
    });
  }
  return customers;
}

export function testAccountIds(customers: CustomerDraft[]): Set<number> {
  return new Set(customers.filter((customer) => customer.kind === "test").map((customer) => customer.id));
}
