import {
  addDays,
  daysBetween,
  earlierDate,
  personName,
  randomAmount,
  randomDate,
  roundCents,
  sample,
  weightedPick,
  type GenerateContext,
} from "../../envs/index.js";
import { writeClaimsDocuments } from "./documents.js";
import { adjusterId, claimId, endorsementId, paymentId, policyId, policyholderId } from "./ids.js";
import {
  AUTO_CAUSES,
  EXTENDED_NOTICE_DAYS,
  NOTICE_DAYS,
  EXCLUSIONS,
  HOME_CAUSES,
  MINIMUM_RESERVES,
  REGIONS,
  SUBLIMITS,
  ZIP_PREFIX,
  type CatEvent,
} from "./rules.js";

interface PolicyRow {
  id: string;
  holderName: string;
  line: "home" | "auto";
  limit: number;
  deductible: number;
  effective: string;
  expiration: string;
  state: string;
  zip: string;
  endorsements: Set<string>;
}

export interface AdjusterRow {
  id: string;
  name: string;
  region: string;
  states: string[];
  status: "active" | "inactive";
}

export interface ClaimRow {
  id: string;
  policy: PolicyRow;
  adjuster: AdjusterRow;
  loss: string;
  reported: string;
  cause: string;
  zip: string;
  status: "open" | "closed" | "denied";
  reserve: number;
  catCode: string | null;
}

const STATES = Object.values(REGIONS).flat();
const ENDORSEMENTS: Record<string, string> = {
  FLOOD_BUYBACK: "Flood coverage buy-back: restores coverage for flood and surface water",
  EXT_NOTICE: "Extended notice of loss period",
  WATER_BACKUP: "Sewer and drain water back-up coverage",
  SCHEDULED_JEWELRY: "Scheduled personal property: jewelry",
  RENTAL_REIMBURSEMENT: "Rental car reimbursement while the vehicle is repaired",
};
const EVENT_NAMES = ["Spring derecho", "Hailstorm", "Severe thunderstorm", "Tornado outbreak", "Windstorm"];
const EVENT_PERILS: ReadonlyArray<readonly string[]> = [["wind", "hail"], ["hail"], ["wind"]];

function causeFor(context: GenerateContext, line: "home" | "auto"): string {
  return line === "home"
    ? weightedPick(context.random, HOME_CAUSES, [5, 4, 2, 2, 5, 2, 1])
    : weightedPick(context.random, AUTO_CAUSES, [6, 3, 2, 2, 2]);
}

const sublimitOf = (line: string, cause: string): number | undefined =>
  SUBLIMITS.find((row) => row[0] === line && row[1] === cause)?.[2];

function capOf(policy: PolicyRow, cause: string): number {
  return Math.min(policy.limit, sublimitOf(policy.line, cause) ?? Infinity) - policy.deductible;
}

