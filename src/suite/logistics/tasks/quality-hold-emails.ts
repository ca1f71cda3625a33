import {
  addDays,
  allRows,
  cachedStatement,
  check,
  checkStateDiff,
  defineTask,
  getRow,
  parseAnswerJson,
  writeEmailsBySent,
  type Check,
  type GenerateContext,
  type StateView,
  type VerifyContext,
} from "../../../envs/index.js";
import { logisticsDomain } from "../domain.js";
import { optionNearMisses } from "./checks.js";
import { PYTHON_HELPERS } from "./python-helpers.js";

export const INBOX_DIRECTORY = "inbox";

interface LotRow {
  lot_id: string;
  sku: string;
  warehouse_id: string;
  bin_location: string;
  status: string;
}

/** The lot status each email asks for, in the order the email states it. */
function requests(state: Pick<StateView, "db">, text: string): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const hold = /Please put lot (LOT-\d+) .*? on hold/.exec(text);
  if (hold?.[1]) found.push([hold[1], "quarantine"]);
  const bin = /At (WH-[A-Z]+), bin ([A-Z]-\d{2}-\d), the cases of (SKU-\d+)/.exec(text);
  if (bin) {
    const lot = getRow<{ lot_id: string }>(
      state.db,
      "SELECT lot_id FROM inventory_lots WHERE warehouse_id = ? AND bin_location = ? AND sku = ? ORDER BY lot_id",
      bin[1],
      bin[2],
      bin[3],
    );
    if (lot) found.push([lot.lot_id, "quarantine"]);
  }
  const clean = /Lab results for lot (LOT-\d+) came back clean/.exec(text);
  if (clean?.[1]) found.push([clean[1], "available"]);
  const wrong = /(LOT-\d+) is fine and must stay available/.exec(text);
  if (wrong?.[1]) found.push([wrong[1], "available"]);
  const meant = /the pallet I meant is (LOT-\d+)/.exec(text);
  if (meant?.[1]) found.push([meant[1], "quarantine"]);
  return found;
}

/** The status changes the inbox asks for: the latest request per lot, where it differs from the system. */
export function expectedLotChanges(state: StateView): Map<string, string> {
  const emails = state
    .listFiles()
    .filter((path) => path.startsWith(`${INBOX_DIRECTORY}/`))
    .map((path) => state.readFile(path) ?? "")
    .map((text) => ({ sent: /^Sent: (.*)$/m.exec(text)?.[1] ?? "", text }))
    .sort((x, y) => x.sent.localeCompare(y.sent));
  const wanted = new Map<string, string>();
  for (const email of emails)
    for (const [lot, status] of requests(state, email.text)) wanted.set(lot, status);
  const changes = new Map<string, string>();
  for (const [lot, status] of [...wanted].sort((x, y) => x[0].localeCompare(y[0]))) {
    const current = getRow<{ status: string }>(
      state.db,
      "SELECT status FROM inventory_lots WHERE lot_id = ?",
      lot,
    )?.status;
    if (current !== undefined && current !== status) changes.set(lot, status);
  }
  return changes;
}

/**
 * The quality inbox: per round a hold by lot id, a hold by bin (the bin holds that one lot only, so "the
 * stock in that bin" is unambiguous; the SKU has other lots in other bins at that warehouse), a release
 * of a quarantined lot, a hold corrected a few hours later to another lot, and an FYI that asks for
 * nothing.
 */
