import {
  addBusinessDays,
  addDays,
  allRows,
  cachedStatement,
  personName,
  randomDate,
  roundCents,
  slug,
  weekdayIndex,
  type GenerateContext,
} from "../../envs/index.js";
import { writeDocuments, type DirectoryEntry } from "./documents.js";
import { renderWeekLog } from "./logs.js";
import {
  COVERAGES,
  HOLIDAYS,
  RETAINAGE,
  SUBMITTAL_DAYS,
  TRADES,
  contractId,
  payAppId,
  projectId,
  rfiId,
  subId,
  submittalId,
} from "./rules.js";
import { CO_STORIES, ThreadWriter, coId, coSubject, coThread, conversation, type Person } from "./threads.js";

/** Inserts one row, its values in column order. */
function put(db: GenerateContext["db"], table: string, ...values: unknown[]): void {
  cachedStatement(db, `INSERT INTO ${table} VALUES (${values.map(() => "?").join(", ")})`).run(...values);
}

const PROJECTS: Array<[string, string]> = [
  ["Harbor View Medical Office", "Portland"],
  ["Maple Street Lofts", "Tacoma"],
  ["Northgate Elementary School", "Everett"],
  ["Riverside Logistics Center", "Kent"],
];
const HOLIDAY_SET = new Set(HOLIDAYS);
const GC = "Summit Ridge Builders";

interface Project {
  id: string;
  label: string;
  pm: Person;
  owner: Person;
  architect: Person;
}
interface Sub {
  id: string;
  name: string;
  contact: Person;
}

function insertPeople(context: GenerateContext) {
  const { db, faker, factors } = context;
  const taken = new Set<string>();
  const directory: DirectoryEntry[] = [];
  const person = (domain: string, title: string, company: string, project: string): Person => {
    const p = personName(faker, domain, taken);
    directory.push({ name: p.fullName, email: p.email, role: title, project });
    put(db, "staff", p.email, p.fullName, title, project === "all" ? null : project);
    return { name: p.fullName, email: p.email, title, company };
  };
  const pe = person("summitridge.com", "Project executive", GC, "all");
  const projects: Project[] = PROJECTS.slice(0, Math.min(4, 1 + factors.files)).map(([name, city], k) => {
    const id = projectId.format(k + 1);
    const superintendent = faker.person.fullName();
    put(db, "projects", id, name, city, superintendent);
    const ownerCompany = `${name.split(" ")[0]} Development LLC`;
    return {
      id,
      label: `${id} ${name}`,
      pm: person("summitridge.com", "Project manager", GC, id),
      owner: person(`${slug(ownerCompany)}.com`, "Owner's representative", ownerCompany, id),
      architect: person("lindqvist-arch.com", "Architect", "Lindqvist Architects", id),
    };
  });
  const subs: Sub[] = [];
  for (let n = 1; n <= 6 * factors.rows + 4; n += 1) {
    const trade = TRADES[(n - 1) % TRADES.length]!;
    const name = `${faker.person.lastName()} ${trade === "Steel erection" ? "Steel" : trade} ${context.random.pick(["Inc.", "LLC", "Co."])}`;
    const contact = personName(faker, `${slug(name)}.com`, taken);
    put(db, "subcontractors", subId.format(n), name, trade, contact.fullName, contact.email);
    subs.push({
      id: subId.format(n),
      name,
      contact: { name: contact.fullName, email: contact.email, title: "Project manager", company: name },
    });
  }
  return { pe, projects, subs, directory };
}

const DESCRIPTIONS = [
  "Added blocking for owner-furnished casework",
  "Relocate floor drains per RFI response",
  "Additional rock excavation at grid C",
  "Upgrade lobby light fixtures",
  "Extra fire caulking at rated shafts",
  "Revised storefront framing at entry",
  "Added roof curb for new exhaust fan",
  "Overtime to recover the steel schedule",
  "Temporary heat during slab pour",
  "Additional conduit for security system",
  "Replace damaged sidewalk panels",
  "Extra coat of primer on exposed steel",
];

interface Contract {
  id: string;
  project: Project;
  sub: Sub;
  original: number;
  /** The log's change orders: approved (at approved amounts), pending (requested), approved below the request. */
  log: { approved: number; pending: number; shortfall: number };
}