export function generateClaims(context: GenerateContext): void {
  const { db, random, faker, factors, referenceDate } = context;
  const emails = new Set<string>();
  const zips = new Map<string, string[]>();
  for (const state of STATES) {
    const pool = new Set<string>();
    while (pool.size < 6 + 2 * factors.rows) pool.add(`${ZIP_PREFIX[state]}${String(random.int(100, 999))}`);
    zips.set(state, [...pool].sort());
  }

  const insertHolder = db.prepare("INSERT INTO policyholders VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  const insertPolicy = db.prepare("INSERT INTO policies VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertEndorsement = db.prepare("INSERT INTO endorsements VALUES (?, ?, ?, ?, ?)");
  const policies: PolicyRow[] = [];
  let endorsementCount = 0;
  for (let n = 1; n <= 48 * factors.rows; n += 1) {
    const person = personName(faker, "mailbox.example", emails);
    const state = random.pick(STATES);
    const zip = random.pick(zips.get(state) ?? []);
    const holder = policyholderId.format(n);
    const since = randomDate(random, addDays(referenceDate, -3650), addDays(referenceDate, -400));
    insertHolder.run(
      holder,
      person.fullName,
      person.email,
      faker.phone.number({ style: "national" }),
      faker.location.city(),
      state,
      zip,
      since,
    );
    const lines: Array<"home" | "auto"> = random.chance(0.35)
      ? ["home", "auto"]
      : [random.chance(0.55) ? "home" : "auto"];
    for (const line of lines) {
      const effective = randomDate(random, addDays(referenceDate, -700), addDays(referenceDate, -15));
      const expiration = addDays(effective, 365);
      const policy: PolicyRow = {
        id: policyId.format(policies.length + 1),
        holderName: person.fullName,
        line,
        limit: line === "home" ? 5000 * random.int(30, 120) : 5000 * random.int(3, 12),
        deductible: line === "home" ? random.pick([500, 1000, 2500]) : random.pick([250, 500, 1000]),
        effective,
        expiration,
        state,
        zip,
        endorsements: new Set(),
      };
      policies.push(policy);
      const status = expiration <= referenceDate ? "expired" : random.chance(0.04) ? "cancelled" : "active";
      insertPolicy.run(
        policy.id,
        holder,
        line,
        line === "home" ? "HO-3 dwelling" : random.pick(["full coverage", "collision and comprehensive"]),
        policy.limit,
        policy.deductible,
        effective,
        expiration,
        state,
        status,
      );
      const offered =
        line === "home"
          ? ["FLOOD_BUYBACK", "EXT_NOTICE", "WATER_BACKUP", "SCHEDULED_JEWELRY"]
          : ["EXT_NOTICE", "RENTAL_REIMBURSEMENT"];
      for (const code of offered) {
        if (!random.chance(code === "FLOOD_BUYBACK" ? 0.3 : 0.18)) continue;
        policy.endorsements.add(code);
        endorsementCount += 1;
        insertEndorsement.run(
          endorsementId.format(endorsementCount),
          policy.id,
          code,
          ENDORSEMENTS[code],
          effective,
        );
      }
    }
  }

  const adjusters: AdjusterRow[] = [];
  for (const [region, states] of Object.entries(REGIONS)) {
    for (let k = 0; k < 2 + factors.rows; k += 1) {
      const person = personName(faker, "regional-mutual.example", emails);
      const licensed = k % 3 === 2 ? [states[k % 2] ?? ""] : [...states];
      if (random.chance(0.25))
        licensed.push(random.pick(STATES.filter((state) => !licensed.includes(state))));
      adjusters.push({ id: "", name: person.fullName, region, states: licensed.sort(), status: "active" });
    }
  }
  const shuffled = random.shuffle(adjusters);
  shuffled.forEach((adjuster, index) => (adjuster.id = adjusterId.format(index + 1)));
  shuffled.sort((a, b) => a.id.localeCompare(b.id));
  const retired = shuffled.find((adjuster) => adjuster.states.length === 1);
  if (retired) retired.status = "inactive";
  const onLeave = random.pick(
    shuffled.filter((adjuster) => adjuster.status === "active" && adjuster.states.length >= 2),
  );
  const returned = random.pick(
    shuffled.filter((adjuster) => adjuster.status === "active" && adjuster !== onLeave),
  );
  const insertAdjuster = db.prepare("INSERT INTO adjusters VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const adjuster of shuffled) {
    insertAdjuster.run(
      adjuster.id,
      adjuster.name,
      adjuster.name.toLowerCase().replace(/[^a-z]+/g, ".") + "@regional-mutual.example",
      adjuster.region,
      adjuster.states.join(","),
      adjuster.status,
      randomDate(random, addDays(referenceDate, -4000), addDays(referenceDate, -200)),
    );
  }

  const events: CatEvent[] = [];
  for (let index = 0; index < factors.files; index += 1) {
    const region = random.pick(Object.keys(REGIONS));
    const start = addDays(referenceDate, -25 - 38 * index - random.int(0, 10));
    const pool = (REGIONS[region] ?? []).flatMap((state) => zips.get(state) ?? []);
    events.push({
      code: `CAT-25-${String(11 - index).padStart(2, "0")}`,
      name: EVENT_NAMES[index % EVENT_NAMES.length] ?? "Storm",
      perils: [...(EVENT_PERILS[index % EVENT_PERILS.length] ?? [])],
      start,
      end: addDays(start, random.int(1, 3)),
      zips: sample(random, pool, Math.min(pool.length, 3 + random.int(0, 2))).sort(),
    });
  }

  const claims: ClaimRow[] = [];
  const pickAdjuster = (state: string, open: boolean): AdjusterRow => {
    const licensed = shuffled.filter(
      (adjuster) => adjuster.status === "active" && adjuster.states.includes(state),
    );
    const weights = licensed.map((adjuster) => (adjuster === onLeave && open ? 3 : 1));
    return weightedPick(random, licensed, weights);
  };
  const expired = policies.filter((candidate) => candidate.expiration <= addDays(referenceDate, -30));
  let outsideCount = 0;
  let catCount = 0;
  let normalCount = 0;
  for (let n = 1; n <= 120 * factors.rows; n += 1) {
    let policy = random.pick(policies);
    let loss: string;
    let delay = weightedPick(
      random,
      [random.int(0, 10), random.int(11, 45), random.int(46, 150)],
      [70, 22, 8],
    );
    let cause = causeFor(context, policy.line);
    let zip = policy.line === "home" ? policy.zip : random.pick(zips.get(policy.state) ?? []);
    let catCode: string | null = null;
    const roll = random.next();
    const lastCovered = earlierDate(addDays(policy.expiration, -1), addDays(referenceDate, -2));
    if (roll < 0.08 && expired.length > 0) {
      policy = random.pick(expired);
      cause = causeFor(context, policy.line);
      zip = policy.line === "home" ? policy.zip : random.pick(zips.get(policy.state) ?? []);
      const shape = outsideCount % 3;
      outsideCount += 1;
      loss =
        shape === 0
          ? policy.expiration
          : shape === 1
            ? addDays(policy.expiration, random.int(1, 25))
            : addDays(policy.effective, -random.int(1, 30));
      delay = random.int(1, 20);
    } else if (roll < 0.1) {
      loss = addDays(policy.effective, random.int(0, 35));
      if (loss > lastCovered) loss = lastCovered;
      delay = random.int(12, 45);
    } else if (roll < 0.27 && events.length > 0) {
      const event = random.pick(events);
      const shape = catCount % 5;
      catCount += 1;
      let eventZip = random.pick(event.zips);
      const state =
        STATES.find((candidate) => eventZip.startsWith(ZIP_PREFIX[candidate] ?? "--")) ?? policy.state;
      const outsideZips = (zips.get(state) ?? []).filter((candidate) => !event.zips.includes(candidate));
      if (shape === 1 && outsideZips.length > 0) eventZip = random.pick(outsideZips);
      const date =
        shape === 3
          ? random.chance(0.5)
            ? addDays(event.start, -1)
            : addDays(event.end, 1)
          : shape === 4
            ? event.end
            : randomDate(random, event.start, event.end);
      const fits = policies.filter(
        (candidate) =>
          candidate.state === state && candidate.effective <= date && date < candidate.expiration,
      );
      if (fits.length > 0) policy = random.pick(fits);
      loss = fits.length > 0 ? date : randomDate(random, policy.effective, lastCovered);
      zip = fits.length > 0 ? eventZip : zip;
      const perilsOfLine = event.perils.filter((peril) => policy.line === "home" || peril === "hail");
      cause =
        shape !== 0 && shape !== 2 && perilsOfLine.length > 0
          ? random.pick(perilsOfLine)
          : policy.line === "home"
            ? weightedPick(random, ["wind", "hail", "water_damage", "fire"], [5, 4, 1, 1])
            : weightedPick(random, ["hail", "collision", "glass"], [4, 2, 1]);
      delay = random.int(0, 12);
    } else {
      loss = randomDate(random, policy.effective, lastCovered);
      normalCount += 1;
      const extendedDelay = random.int(NOTICE_DAYS.auto ?? 30, EXTENDED_NOTICE_DAYS - 1) + 1;
      const extendedLoss = addDays(referenceDate, -extendedDelay - random.int(3, 40));
      const extended = policies.filter(
        (candidate) =>
          candidate.endorsements.has("EXT_NOTICE") &&
          candidate.effective <= extendedLoss &&
          extendedLoss < candidate.expiration,
      );
      if (normalCount % 10 === 5 && extended.length > 0) {
        policy = random.pick(extended);
        cause = causeFor(context, policy.line);
        zip = policy.line === "home" ? policy.zip : random.pick(zips.get(policy.state) ?? []);
        loss = extendedLoss;
        delay = extendedDelay;
      } else if (random.chance(0.06)) delay = policy.line === "home" ? 60 : 30;
      else if (random.chance(0.06)) delay = random.int(61, 119);
    }
    const reported = earlierDate(addDays(loss, delay), referenceDate);
    const age = daysBetween(reported, referenceDate);
    const outside = loss < policy.effective || loss >= policy.expiration;
    let status: ClaimRow["status"];
    if (outside) status = outsideCount <= 3 || random.chance(0.85) ? "open" : "denied";
    else if (age > 150) status = weightedPick(random, ["closed", "open", "denied"] as const, [84, 11, 5]);
    else status = weightedPick(random, ["open", "closed", "denied"] as const, [80, 15, 5]);
    if (status !== "denied" && age > 200 && random.chance(0.08))
      catCode = random.pick(["CAT-24-07", "CAT-24-09", "CAT-24-12"]);
    const minimum = MINIMUM_RESERVES[cause] ?? 3000;
    const reserve =
      status === "open" ? roundCents(Math.round((minimum * (0.55 + random.next() * 1.6)) / 50) * 50) : 0;
    claims.push({
      id: claimId.format(n),
      policy,
      adjuster: pickAdjuster(policy.state, status === "open"),
      loss,
      reported,
      cause,
      zip,
      status,
      reserve,
      catCode,
    });
  }

  const insertClaim = db.prepare("INSERT INTO claims VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertPayment = db.prepare("INSERT INTO claim_payments VALUES (?, ?, ?, ?, ?, ?)");
  const insertNote = db.prepare(
    "INSERT INTO claim_notes (claim_id, author, written_on, body) VALUES (?, ?, ?, ?)",
  );
  let payments = 0;
  const pay = (claim: ClaimRow, paidOn: string, amount: number, payee: string, status: string): void => {
    payments += 1;
    insertPayment.run(paymentId.format(payments), claim.id, paidOn, amount, payee, status);
  };
  const fieldNotes: string[] = [];
  for (const claim of claims) {
    const description = describeLoss(context, claim.cause, claim.policy.line);
    insertClaim.run(
      claim.id,
      claim.policy.id,
      claim.adjuster.id,
      claim.loss,
      claim.reported,
      claim.cause,
      claim.zip,
      claim.policy.state,
      description,
      claim.status,
      claim.reserve,
      claim.catCode,
      0,
    );
    const author = claim.adjuster.name;
    insertNote.run(
      claim.id,
      "Claims intake",
      claim.reported,
      `First notice of loss received ${random.pick(["by phone", "through the web portal", "from the agent", "by email"])}; ${claim.cause.replace("_", " ")} reported at ZIP ${claim.zip}.`,
    );
    if (random.chance(0.5))
      insertNote.run(
        claim.id,
        author,
        addDays(claim.reported, random.int(1, 9)),
        random.pick([
          "Contacted insured, inspection scheduled.",
          "Estimate requested from contractor.",
          "Recorded statement taken.",
          "Photos received and added to file.",
          "Awaiting repair invoice.",
        ]),
      );
    if (claim.status !== "denied") {
      const cap = capOf(claim.policy, claim.cause);
      const kind = random.next();
      const ceiling = claim.policy.line === "home" ? 32000 : 11000;
      let amount = randomAmount(random, 400, Math.max(500, Math.min(ceiling, cap * 0.9)));
      if (kind < 0.07) amount = roundCents(cap + randomAmount(random, 20, 1500));
      else if (kind < 0.1)
        amount = roundCents(cap + randomAmount(random, 1, Math.max(2, claim.policy.deductible - 1)));
      else if (kind < 0.14 && sublimitOf(claim.policy.line, claim.cause) !== undefined)
        amount = roundCents(cap + randomAmount(random, 50, 2500));
      const parts = claim.status === "closed" || amount > cap ? random.int(1, 3) : random.int(0, 2);
      let remaining = amount;
      for (let part = 1; part <= parts; part += 1) {
        const value =
          part === parts ? roundCents(remaining) : roundCents(remaining * (0.3 + random.next() * 0.4));
        remaining = roundCents(remaining - value);
        const payee = random.chance(0.5) ? claim.policy.holderName : faker.company.name();
        pay(claim, addDays(claim.reported, 5 + 12 * part), value, payee, "issued");
      }
      if (parts > 0 && random.chance(0.12)) {
        const voided = roundCents(Math.max(cap - amount, 0) + randomAmount(random, 100, 2000));
        pay(claim, addDays(claim.reported, 9), voided, faker.company.name(), "voided");
      }
    }
    if (
      (claim.status !== "denied" && claim.reported >= addDays(referenceDate, -200) && random.chance(0.55)) ||
      claim.status === "open"
    ) {
      let phrase: string | null = null;
      const flood = EXCLUSIONS[0];
      if (
        claim.policy.line === "home" &&
        claim.policy.endorsements.has("FLOOD_BUYBACK") &&
        random.chance(0.35)
      )
        phrase = random.pick(flood.indicators);
      else if (random.chance(claim.status === "closed" ? 0.5 : 0.12)) {
        const exclusion = random.pick(
          EXCLUSIONS.filter((candidate) => candidate.lines.includes(claim.policy.line)),
        );
        phrase = random.pick(exclusion.indicators);
      }
      const visited = addDays(claim.reported, random.int(2, 12));
      fieldNotes.push(
        `## ${claim.id} (policy ${claim.policy.id}), visited ${visited} by ${author}\n\n${fieldNoteText(context, claim.cause, phrase)}\n`,
      );
    }
  }

  writeClaimsDocuments(context, {
    onLeave,
    returned,
    events,
    fieldNotes,
    correspondence: sample(
      random,
      claims.filter((claim) => claim.status === "open"),
      3 * factors.files,
    ),
  });
}

function describeLoss(context: GenerateContext, cause: string, line: string): string {
  const texts: Record<string, string[]> = {
    wind: ["Shingles blown off roof during storm", "Fence and siding damaged by high winds"],
    hail:
      line === "home"
        ? ["Hail damage to roof and gutters", "Hail dented siding and broke a skylight"]
        : ["Hail dents across hood and roof of vehicle"],
    fire: ["Kitchen fire spread to cabinets", "Garage fire from a space heater"],
    theft:
      line === "home"
        ? ["Break-in, electronics and jewelry taken"]
        : ["Vehicle stolen from driveway", "Catalytic converter stolen"],
    water_damage: ["Burst pipe flooded basement finish", "Water heater failure soaked flooring"],
    mold: ["Mold found behind bathroom wall"],
    lightning: ["Lightning strike damaged electrical panel"],
    collision: ["Rear-ended at a stop light", "Collided with a deer on county road"],
    glass: ["Windshield cracked by road debris"],
    vandalism: ["Vehicle keyed and tires slashed overnight"],
  };
  return context.random.pick(texts[cause] ?? ["Loss reported by insured"]);
}

const NEUTRAL_SENTENCES = [
  "Insured met me on site and walked the damage with me.",
  "Took photos of all four elevations and the interior rooms affected.",
  "Contractor estimate received and reviewed line by line.",
  "Damage is consistent with the reported date and cause.",
  "No prior damage noted in the underwriting photos.",
  "Moisture readings taken in the affected rooms.",
  "Recommended emergency mitigation to prevent further loss.",
  "Vehicle inspected at the body shop; parts list agreed.",
  "Neighbor confirmed the timeline of events.",
  "Insured will send receipts for the temporary repairs.",
];

function fieldNoteText(context: GenerateContext, cause: string, phrase: string | null): string {
  const sentences = sample(context.random, NEUTRAL_SENTENCES, 3);
  if (phrase) {
    const clue = context.random.pick([
      `On closer look the damage points to ${phrase} rather than the ${cause.replace("_", " ")} reported.`,
      `Insured mentioned ${phrase} in the area the week of the loss.`,
      `Observed signs of ${phrase} along the lower wall and framing.`,
    ]);
    sentences.splice(context.random.int(0, sentences.length), 0, clue);
  }
  return sentences.join(" ");
}