function prepare(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate } = context;
  const lots = random.shuffle(
    allRows<LotRow>(
      db,
      "SELECT lot_id, sku, warehouse_id, bin_location, status FROM inventory_lots ORDER BY lot_id",
    ),
  );
  const products = allRows<{ sku: string; name: string }>(db, "SELECT sku, name FROM products");
  const names = new Map(products.map(({ sku, name }) => [sku, name]));
  const used = new Set<string>();
  const take = (test: (lot: LotRow) => boolean): LotRow | undefined => {
    const lot = lots.find((candidate) => !used.has(candidate.lot_id) && test(candidate));
    if (lot) used.add(lot.lot_id);
    return lot;
  };
  const available = (lot: LotRow): boolean => lot.status === "available";
  const siblings = (lot: LotRow): LotRow[] =>
    lots.filter((other) => other.warehouse_id === lot.warehouse_id && other.sku === lot.sku);
  const inspectors = [0, 1].map(() => `${faker.person.firstName()} ${faker.person.lastName()}`);
  const email = (name: string): string =>
    `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@northstar-dist.example`;
  const emails: Array<{ from: string; sent: string; subject: string; body: string }> = [];
  const causes = [
    "a torn stretch wrap and crushed corner cases",
    "signs of a temperature excursion",
    "pest activity",
  ];
  for (let round = 0; round < factors.files; round += 1) {
    const day = addDays(referenceDate, -1 - round);
    const inspector = inspectors[round % 2] as string;
    const held = take(available);
    if (held)
      emails.push({
        from: inspector,
        sent: `${day} 08:15`,
        subject: `Hold request: ${held.lot_id}`,
        body: `Please put lot ${held.lot_id} (${held.sku}, ${held.warehouse_id}) on hold: the inbound check found ${causes[round % causes.length] ?? "damage"}. Keep it in quarantine until Quality has inspected it.`,
      });
    const inBin = take(
      (lot) =>
        available(lot) &&
        siblings(lot).filter(available).length >= 2 &&
        lots.filter(
          (other) => other.warehouse_id === lot.warehouse_id && other.bin_location === lot.bin_location,
        ).length === 1,
    );
    if (inBin)
      emails.push({
        from: `${faker.person.firstName()} ${faker.person.lastName()}`,
        sent: `${day} 10:40`,
        subject: `Water damage at ${inBin.warehouse_id}`,
        body: `Roof leak overnight. At ${inBin.warehouse_id}, bin ${inBin.bin_location}, the cases of ${inBin.sku} (${names.get(inBin.sku) ?? "product"}) are wet through. Please quarantine the stock in that bin until Quality has looked at it; the same SKU in other bins is dry and fine to pick.`,
      });
    let quarantined = take((lot) => lot.status === "quarantine");
    if (!quarantined) {
      quarantined = take(available);
      if (quarantined)
        cachedStatement(db, "UPDATE inventory_lots SET status = 'quarantine' WHERE lot_id = ?").run(
          quarantined.lot_id,
        );
    }
    if (quarantined)
      emails.push({
        from: inspector,
        sent: `${addDays(day, 1)} 07:30`,
        subject: `Release ${quarantined.lot_id}`,
        body: `Lab results for lot ${quarantined.lot_id} came back clean. Please release it back to available stock.`,
      });
    const wrong = take(available);
    const meant = take(available);
    if (wrong && meant) {
      emails.push({
        from: inspector,
        sent: `${day} 13:05`,
        subject: `Hold request: ${wrong.lot_id}`,
        body: `Please put lot ${wrong.lot_id} (${wrong.sku}, ${wrong.warehouse_id}) on hold: a customer reported foreign material in a case from this pallet.`,
      });
      emails.push({
        from: inspector,
        sent: `${day} 16:20`,
        subject: `Re: Hold request: ${wrong.lot_id}`,
        body: `Scratch that, I copied the wrong lot number. ${wrong.lot_id} is fine and must stay available; the pallet I meant is ${meant.lot_id} (${meant.sku}, ${meant.warehouse_id}). Please quarantine that one instead.`,
      });
    }
    const counted = take(available);
    if (counted)
      emails.push({
        from: `${faker.person.firstName()} ${faker.person.lastName()}`,
        sent: `${day} 11:50`,
        subject: `Cycle count ${counted.lot_id}`,
        body: `FYI: lot ${counted.lot_id} was recounted during the cycle count and checked for damage. No issues found, nothing to do.`,
      });
  }
  const headers = (item: (typeof emails)[number]) => ({
    From: `${item.from} <${email(item.from)}>`,
    Sent: item.sent,
    Subject: item.subject,
  });
  const folder = emails.map((item) => ({ headers: headers(item), body: item.body }));
  writeEmailsBySent(context, `${INBOX_DIRECTORY}/message-`, folder, { digits: 3 });
}

function verify({ initial, final, answer }: VerifyContext): Check[] {
  const expected = expectedLotChanges(initial);
  const parsed = parseAnswerJson(answer) as { quarantined?: unknown; released?: unknown } | null;
  const list = (value: unknown): string[] | null =>
    Array.isArray(value) ? value.map((item) => String(item).trim().toUpperCase()).sort() : null;
  const wantedOf = (status: string): string[] =>
    [...expected].filter(([, value]) => value === status).map(([lot]) => lot);
  const same = (given: string[] | null, wanted: string[]): boolean =>
    given !== null && given.length === wanted.length && wanted.every((lot) => given.includes(lot));
  const answerOk =
    same(list(parsed?.quarantined), wantedOf("quarantine")) &&
    same(list(parsed?.released), wantedOf("available"));
  return [
    ...checkStateDiff(initial.db, final.db, [
      {
        table: "inventory_lots",
        key: "lot_id",
        changed: new Map([...expected].map(([lot, status]) => [lot, { status }])),
      },
    ]),
    check(
      "answer-lots",
      answerOk,
      answerOk
        ? "answer lists the held and released lots"
        : `expected {"quarantined": ${JSON.stringify(wantedOf("quarantine"))}, "released": ${JSON.stringify(wantedOf("available"))}}, found '${answer.slice(0, 200)}'`,
    ),
  ];
}