function insertContracts(context: GenerateContext, projects: Project[], subs: Sub[]): Contract[] {
  const { db, random, factors, referenceDate: today } = context;
  const contracts: Contract[] = [];
  for (let n = 1; n <= 10 * factors.rows; n += 1) {
    const project = projects[(n - 1) % projects.length]!;
    const sub = n <= subs.length ? subs[n - 1]! : random.pick(subs);
    const original = Math.round(random.int(800, 9000)) * 100;
    const id = contractId.format(n);
    put(
      db,
      "contracts",
      id,
      project.id,
      sub.id,
      `${sub.name.split(" ").slice(1, -1).join(" ")} work`,
      original,
      addDays(today, -random.int(200, 420)),
    );
    const lines = random.int(3, 6);
    let left = original;
    for (let line = 1; line <= lines; line += 1) {
      const value = line === lines ? left : roundCents((original / lines) * (0.7 + random.next() * 0.6));
      left = roundCents(left - value);
      put(
        db,
        "sov_lines",
        id,
        line,
        random.pick(["Mobilization", "Materials", "Labor", "Rough-in", "Finish", "Closeout", "Submittals"]),
        value,
      );
    }
    contracts.push({ id, project, sub, original, log: { approved: 0, pending: 0, shortfall: 0 } });
  }
  return contracts;
}

/** Change orders and their threads; the log is up to date for some and behind or wrong for others. */
function insertChangeOrders(
  context: GenerateContext,
  writer: ThreadWriter,
  contracts: Contract[],
  pe: Person,
): void {
  const { db, random, factors, referenceDate: today } = context;
  for (let k = 0; k < 15 * factors.rows; k += 1) {
    const story = CO_STORIES[k % CO_STORIES.length]!;
    const contract = k < contracts.length ? contracts[k]! : random.pick(contracts);
    const co = coId.format(k + 1);
    const description = random.pick(DESCRIPTIONS);
    const request = {
      coId: co,
      contractId: contract.id,
      projectLabel: contract.project.label,
      subLabel: `${contract.sub.id} ${contract.sub.name}`,
      description,
    };
    const { project } = contract;
    const cast = {
      sub: contract.sub.contact,
      pm: project.pm,
      pe,
      owner: project.owner,
      architect: project.architect,
    };
    const start = addDays(today, -random.int(12, 160));
    const { messages, requested, firstApproved, final } = coThread(context, story, request, cast, start);
    const thread = writer.write(project.id, coSubject(co, description, contract.id), messages);
    const decidedOn = messages.at(-1)!.sent_at.slice(0, 10);
    // What the log says: correct, still pending, or stale (a first approval later revised or revoked, an unauthorized approval).
    const odd = k % 2 === 1;
    let log: [string, number | null, string | null] = ["pending", null, null];
    if (story === "revised" || story === "revoked")
      log = ["approved", firstApproved, messages.at(-2)!.from_email];
    else if (story === "unauthorized" && !odd) log = ["approved", requested, project.pm.email];
    else if ((story === "direct" || story === "reduced" || story === "rejected") && !odd)
      log = [final.status, final.amount, final.decidedBy];
    if (story === "revised") log[2] = project.owner.email;
    if (story === "revoked") log[2] = pe.email;
    const sums = contract.log;
    if (log[0] === "pending") sums.pending = roundCents(sums.pending + requested);
    if (log[0] === "approved") sums.approved = roundCents(sums.approved + log[1]!);
    if (log[0] === "approved") sums.shortfall = roundCents(sums.shortfall + requested - log[1]!);
    put(
      db,
      "change_orders",
      co,
      contract.id,
      description,
      requested,
      log[0],
      log[1],
      log[2],
      log[0] === "pending" ? null : decidedOn,
      thread,
    );
  }
}

/** A cent more where a retainage rate would land on half a cent (no rounding convention decides an answer). */
const noHalfCent = (work: number): number => {
  const cents = Math.round(work * 100);
  return cents % 10 === 5 || cents % 20 === 10 ? (cents + 1) / 100 : work;
};

/**
 * Monthly pay applications; each contract's latest is submitted, approved or paid in turn. Submitted ones get
 * the retainage plants first, each on the first contract it fits ([fraction of the adjusted sum, rate held]):
 * at half the original sum or more but under half the adjusted one (10%); at exactly half (5%); just over half,
 * but under half of the sum with pending requests or with requested instead of approved amounts (5%). The
 * rest take turns: over half holding 10% (wrong), under half holding 5% (wrong), then right. Approved ones hold
 * the wrong rate (not this month's audit). Returns the subcontractors with unpaid ones, approved ones first.
 */
function insertPayApps(context: GenerateContext, contracts: Contract[]): Sub[] {
  const { db, random } = context;
  const { before, after, thresholdPct } = RETAINAGE;
  const statuses = ["submitted", "approved", "submitted", "submitted", "paid"] as const;
  const status = (index: number) => statuses[index % statuses.length]!;
  const adjusted = (c: Contract): number => roundCents(c.original + c.log.approved);
  const half = (c: Contract): number => (adjusted(c) * thresholdPct) / 100;
  const plants: Array<[(c: Contract) => boolean, (c: Contract) => [number, number]]> = [
    [(c) => c.log.shortfall > 0, (c) => [(half(c) + c.log.shortfall / 4) / adjusted(c), after]],
    [(c) => c.log.approved > 0, (c) => [(half(c) - c.log.approved / 4) / adjusted(c), before]],
    [(c) => c.log.pending > 0, (c) => [(half(c) + c.log.pending / 4) / adjusted(c), after]],
    [(c) => c.log.approved === 0, () => [thresholdPct / 100, after]],
  ];
  const planted = new Map<Contract, [number, number]>();
  const submitted = contracts.filter((_, index) => status(index) === "submitted");
  for (const [fits, plan] of plants) {
    const contract = submitted.find((c) => !planted.has(c) && fits(c));
    if (contract) planted.set(contract, plan(contract));
  }
  let [apps, turn] = [0, 0];
  const unpaid: Sub[][] = [[], []];
  contracts.forEach((contract, index) => {
    const count = random.int(1, 4);
    const submitted = status(index) === "submitted";
    const kind = submitted && !planted.has(contract) ? turn++ % 4 : random.int(0, 3);
    const fraction = kind % 2 ? 0.15 + random.next() * 0.3 : 0.55 + random.next() * 0.4;
    // Turns 0 and 1 hold the rate of the other side of the threshold, and so does every approved one.
    const held = status(index) === "approved" || (submitted && kind < 2) ? (kind % 2 ? after : before) : 0;
    const plan = planted.get(contract) ?? [fraction, held];
    let previous = 0;
    for (let app = 1; app <= count; app += 1) {
      const last = app === count;
      const work = noHalfCent(roundCents(adjusted(contract) * plan[0] * (last ? 1 : app / count)));
      const rate = last && plan[1] ? plan[1] : work >= half(contract) ? after : before;
      const retainage = roundCents((work * rate) / 100);
      const due = roundCents(work - retainage - previous);
      const period = `2025-${String(6 - count + app).padStart(2, "0")}-25`;
      const state = last ? status(index) : "paid";
      put(
        db,
        "pay_apps",
        payAppId.format(++apps),
        contract.id,
        app,
        period,
        work,
        retainage,
        previous,
        due,
        state,
        null,
      );
      previous = roundCents(previous + due);
    }
    if (status(index) !== "paid") unpaid[status(index) === "approved" ? 0 : 1]!.push(contract.sub);
  });
  return [...new Set(unpaid.flat())];
}

/**
 * Certificates: most current, some with an expired predecessor. Subcontractors with unpaid pay apps take turns
 * in the COI traps: an AUTO or WC certificate lapsed; an expired GL certificate since renewed; a GL certificate
 * expiring today; a GL limit at half the minimum; no AUTO or WC certificate at all.
 */
function insertCertificates(context: GenerateContext, subs: Sub[], unpaid: Sub[]): void {
  const { db, random, referenceDate: today } = context;
  const insurers = ["Cascade Mutual", "Northwest Casualty", "Pioneer Indemnity", "Evergreen Specialty"];
  for (const sub of subs) {
    const trap = unpaid.includes(sub) ? unpaid.indexOf(sub) % 5 : -1;
    const trapCoverage = random.pick(["AUTO", "WC"]);
    for (const [code, , minimum] of COVERAGES) {
      const insurer = random.pick(insurers);
      const policy = () => `${code}-${random.int(100000, 999999)}`;
      let expires = addDays(today, random.int(20, 330));
      let each = minimum * random.pick([1, 1, 2]);
      if (trap === 4 && code === trapCoverage) continue;
      if (trap === 0 && code === trapCoverage) expires = addDays(today, -random.int(1, 40));
      if (trap === 2 && code === "GL") expires = today;
      if (trap === 3 && code === "GL") each = minimum / 2;
      if ((trap === 1 && code === "GL") || random.chance(0.3)) {
        const old = addDays(expires, -365);
        const lapsed = old < today ? old : addDays(today, -1);
        put(db, "certificates", null, sub.id, code, insurer, policy(), each, addDays(old, -365), lapsed);
      }
      put(db, "certificates", null, sub.id, code, insurer, policy(), each, addDays(expires, -365), expires);
    }
  }
}