interface Options {
  subjectOnly?: boolean;
  wholeSku?: boolean;
  holdsOnly?: boolean;
}

function cells(options: Options = {}): string[] {
  return [
    PYTHON_HELPERS,
    String.raw`
messages = []
for path in folder_paths("inbox"):
    text = read_text(path)
    sent = re.search(r"^Sent: (.*)$", text, re.M).group(1)
    subject = re.search(r"^Subject: (.*)$", text, re.M).group(1)
    messages.append((sent, subject, text))
messages.sort()
for sent, subject, text in messages:
    print(sent, "|", subject)
`,
    String.raw`
def lots_in_bin(warehouse, bin_location, sku):
    lots = fetch_all("list_inventory_lots", "lots", warehouse_id=warehouse, sku=sku)
    return [lot["lot_id"] for lot in lots if ${options.wholeSku ? 'lot["status"] == "available"' : 'lot["bin_location"] == bin_location'}]

wanted = {}
for sent, subject, text in messages:
    asks = []
    ${
      options.subjectOnly
        ? String.raw`match = re.search(r"Hold request: (LOT-\d+)", subject)
    if match:
        asks.append((match.group(1), "quarantine"))`
        : String.raw`match = re.search(r"Please put lot (LOT-\d+) .*? on hold", text)
    if match:
        asks.append((match.group(1), "quarantine"))
    match = re.search(r"(LOT-\d+) is fine and must stay available", text)
    if match:
        asks.append((match.group(1), "available"))
    match = re.search(r"the pallet I meant is (LOT-\d+)", text)
    if match:
        asks.append((match.group(1), "quarantine"))`
    }
    match = re.search(r"At (WH-[A-Z]+), bin ([A-Z]-\d{2}-\d), the cases of (SKU-\d+)", text)
    if match:
        asks += [(lot, "quarantine") for lot in lots_in_bin(*match.groups())]
    match = re.search(r"Lab results for lot (LOT-\d+) came back clean", text)
    if match and ${options.holdsOnly ? "False" : "True"}:
        asks.append((match.group(1), "available"))
    for lot, status in asks:
        wanted[lot] = status
print(wanted)
`,
    String.raw`
held, released = [], []
for lot_id, status in sorted(wanted.items()):
    lot = tools.get_inventory_lot(lot_id=lot_id)["lot"]
    if lot["status"] == status:
        continue
    tools.set_lot_status(lot_id=lot_id, status=status, reason="quality inbox request")
    (held if status == "quarantine" else released).append(lot_id)
print(json.dumps({"quarantined": held, "released": released}))
`,
  ];
}

export const qualityHoldEmailsTask = defineTask({
  id: "logistics.quality-hold-emails",
  domain: logisticsDomain,
  summary:
    "Action the quality inbox: hold requests by lot id or by warehouse bin and SKU, releases after clean lab results, a hold corrected to another lot, and FYIs that ask for nothing; the latest request per lot decides, checked by state difference.",
  instruction:
    'Quality here. Our inspectors and DC managers have emailed hold and release requests for inventory lots; they are in the inbox folder. Please action them in the inventory system: quarantine the stock they ask to hold and release the lots they clear, going by the latest word on each lot, and leave everything else as it is. Reply with only a JSON object {"quarantined": [<lot ids you put on hold>], "released": [<lot ids you released to available stock>]}.',
  tools: [
    "list_warehouses",
    "list_products",
    "get_product",
    "list_inventory_lots",
    "get_inventory_lot",
    "set_lot_status",
  ],
  prepare,
  verify,
  oracle: cells(),
  nearMisses: optionNearMisses(cells, {
    "subject-only": [
      { subjectOnly: true },
      "Decides from the subject lines, so the correction holds the wrong lot and misses the one meant.",
    ],
    "whole-sku": [
      { wholeSku: true },
      "Quarantines every lot of the SKU at the warehouse instead of the one bin named.",
    ],
    "holds-only": [{ holdsOnly: true }, "Actions the holds but never releases the lot cleared by the lab."],
  }),
});