const QUESTIONS = [
  "The structural and architectural drawings disagree on the slab edge at grid 4. Which governs?",
  "Door hardware set 12 lists a closer the frame cannot take. Please confirm a substitute.",
  "The duct route on M-201 clashes with the beam at line C. Can the duct drop below the beam?",
  "No finish is scheduled for the stair 2 walls. Please confirm paint or epoxy.",
  "Embed plates at the canopy are not dimensioned. Please provide locations.",
  "The specified roof membrane is discontinued. Is the manufacturer's replacement acceptable?",
];

function insertRfis(context: GenerateContext, projects: Project[]): void {
  const { db, random, factors, referenceDate: today } = context;
  const planted: Array<[string, string]> = [
    ["standard", "2025-06-18"], // due today once the Juneteenth holiday is skipped
    ["standard", "2025-06-20"], // seven calendar days ago, not seven working days
    ["urgent", addBusinessDays(today, -5, HOLIDAY_SET)], // overdue at three working days, not at seven
    ["urgent", addBusinessDays(today, -2, HOLIDAY_SET)],
  ];
  for (let n = 1; n <= 24 * factors.rows; n += 1) {
    const project = projects[(n * 7) % projects.length]!;
    const plant = planted[n - 1];
    const priority = plant?.[0] ?? (random.chance(0.15) ? "urgent" : "standard");
    const sent = plant?.[1] ?? randomDate(random, addDays(today, -120), addDays(today, -1));
    const answered = plant ? null : addBusinessDays(sent, random.int(1, 12), HOLIDAY_SET);
    const open = !answered || answered >= today || random.chance(0.25);
    const question = random.pick(QUESTIONS);
    put(
      db,
      "rfis",
      rfiId.format(n),
      project.id,
      question.split(/[.?]/)[0]!.slice(0, 60),
      priority,
      sent,
      question,
      open ? "open" : "answered",
      open ? null : answered,
      open ? null : "See the attached sketch; proceed as described.",
    );
  }
}

const SECTIONS: Array<[string, string]> = [
  ["03 30 00", "Cast-in-place concrete mix designs"],
  ["05 12 00", "Structural steel shop drawings"],
  ["07 54 00", "TPO roofing membrane"],
  ["08 41 13", "Aluminum storefront"],
  ["09 29 00", "Gypsum board assemblies"],
  ["09 91 23", "Interior paint colours"],
  ["23 31 13", "Ductwork layout"],
  ["26 51 00", "Interior lighting fixtures"],
];

function insertSubmittals(context: GenerateContext, projects: Project[]): void {
  const { db, random, factors, referenceDate: today } = context;
  const types = Object.keys(SUBMITTAL_DAYS);
  for (let n = 1; n <= 20 * factors.rows; n += 1) {
    const project = projects[(n * 5) % projects.length]!;
    const [section, title] = random.pick(SECTIONS);
    // Planted: a resubmittal two working days old after a first review long ago; a sample seven working days
    // old; product data sent on a Friday seven calendar days before a Monday; product data due today once the
    // Juneteenth holiday is skipped.
    const type =
      (["shop drawing", "sample", "product data", "product data"] as const)[n - 1] ?? random.pick(types);
    const revisions: Array<[string, string | null, string | null]> = [];
    if (n === 1) {
      const first = addDays(today, -60);
      revisions.push([first, addBusinessDays(first, 6, HOLIDAY_SET), "revise and resubmit"]);
      revisions.push([addBusinessDays(today, -2, HOLIDAY_SET), null, null]);
    } else if (n <= 4) {
      const sent = [addBusinessDays(today, -7, HOLIDAY_SET), "2025-06-20", "2025-06-18"][n - 2]!;
      revisions.push([sent, null, null]);
    } else {
      let submitted = randomDate(random, addDays(today, -150), addDays(today, -2));
      for (let rev = 0; rev < 4; rev += 1) {
        const returned = addBusinessDays(submitted, random.int(2, 14), HOLIDAY_SET);
        if (returned >= today || random.chance(0.3)) {
          revisions.push([submitted, null, null]);
          break;
        }
        const done = rev === 3 || random.chance(0.6);
        const action = done ? random.pick(["approved", "approved as noted"]) : "revise and resubmit";
        revisions.push([submitted, returned, action]);
        if (done) break;
        submitted = addDays(returned, random.int(3, 15));
        if (submitted >= today) submitted = addDays(today, -1);
      }
    }
    const final = revisions.at(-1)!;
    const status =
      final[1] === null ? "under_review" : final[2] === "approved" ? "approved" : "approved_as_noted";
    put(db, "submittals", submittalId.format(n), project.id, section, title, type, status);
    revisions.forEach(([on, back, action], rev) =>
      put(db, "submittal_revisions", submittalId.format(n), rev, on, back, action),
    );
  }
}

/** Threads about RFIs and submittals beside the change-order threads: no change order, no decision that counts. */
function insertCorrespondence(
  context: GenerateContext,
  writer: ThreadWriter,
  projects: Project[],
  subs: Sub[],
): void {
  const { db, random, factors, referenceDate: today } = context;
  const rfis = allRows<{
    rfi_id: string;
    project_id: string;
    subject: string;
    priority: string;
    sent_on: string;
    question: string;
    status: string;
  }>(db, "SELECT * FROM rfis");
  const submittals = allRows<{ submittal_id: string; project_id: string; title: string; status: string }>(
    db,
    "SELECT * FROM submittals",
  );
  for (let n = 1; n <= 12 * factors.rows; n += 1) {
    const { messages, send } = conversation(random, addDays(today, -random.int(10, 120)));
    if (n % 2 === 1) {
      const rfi = random.pick(rfis);
      const project = projects.find((p) => p.id === rfi.project_id)!;
      const form = `REQUEST FOR INFORMATION ${rfi.rfi_id}\nProject: ${project.label}\nPriority: ${rfi.priority}\nSent: ${rfi.sent_on}\nQuestion: ${rfi.question}`;
      send(
        project.pm,
        project.architect,
        `${project.architect.name.split(" ")[0]},\n\n${rfi.rfi_id} is attached. The crew is working around it; an answer this week would help.`,
        { style: "top", attachment: { name: `${rfi.rfi_id}.txt`, text: form } },
      );
      send(
        project.architect,
        project.pm,
        rfi.status === "answered"
          ? `Our answer to ${rfi.rfi_id} is in the RFI log: proceed as described in the attached sketch.`
          : `We are reviewing ${rfi.rfi_id} with the engineer of record and will respond through the RFI log.`,
      );
      if (random.chance(0.5))
        send(project.pm, project.architect, "Thanks, I have passed this on to the superintendent.");
      writer.write(project.id, `${rfi.rfi_id}: ${rfi.subject}`, messages);
    } else {
      const submittal = random.pick(submittals);
      const project = projects.find((p) => p.id === submittal.project_id)!;
      const sub = random.pick(subs).contact;
      send(
        sub,
        project.pm,
        `Attached is our submittal ${submittal.submittal_id} (${submittal.title}) for review.`,
        { style: "top" },
      );
      send(
        project.pm,
        project.architect,
        `Please review ${submittal.submittal_id}; the fabrication slot is booked.`,
      );
      const verdict =
        submittal.status === "approved"
          ? "Approved."
          : submittal.status === "approved_as_noted"
            ? "Approved as noted. Field-verify dimensions before fabrication."
            : "Still under review; we will return it through the submittal log.";
      send(project.architect, project.pm, `${verdict}\nStamped copy to follow.`);
      writer.write(project.id, `${submittal.submittal_id}: ${submittal.title}`, messages);
    }
  }
}

/** Weekly daily-log files per project, the most recent weeks before today. */
function writeDailyLogs(context: GenerateContext, projects: Project[], subs: Sub[]): void {
  const { random, factors, referenceDate: today } = context;
  const weeks = Math.floor((9 * factors.files + 2) / projects.length);
  const monday = addDays(today, -7 - weekdayIndex(today));
  for (const project of projects) {
    const superintendent = cachedStatement(
      context.db,
      "SELECT superintendent FROM projects WHERE project_id = ?",
    )
      .pluck()
      .get(project.id) as string;
    for (let w = 0; w < weeks; w += 1) {
      const start = addDays(monday, -7 * w);
      context.writeFile(
        `daily-logs/${project.id.toLowerCase()}/${start}.txt`,
        renderWeekLog(random, {
          project: project.label,
          superintendent,
          start,
          latest: w === 0,
          crews: subs,
        }),
      );
    }
  }
}

export function generateConstruction(context: GenerateContext): void {
  const { pe, projects, subs, directory } = insertPeople(context);
  const contracts = insertContracts(context, projects, subs);
  const writer = new ThreadWriter(context.db);
  insertChangeOrders(context, writer, contracts, pe);
  const unpaid = insertPayApps(context, contracts);
  insertCertificates(context, subs, unpaid);
  insertRfis(context, projects);
  insertSubmittals(context, projects);
  insertCorrespondence(context, writer, projects, subs);
  writeDailyLogs(context, projects, subs);
  writeDocuments(context, directory);
}
